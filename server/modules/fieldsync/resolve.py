"""Set-based look-ups of the batch push: a few queries per batch, never one per record.

- which operator each record concerns (the body's operator_id when we hold it, else the
  inspection's permit's main driver, else, for an auto, its inspection's operator);
- claiming the autos' numbers from the device's blocks (used once, flagged otherwise);
- autos that arrived before their inspection learning the operator from it.
"""
from sqlalchemy import bindparam, case, select, update

from ...core.sql_lists import in_list
from ...extensions import db
from ..registry.models import Operator, Permit, permit_drivers
from .models import AutoNumber, FieldRecord

MAX_ID = 2**31 - 1

# Statements built once (ids are list parameters, core/sql_lists.py): building a statement costs about as much
# CPU as running it, and the push runs these on every batch.
_record = FieldRecord.__table__
_inspection = _record.alias("inspection")
_OPERATORS_HELD = select(Operator.id).where(Operator.municipality_id == bindparam("mid"),
                                            in_list(Operator.id, "ids"))
_PERMITS = select(Permit.id, Permit.number, Permit.holder_operator_id, Permit.ponto_id).where(
    Permit.municipality_id == bindparam("mid"), in_list(Permit.number, "numbers"))
_DRIVERS = (select(permit_drivers.c.permit_id, Operator.id)
            .join(Operator, Operator.id == permit_drivers.c.operator_id)
            .where(in_list(permit_drivers.c.permit_id, "ids"))
            .order_by(permit_drivers.c.permit_id, Operator.name, Operator.id))
_INSPECTION_OPERATORS = select(_record.c.id, _record.c.operator_id).where(
    in_list(_record.c.id, "ids"), _record.c.municipality_id == bindparam("mid"))
_numbers = AutoNumber.__table__
_NUMBER_STATES = select(_numbers.c.number, _numbers.c.device_id, _numbers.c.status).where(
    _numbers.c.municipality_id == bindparam("mid"), in_list(_numbers.c.number, "numbers"))
_FILL_OPERATOR = update(_record).where(
    in_list(_record.c.inspection_id, "ids"), _record.c.operator_id.is_(None),
    _record.c.municipality_id == bindparam("mid"), _record.c.kind == "auto").values(
    operator_id=select(_inspection.c.operator_id).where(_inspection.c.id == _record.c.inspection_id)
    .scalar_subquery())


def _run(statement, **params):
    return db.session.connection().execute(statement, params)


def _main_drivers(municipality_id, numbers):
    """({permit number: operator id of its main driver}, {permit number: ponto id or None}) for
    the permits named (Permit.main_driver: the holder when a person, else the first driver by name)."""
    if not numbers:
        return {}, {}
    permits = _run(_PERMITS, mid=municipality_id, numbers=sorted(numbers)).all()
    out = {number: holder for _pid, number, holder, _ponto in permits if holder is not None}
    without = {pid: number for pid, number, holder, _ponto in permits if holder is None}
    if without:
        for pid, operator_id in _run(_DRIVERS, ids=sorted(without)):
            out.setdefault(without[pid], operator_id)
    # Numbers looked up but not held map to None: nobody needs to look them up again.
    return out, {**dict.fromkeys(numbers), **{number: ponto for _pid, number, _holder, ponto in permits}}


def resolve_operators(municipality_id, parsed_bodies):
    """({record id: operator id or None}, {permit number: ponto id}) for the parsed bodies of one
    batch (3 queries at most). The pontos of the permits named are read here once; the
    dashboard's figures take them from here (dashboard.operations.record_stats)."""
    wanted = {p["operator_id"] for p in parsed_bodies if p.get("operator_id") is not None
              and 0 < p["operator_id"] <= MAX_ID}
    held = set(_run(_OPERATORS_HELD, mid=municipality_id, ids=sorted(wanted)).scalars()) if wanted else set()
    out, numbers, inspections = {}, {}, {}
    for p in parsed_bodies:
        if p.get("operator_id") in held:
            out[p["id"]] = p["operator_id"]
        elif p["kind"] == "inspection" and p.get("permit_number"):
            numbers[p["id"]] = p["permit_number"]
        elif p["kind"] == "auto" and p.get("inspection_id"):
            inspections[p["id"]] = p["inspection_id"]
    drivers, pontos = _main_drivers(municipality_id, set(numbers.values()))
    out.update({rid: drivers.get(number) for rid, number in numbers.items()})
    if inspections:
        # Inspections held before this batch (one in the same batch fills its autos afterwards).
        found = dict(_run(_INSPECTION_OPERATORS, mid=municipality_id, ids=sorted(set(inspections.values()))).all())
        out.update({rid: found.get(iid) for rid, iid in inspections.items()})
    return out, pontos


def fill_operator_of_autos(municipality_id, inspection_ids):
    """Autos held without an operator learn it from their inspection, just accepted."""
    if inspection_ids:
        _run(_FILL_OPERATOR, mid=municipality_id, ids=sorted(inspection_ids))


def claim_numbers(device, claims):
    """claims: [(record id, number)] in the batch's order. Marks each number used by the first
    record that names it; returns {record id: flags} for those that could not claim theirs
    (number_unknown: not this device's; number_voided; number_reused: already used)."""
    if not claims:
        return {}
    first = {}
    for rid, number in claims:
        first.setdefault(number, rid)
    # Core, not an ORM bulk update (which cost as much as the rest of an auto's handling); the
    # CASE has one branch per claim, so SQLAlchemy caches one compiled form per batch size.
    won = set(_run(update(_numbers).where(
        _numbers.c.municipality_id == device.municipality_id, _numbers.c.device_id == device.id,
        _numbers.c.status == "reserved", in_list(_numbers.c.number, "numbers"))
        .values(status="used", record_id=case(first, value=_numbers.c.number))
        .returning(_numbers.c.number), numbers=sorted(first)).scalars())
    lost = sorted(number for number in first if number not in won)
    states = {number: (device_id, status) for number, device_id, status in _run(
        _NUMBER_STATES, mid=device.municipality_id, numbers=lost)} if lost else {}
    flags = {}
    for rid, number in claims:
        if number in won and first[number] == rid:
            continue
        device_id, status = states.get(number, (None, None))
        if number in won:  # claimed by an earlier record of this batch
            flags[rid] = ["number_reused"]
        elif device_id != device.id:
            flags[rid] = ["number_unknown"]
        else:
            flags[rid] = ["number_voided"] if status == "voided" else ["number_reused"]
    return flags
