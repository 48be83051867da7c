"""The storage interface (core.storage) on both backends: the instance folder and a real
S3-protocol server (moto_server on 127.0.0.1, tests/object_store.py)."""
import hashlib
import io

import pytest
from PIL import Image

from helpers import csrf_token, login
from server.extensions import db
from server.core.storage import LocalFolderStorage, S3Storage, parse_s3_url, storage
from server.modules.registry.models import Municipality, Operator

pytestmark = pytest.mark.usefixtures("storage_backend")


def _key(data: bytes) -> str:
    digest = hashlib.sha256(data).hexdigest()
    return f"{digest[:2]}/{digest}.bin"


def test_backend_follows_the_setting(app, storage_backend):
    with app.app_context():
        expected = S3Storage if storage_backend == "s3" else LocalFolderStorage
        assert isinstance(storage(), expected) and isinstance(storage("photos"), expected)


def test_write_read_stream_and_list(app):
    data = bytes(range(256)) * 1000  # 256 KB: several chunks when streamed
    key = _key(data)
    with app.app_context():
        store = storage()
        assert not store.exists(key) and store.read(key) is None and store.open(key) is None
        store.write(key, data)
        assert store.exists(key) and store.read(key) == data
        blob = store.open(key)
        try:
            assert blob.size == len(data)
            parts = list(iter(lambda: blob.stream.read(64 * 1024), b""))
        finally:
            blob.stream.close()
        assert len(parts) == 4 and b"".join(parts) == data
        assert list(store.keys()) == [key]
        assert list(storage("photos").keys()) == []  # the areas do not see each other


def test_a_key_is_never_overwritten(app):
    """Keys name their content: a second write under a key that exists (HEAD before PUT) is
    skipped, so what was stored first is what is read."""
    first = b"first bytes"
    key = _key(first)
    with app.app_context():
        store = storage()
        store.write(key, first)
        store.write(key, b"other bytes under the same name")
        assert store.read(key) == first


def test_an_anonymised_operator_photo_is_deleted_from_the_store(app):
    """LGPD anonymisation removes an operator's photo from either backend (registry.photos)."""
    from server.modules.registry.photos import delete_operator_photo
    data = b"\xff\xd8 a photo"
    key = _key(data)
    with app.app_context():
        store = storage("photos")
        store.write(key, data)
        assert store.exists(key)
        delete_operator_photo(key)
        assert not store.exists(key) and store.read(key) is None
        delete_operator_photo(key)  # already gone: nothing to do, no error


@pytest.mark.parametrize("key", ["../escape.jpg", "/abs.jpg", "a/../../b.jpg", "", "a\\b.jpg"])
def test_keys_that_leave_the_area_are_refused(app, key):
    with app.app_context():
        with pytest.raises(ValueError):
            storage().write(key, b"x")


def test_objects_are_private(app, storage_backend, s3_server):
    """No public bucket: nothing we store grants anyone but the owner a right to it."""
    if storage_backend != "s3":
        pytest.skip("an ACL is an object store's notion")
    with app.app_context():
        storage().write("ab/private.jpg", b"x")
        bucket, prefix = parse_s3_url(app.config["STORAGE_URL"])
        acl = s3_server.client().get_object_acl(Bucket=bucket, Key=f"{prefix}evidence/ab/private.jpg")
    grantees = [grant["Grantee"].get("URI", "") for grant in acl["Grants"]]
    assert not [uri for uri in grantees if "AllUsers" in uri or "AuthenticatedUsers" in uri]
    assert [grant["Permission"] for grant in acl["Grants"]] == ["FULL_CONTROL"]


def test_s3_url_is_parsed_or_refused():
    assert parse_s3_url("s3://bucket/a/b/") == ("bucket", "a/b/")
    assert parse_s3_url("s3://bucket") == ("bucket", "")
    with pytest.raises(ValueError):
        parse_s3_url("https://bucket/x")


def test_operator_photo_download_is_streamed_and_scoped(client, app, demo):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        ident = Operator.query.filter_by(municipality_id=muni.id).order_by(Operator.id).first().id
    picture = io.BytesIO()
    Image.new("RGB", (900, 1200), (10, 120, 30)).save(picture, "JPEG")
    login(client, "backoffice.sapezal")
    token = csrf_token(client, f"/bo/operadores/{ident}")
    posted = client.post(f"/bo/operadores/{ident}/foto", data={"csrf_token": token, "photo": (io.BytesIO(picture.getvalue()), "f.jpg")},
                         content_type="multipart/form-data")
    assert posted.status_code == 302
    served = client.get(f"/bo/operadores/{ident}/foto")
    assert served.status_code == 200 and served.content_length == len(served.data)
    with app.app_context():
        operator = db.session.get(Operator, ident)
        assert served.data == storage("photos").read(operator.photo_path)
        assert operator.photo_path.endswith(f"{hashlib.sha256(served.data).hexdigest()}.jpg")  # content-addressed
    other = app.test_client()
    login(other, "backoffice.paranatinga")
    assert other.get(f"/bo/operadores/{ident}/foto").status_code == 404


def test_the_bucket_is_made_by_the_documented_command_once(app, runner, s3_server, monkeypatch):
    """`flask storage create-bucket` (docs/operations.md, "The object store's bucket"): creates
    STORAGE_URL's bucket with versioning on; a second run changes nothing and says so."""
    import uuid
    for name, value in s3_server.settings().items():
        if name.startswith("AWS_"):
            monkeypatch.setenv(name, value)
    bucket = f"bucket-{uuid.uuid4().hex[:12]}"
    app.config.update(STORAGE_URL=f"s3://{bucket}/producao", STORAGE_ENDPOINT_URL=s3_server.endpoint)
    first = runner.invoke(args=["storage", "create-bucket"])
    assert first.exit_code == 0 and f"Bucket {bucket} criado" in first.output, first.output
    assert s3_server.client().get_bucket_versioning(Bucket=bucket)["Status"] == "Enabled"
    again = runner.invoke(args=["storage", "create-bucket"])
    assert again.exit_code == 0 and "já existe" in again.output
    app.config.update(STORAGE_URL=None)
    monkeypatch.delenv("STORAGE_URL", raising=False)
    unset = runner.invoke(args=["storage", "create-bucket"])
    assert unset.exit_code != 0 and "STORAGE_URL não definido" in unset.output
