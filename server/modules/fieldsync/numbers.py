"""Auto numbers: each municipality's yearly series, reserved in blocks per device (the UPDATE on the
series row serialises concurrent reservations), and voided when a printed form is spoiled."""
from sqlalchemy import select, update

from ...core.audit import record as audit
from ...core.clock import local_today
from ...core.errors import ApiError
from ...core.upsert import dialect_insert
from ...extensions import db
from ..registry.models import Municipality
from .models import AutoNumber, AutoNumberBlock, AutoNumberSeries, utcnow


def series_prefix(municipality):
    return (municipality.setting("auto_prefix") or municipality.slug[:3]).upper()


def format_number(prefix, year, seq):
    return f"{prefix}-{year}-{seq:06d}"


def reserve_numbers(device, user, count):
    """A block of `count` numbers of the municipality's series for this year, for this device."""
    municipality = db.session.get(Municipality, device.municipality_id)
    year = local_today().year
    table = AutoNumberSeries.__table__
    connection = db.session.connection()
    connection.execute(dialect_insert(connection, table).values(
        municipality_id=municipality.id, year=year, last_seq=0).on_conflict_do_nothing())
    # The UPDATE takes the row lock: concurrent reservations queue here and never overlap.
    connection.execute(update(table).where(table.c.municipality_id == municipality.id, table.c.year == year)
                       .values(last_seq=table.c.last_seq + count))
    last = connection.execute(select(table.c.last_seq).where(
        table.c.municipality_id == municipality.id, table.c.year == year)).scalar_one()
    first = last - count + 1
    block = AutoNumberBlock(municipality_id=municipality.id, device_id=device.id, user_id=user.id,
                            year=year, first_seq=first, count=count)
    db.session.add(block)
    db.session.flush()
    prefix = series_prefix(municipality)
    numbers = [format_number(prefix, year, seq) for seq in range(first, last + 1)]
    db.session.add_all(AutoNumber(municipality_id=municipality.id, block_id=block.id, device_id=device.id,
                                  number=n) for n in numbers)
    audit("reserve_numbers", "auto_number_block", block.id, None,
          {"device_id": device.id, "first": numbers[0], "last": numbers[-1], "count": count},
          municipality_id=municipality.id)
    return block, numbers


def _device_number(device, number):
    row = AutoNumber.query.filter_by(municipality_id=device.municipality_id, number=number).first()
    if row is None or row.device_id != device.id:
        raise ApiError(404, "number_unknown", "Número de auto desconhecido para este aparelho.",
                       {"number": ["Este número não pertence aos blocos deste aparelho."]})
    return row


def void_number(device, number, reason):
    """Void an unused number (a spoiled form): it is never used again and stays reported."""
    row = _device_number(device, number)
    if row.status == "voided":
        return row
    won = db.session.execute(update(AutoNumber).where(AutoNumber.id == row.id, AutoNumber.status == "reserved")
                             .values(status="voided", void_reason=reason, voided_at=utcnow())).rowcount
    if not won:  # another request voided it or used it meanwhile: nothing written here
        db.session.refresh(row)
        if row.status == "voided":
            return row
        raise ApiError(409, "number_used", "Este número já foi usado em um auto e não pode ser inutilizado.",
                       {"number": ["Número já usado."]})
    audit("void_number", "auto_number", row.id, {"status": "reserved"}, {"status": "voided", "number": number},
          reason=reason, municipality_id=device.municipality_id)
    db.session.refresh(row)
    return row


def device_numbers(device):
    return AutoNumber.query.filter_by(device_id=device.id).order_by(AutoNumber.id).all()
