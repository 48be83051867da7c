"""Evidence photos for the back office: read through the storage interface (core.storage),
only when the municipality holds the photo; thumbnails made once and kept in the same storage."""
import io

from PIL import Image

from ..fieldsync.models import EvidencePhoto
from ..fieldsync.photos import storage_key
from ...core.storage import storage, stored_response

THUMB_EDGE = 320  # long edge: four to a row on a desk screen, two on a phone


def find(municipality_id, sha256):
    return EvidencePhoto.query.filter_by(municipality_id=municipality_id, sha256=sha256).first()


def original(photo):
    return storage().read(storage_key(photo.sha256, photo.content_type))


def original_response(photo):
    """The original streamed as stored (up to SYNC_PHOTO_MAX_BYTES), or None when missing."""
    return stored_response("evidence", storage_key(photo.sha256, photo.content_type), photo.content_type,
                           "private, max-age=86400")


def thumbnail(photo):
    store = storage()
    key = f"review-thumbs/{photo.sha256[:2]}/{photo.sha256}.jpg"
    if store.exists(key):
        return store.read(key)
    data = original(photo)
    if data is None:
        return None
    try:  # checked when uploaded; a file damaged on the volume since is "not found", not a 500
        with Image.open(io.BytesIO(data)) as img:
            img = img.convert("RGB")
            img.thumbnail((THUMB_EDGE, THUMB_EDGE), Image.Resampling.LANCZOS)
            out = io.BytesIO()
            img.save(out, "JPEG", quality=75, optimize=True)
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    store.write(key, out.getvalue())
    return out.getvalue()
