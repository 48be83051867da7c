"""Operator photos: decoded, re-encoded and kept in the "photos" area of the storage interface
(core.storage: instance/photos/ or the object store) by content hash.

Re-encoding with Pillow strips EXIF (GPS, camera serials: LGPD) and normalizes every upload to a
3:4 portrait JPEG of 600×800 px, enough for a 300 dpi crachá photo box. Files are named by the
SHA-256 of what is stored, so the same photo uploaded twice is stored once.
"""
import hashlib
import io

from PIL import Image, ImageOps

from ...core.audit import record
from ...core.images import open_upload
from ...extensions import db
from ...core.storage import storage, stored_response

MAX_UPLOAD_BYTES = 8 * 1024 * 1024
PHOTO_SIZE = (600, 800)  # 3:4 portrait
ACCEPTED_FORMATS = ("JPEG", "PNG", "WEBP")
AREA = "photos"


def read_operator_photo(operator) -> bytes | None:
    """The stored JPEG of an operator (whose municipality the caller checked), or None."""
    if operator is None or not operator.photo_path:
        return None
    return storage(AREA).read(operator.photo_path)


def delete_operator_photo(relative):
    """Remove a stored photo (LGPD anonymisation); the caller checked no other row uses it."""
    storage(AREA).delete(relative)


def operator_photo_response(operator, cache_control):
    """The operator's photo streamed from storage, or None when there is none."""
    if operator is None or not operator.photo_path:
        return None
    return stored_response(AREA, operator.photo_path, "image/jpeg", cache_control)


def normalize_photo(data: bytes) -> bytes:
    """Uploaded bytes → the stored JPEG bytes. Raises ApiError naming the field (413 for an
    image over the pixel limit, refused before its pixels are decoded: core.images)."""
    # Decoded only as large as the 600 × 800 it becomes (core.images: JPEG draft, bounded decodes).
    img = open_upload(data, field="photo", max_bytes=MAX_UPLOAD_BYTES, formats=ACCEPTED_FORMATS, target=PHOTO_SIZE)
    img = ImageOps.fit(img, PHOTO_SIZE, method=Image.Resampling.LANCZOS, centering=(0.5, 0.35))
    out = io.BytesIO()
    img.save(out, "JPEG", quality=85, optimize=True)
    return out.getvalue()


def store_operator_photo(operator, data: bytes, actor=None):
    jpeg = normalize_photo(data)
    digest = hashlib.sha256(jpeg).hexdigest()
    relative = f"{operator.municipality_id}/{digest}.jpg"
    storage(AREA).write(relative, jpeg)  # content-addressed: the same photo twice is stored once
    before = operator.photo_path
    operator.photo_path = relative
    record("photo", "operator", operator.id, {"photo_path": before}, {"photo_path": relative},
           municipality_id=operator.municipality_id, actor=actor)
    db.session.flush()
    return relative
