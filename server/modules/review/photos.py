"""Evidence photos for the back office: read through the storage interface (core.storage),
only when the municipality holds the photo; thumbnails made once and kept in the same storage."""
import io

from PIL import Image

from ..fieldsync.models import EvidencePhoto
from ..fieldsync.photos import storage_key
from ...core.errors import ApiError
from ...core.images import open_upload
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
    # Through the one safe decoder (core.images): decoded only as large as the thumbnail needs
    # (a 12 MP phone photo at 1/4 or 1/8 scale instead of 36 MB of pixels), within the process's
    # decode slots, and upright. Checked when uploaded; a file damaged on the volume since, or one
    # over today's pixel limit, is "not found" rather than a 500. A busy server stays a 503.
    try:
        img = open_upload(data, field="foto", max_bytes=len(data), target=(THUMB_EDGE, THUMB_EDGE))
    except ApiError as refused:
        if refused.status == 503:
            raise
        return None
    with img:
        img.thumbnail((THUMB_EDGE, THUMB_EDGE), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        img.save(out, "JPEG", quality=75, optimize=True)
    store.write(key, out.getvalue())
    return out.getvalue()
