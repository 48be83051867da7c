"""Evidence photos from devices, addressed by the SHA-256 of their bytes, stored as sent.

Checks, cheapest first: declared type, size (413), hash (422), then the image header: its format
must be the declared one and its pixel count under the limit *before* anything is decoded (a
small file can claim a huge canvas); only then is it decoded once to prove it is an image.
The pixel limit is the one every image upload has (core.images: IMAGE_MAX_PIXELS, 413
image_too_large); the bytes are stored as sent, never re-encoded, since their hash is their name.
"""
import hashlib
import io
import warnings

from flask import current_app
from PIL import Image, UnidentifiedImageError
from sqlalchemy.exc import IntegrityError

from ...core.audit import record as audit
from ...core.errors import ApiError
from ...core.images import bomb_refusal, check_dimensions
from ...extensions import db
from .models import EvidencePhoto
from ...core.storage import storage

TYPES = {"image/jpeg": ("JPEG", "jpg"), "image/png": ("PNG", "png")}
DEFAULT_MAX_BYTES = 2 * 1024 * 1024


def _refuse(message):
    return ApiError(422, "validation_error", "Dados inválidos.", {"photo": [message]})


def max_bytes():
    return int(current_app.config.get("SYNC_PHOTO_MAX_BYTES", DEFAULT_MAX_BYTES))


def storage_key(sha256, content_type):
    return f"{sha256[:2]}/{sha256}.{TYPES[content_type][1]}"


def inspect_image(data: bytes, content_type: str):
    """(width, height) of a decodable image of the declared type, or a 422 naming the reason."""
    expected = TYPES[content_type][0]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:  # reads the header only
                if img.format != expected:
                    raise _refuse(f"O conteúdo não é {expected} como declarado.")
                width, height = img.size
                check_dimensions(width, height, field="photo")
                img.load()  # decode once: a truncated or corrupt file fails here
    except ApiError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise bomb_refusal("photo") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise _refuse("O arquivo não é uma imagem válida.") from None
    return width, height


def read_limited(stream, content_length):
    """The request body, or 413 as soon as it exceeds the limit (before reading it all)."""
    limit = max_bytes()
    if content_length is not None and content_length > limit:
        raise ApiError(413, "photo_too_large", f"Foto grande demais (máximo {limit // 1024} KB).")
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise ApiError(413, "photo_too_large", f"Foto grande demais (máximo {limit // 1024} KB).")
    return data


def has_photo(municipality_id, sha256) -> bool:
    return EvidencePhoto.query.filter_by(municipality_id=municipality_id, sha256=sha256).first() is not None


def store_photo(device, sha256, content_type, data):
    """(created, row). Idempotent: the same bytes again answer created=False."""
    if content_type not in TYPES:
        raise ApiError(415, "unsupported_media_type", "Envie a foto como image/jpeg ou image/png.")
    if hashlib.sha256(data).hexdigest() != sha256:
        raise _refuse("O hash SHA-256 do conteúdo não confere com o endereço.")
    existing = EvidencePhoto.query.filter_by(municipality_id=device.municipality_id, sha256=sha256).first()
    if existing is not None:
        return False, existing
    width, height = inspect_image(data, content_type)
    storage().write(storage_key(sha256, content_type), data)  # before the row: a row means bytes exist
    row = EvidencePhoto(municipality_id=device.municipality_id, sha256=sha256, content_type=content_type,
                        size=len(data), width=width, height=height, device_id=device.id)
    try:
        with db.session.begin_nested():
            db.session.add(row)
            db.session.flush()
    except IntegrityError:  # the same photo arriving twice at once: the other upload won (savepoint undone)
        return False, EvidencePhoto.query.filter_by(municipality_id=device.municipality_id, sha256=sha256).one()
    audit("upload_photo", "evidence_photo", row.id, None, {"sha256": sha256, "size": len(data)},
          municipality_id=device.municipality_id)
    return True, row
