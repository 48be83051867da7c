"""Operator thumbnails for the face check at the roadside: ≤ 8 KB JPEG, made once per photo.

Made from the registry photo (registry.photos, 600×800) and kept in the photo storage under
the hash of the source path, so every app server makes or finds the same file.
"""
import hashlib
import io

from PIL import Image

from ..registry.photos import AREA as PHOTOS_AREA
from ...core.storage import storage

MAX_BYTES = 8 * 1024
# GET /api/v1/field/photos?ids=…: per operator with a photo, id and length (u32 big-endian) + JPEG.
PHOTO_PACK_TYPE = "application/vnd.motofiscal.photos"
SIZE = (120, 160)  # 3:4, the face-check box on the phone


def make_thumbnail(source: bytes) -> bytes:
    with Image.open(io.BytesIO(source)) as img:
        img = img.convert("RGB")
        img.thumbnail(SIZE, Image.Resampling.LANCZOS)
        for quality in (70, 60, 50, 40, 30, 20):
            out = io.BytesIO()
            img.save(out, "JPEG", quality=quality, optimize=True, progressive=True)
            if out.tell() <= MAX_BYTES:
                return out.getvalue()
        img.thumbnail((SIZE[0] // 2, SIZE[1] // 2))
        out = io.BytesIO()
        img.save(out, "JPEG", quality=40, optimize=True)
        return out.getvalue()


def thumbnail(photo_path: str):
    """The thumbnail bytes for a registry photo path, or None when the photo file is gone."""
    key = f"thumbs/{hashlib.sha256(photo_path.encode()).hexdigest()}.jpg"
    store = storage()
    if store.exists(key):
        return store.read(key)
    source = storage(PHOTOS_AREA).read(photo_path)
    if source is None:
        return None
    data = make_thumbnail(source)
    store.write(key, data)
    return data
