"""The evidence photos a record references (record_photo, by SHA-256) and those the device has
not uploaded yet: the push's answer lists them so the phone sends them next (photos.py stores them)."""
from sqlalchemy import and_, bindparam, select

from ...core.sql_lists import in_list
from ...extensions import db
from .models import EvidencePhoto, RecordPhoto


def referenced_photos(parsed):
    hashes = list(parsed.get("photos") or [])
    for values in (parsed.get("item_photos") or {}).values():
        hashes.extend(values)
    signatures = parsed.get("signatures") or {}
    hashes.extend(h for h in (signatures.get("fiscal"), signatures.get("operator")) if h)
    return sorted(set(hashes))


_MISSING_PHOTOS = (select(RecordPhoto.record_id, RecordPhoto.sha256)
                   .outerjoin(EvidencePhoto, and_(EvidencePhoto.sha256 == RecordPhoto.sha256,
                                                  EvidencePhoto.municipality_id == bindparam("mid")))
                   .where(in_list(RecordPhoto.record_id, "ids"), EvidencePhoto.id.is_(None))
                   .order_by(RecordPhoto.sha256))


def missing_photos(record_ids, municipality_id):
    """{record_id: [sha256 not uploaded yet]} for the given records."""
    if not record_ids:
        return {}
    rows = db.session.connection().execute(_MISSING_PHOTOS, {"mid": municipality_id, "ids": list(record_ids)})
    out = {}
    for record_id, sha in rows:
        out.setdefault(record_id, []).append(sha)
    return out
