"""Whose record (docs/sync-api.md, "Whose record"): a record id belongs to the device that stored
it, and to the later enrollments of the same phone. Any other device's push of that id is
answered `foreign`: nothing stored, nothing said about the holder."""
from sqlalchemy import bindparam, select

from ...core.sql_lists import in_list
from ...extensions import db
from ..accounts.models import Device
from .models import FieldRecord

FOREIGN_MESSAGE = "Este identificador não pertence a este aparelho: o registro não foi gravado."
# A cancellation names an auto by id: one this municipality does not hold is refused like any
# foreign id (issue 39: it was stored and then seen by no one), saying nothing of any holder.
FOREIGN_AUTO_MESSAGE = "Auto não encontrado neste município: o pedido de cancelamento não foi gravado."
_devices = Device.__table__
_records = FieldRecord.__table__
_AUTOS_HELD = select(_records.c.id).where(in_list(_records.c.id, "ids"), _records.c.kind == "auto",
                                          _records.c.municipality_id == bindparam("mid"))
_SAME_PHONE = select(_devices.c.id).where(
    in_list(_devices.c.id, "ids"), _devices.c.user_id == bindparam("user_id"),
    _devices.c.municipality_id == bindparam("mid"), _devices.c.public_key == bindparam("key"))


def same_phone(device, device_ids):
    """This device and, of `device_ids`, the earlier enrollments of the same phone: the same
    user, municipality and signing key (a phone that signs in again after its token expired
    gets a new device row and keeps its key and its unsent records)."""
    others = sorted({d for d in device_ids if isinstance(d, int) and d != device.id and 0 < d < 2**31})
    if not others or device.public_key is None:
        return {device.id}
    rows = db.session.connection().execute(_SAME_PHONE, {"ids": others, "user_id": device.user_id,
                                                         "mid": device.municipality_id, "key": device.public_key})
    return {device.id, *(rid for (rid,) in rows)}


def autos_held(municipality_id, ids):
    """Of `ids`, those of autos this municipality holds (one query)."""
    rows = db.session.connection().execute(_AUTOS_HELD, {"ids": sorted(set(ids)), "mid": municipality_id})
    return {rid for (rid,) in rows}


def foreign_answer(rid, field="id", message=FOREIGN_MESSAGE):
    return {"id": rid, "status": "foreign", "errors": {field: [message]}, "flags": [],
            "missing_photos": [], "received_at": None}
