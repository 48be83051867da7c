"""Operator photos: decoded, re-encoded and stored under instance/photos/ by content hash.

Re-encoding with Pillow strips EXIF (GPS, camera serials: LGPD) and normalizes every upload to a
3:4 portrait JPEG of 600×800 px, enough for a 300 dpi crachá photo box. Files are named by the
SHA-256 of what is stored, so the same photo uploaded twice is stored once.
"""
import hashlib
import io
from pathlib import Path

from flask import current_app
from PIL import Image, ImageOps, UnidentifiedImageError

from ...core.audit import record
from ...core.errors import ApiError
from ...extensions import db

MAX_UPLOAD_BYTES = 8 * 1024 * 1024
PHOTO_SIZE = (600, 800)  # 3:4 portrait
ACCEPTED_FORMATS = {"JPEG", "PNG", "WEBP"}


def photos_root() -> Path:
    return Path(current_app.instance_path) / "photos"


def _refuse(message):
    return ApiError(422, "validation_error", "Dados inválidos.", {"photo": [message]})


def normalize_photo(data: bytes) -> bytes:
    """Uploaded bytes → the stored JPEG bytes. Raises ApiError naming the field."""
    if not data:
        raise _refuse("Escolha um arquivo de foto.")
    if len(data) > MAX_UPLOAD_BYTES:
        raise _refuse("Foto grande demais (máximo 8 MB).")
    try:
        with Image.open(io.BytesIO(data)) as probe:
            kind = probe.format
            probe.verify()
        if kind not in ACCEPTED_FORMATS:
            raise _refuse("Envie uma foto JPEG, PNG ou WebP.")
        with Image.open(io.BytesIO(data)) as img:
            img = ImageOps.exif_transpose(img).convert("RGB")
            img = ImageOps.fit(img, PHOTO_SIZE, method=Image.Resampling.LANCZOS, centering=(0.5, 0.35))
            out = io.BytesIO()
            img.save(out, "JPEG", quality=85, optimize=True)
            return out.getvalue()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise _refuse("O arquivo não é uma imagem válida.") from None


def store_operator_photo(operator, data: bytes, actor=None):
    jpeg = normalize_photo(data)
    digest = hashlib.sha256(jpeg).hexdigest()
    relative = f"{operator.municipality_id}/{digest}.jpg"
    path = photos_root() / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(jpeg)
        tmp.replace(path)  # atomic: a reader never sees half a photo
    before = operator.photo_path
    operator.photo_path = relative
    record("photo", "operator", operator.id, {"photo_path": before}, {"photo_path": relative},
           municipality_id=operator.municipality_id, actor=actor)
    db.session.commit()
    return relative
