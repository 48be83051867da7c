"""Evidence photos addressed by SHA-256: verified, idempotent, size- and pixel-limited, and the
record's missing_photos list until every photo has arrived."""
import io
import struct
import zlib

import pytest
from PIL import Image

from fieldsync_device import FakeDevice, sha256_hex

pytestmark = pytest.mark.usefixtures("storage_backend")  # instance folder, then the S3 server


@pytest.fixture
def phone(client, demo):
    return FakeDevice(client, "fiscal.sapezal")


def jpeg(colour=(200, 30, 30), size=(64, 48)):
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG", quality=80)
    return out.getvalue()


def png(size=(20, 10)):
    out = io.BytesIO()
    Image.new("RGB", size, (0, 90, 200)).save(out, "PNG")
    return out.getvalue()


def huge_canvas_png(width=20000, height=20000):
    """A tiny PNG file whose header claims 400 megapixels (a decompression bomb)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b"")


def put(phone, data, content_type="image/jpeg", sha=None):
    return phone.client.put(f"/api/v1/sync/photos/{sha or sha256_hex(data)}", data=data,
                            headers={**phone.headers, "Content-Type": content_type})


def head(phone, sha):
    return phone.client.head(f"/api/v1/sync/photos/{sha}", headers=phone.headers)


def test_upload_is_verified_and_idempotent(app, phone):
    from server.modules.fieldsync.models import EvidencePhoto
    from server.modules.fieldsync.photos import storage_key
    from server.core.storage import storage
    data = jpeg()
    sha = sha256_hex(data)
    assert head(phone, sha).status_code == 404
    first = put(phone, data)
    assert first.status_code == 201 and first.json == {"sha256": sha, "size": len(data), "created": True}
    assert put(phone, data).status_code == 200
    assert head(phone, sha).status_code == 200
    assert put(phone, png(), "image/png").status_code == 201
    with app.app_context():
        assert EvidencePhoto.query.count() == 2
        assert storage().read(storage_key(sha, "image/jpeg")) == data  # stored as sent


def test_bad_uploads_name_the_reason(phone):
    data = jpeg()
    mismatch = put(phone, data, sha=sha256_hex(b"other bytes"))
    assert mismatch.status_code == 422 and "SHA-256" in mismatch.json["error"]["fields"]["photo"][0]
    as_png = put(phone, data, "image/png")
    assert as_png.status_code == 422 and "PNG" in as_png.json["error"]["fields"]["photo"][0]
    not_image = put(phone, b"GIF89a not really")
    assert not_image.status_code == 422
    truncated = put(phone, data[: len(data) // 2])
    assert truncated.status_code == 422 and truncated.json["error"]["fields"]["photo"] == ["O arquivo não é uma imagem válida."]
    assert put(phone, data, "image/gif").status_code == 415
    bomb = put(phone, huge_canvas_png(), "image/png")
    assert bomb.status_code == 413 and bomb.json["error"]["code"] == "image_too_large"
    assert phone.client.put("/api/v1/sync/photos/nothex", data=data,
                            headers={**phone.headers, "Content-Type": "image/jpeg"}).status_code == 422


def test_pixel_limit_is_checked_before_decoding(app, phone):
    app.config["IMAGE_MAX_PIXELS"] = 1000  # the limit of every image upload (core.images)
    refused = put(phone, jpeg(size=(64, 48)))
    assert refused.status_code == 413
    assert "64 × 48" in refused.json["error"]["fields"]["photo"][0]


def test_over_the_size_limit_is_413(app, phone):
    app.config["SYNC_PHOTO_MAX_BYTES"] = 1000
    noisy = io.BytesIO()
    Image.effect_noise((200, 200), 80).convert("RGB").save(noisy, "JPEG", quality=95)
    response = put(phone, noisy.getvalue())
    assert response.status_code == 413 and response.json["error"]["code"] == "photo_too_large"


def test_record_lists_missing_photos_until_they_arrive(client, phone):
    early, late, signature = jpeg((10, 200, 10)), jpeg((10, 10, 200)), png()
    assert put(phone, early).status_code == 201  # a photo arriving before its record
    body = phone.body("inspection", photos=[sha256_hex(early), sha256_hex(late)],
                      item_photos={"vehicle.mirrors_ok": [sha256_hex(late)]})
    record = phone.record(body)
    result = phone.push([record]).json["results"][0]
    assert result["status"] == "accepted" and result["missing_photos"] == [sha256_hex(late)]
    assert put(phone, late).status_code == 201  # and one after
    assert phone.push([record]).json["results"][0]["missing_photos"] == []
    numbers = phone.reserve(1)
    auto = phone.auto(numbers[0], inspection_id=body["id"],
                      signatures={"fiscal": sha256_hex(signature), "operator": None, "operator_refused": True})
    assert phone.push([auto]).json["results"][0]["missing_photos"] == [sha256_hex(signature)]


def test_photos_are_scoped_to_the_municipality(client, demo, phone):
    data = jpeg()
    put(phone, data)
    stranger = FakeDevice(client, "fiscal.paranatinga")
    assert head(stranger, sha256_hex(data)).status_code == 404
    assert put(stranger, data).status_code == 201  # its own copy of the same evidence
