"""Search predicates for the registry lists (one place, shared by every list and the benchmark)."""
import re

from sqlalchemy import or_, select

from ...core.validation import fold, normalize_plate, only_digits, plate_is_valid
from ..registry.models import Company, Operator, Permit, Vehicle, permit_drivers


def _like(text):
    """Escape LIKE wildcards typed by the user; the caller adds its own %."""
    return re.sub(r"([\\%_])", r"\\\1", text)


def contains(column, text):
    return column.ilike(f"%{_like(text)}%", escape="\\")


def starts(column, text):
    return column.like(f"{_like(text)}%", escape="\\")


def _is_digits_query(q):
    """'123.456', '12345678909' → a CPF/RENAVAM search; names and plates have letters."""
    return bool(q) and not re.search(r"[A-Za-zÀ-ÿ]", q) and len(only_digits(q)) >= 3


def _has_letter(q):
    return bool(re.search(r"[A-Za-zÀ-ÿ]", q))


def _plate_like(q):
    """'NOU', 'nou7d', 'NOU-7D25' can be (the start of) a plate; names with spaces or digits cannot."""
    plate = normalize_plate(q)
    return bool(re.fullmatch(r"[A-Z]{1,3}([0-9][A-Z0-9]{0,3})?", plate)) and " " not in q.strip()


def operator_ids(mid, q):
    """Operators of municipality `mid` whose name contains q or whose CPF starts with q's digits."""
    query = select(Operator.id).where(Operator.municipality_id == mid)
    return query.where(*operator_conditions(mid, q))


def operator_conditions(mid, q):
    if _is_digits_query(q):
        digits = only_digits(q)
        # A whole CPF is an equality (served by the (municipality_id, cpf) unique index).
        return [Operator.cpf == digits] if len(digits) == 11 else [starts(Operator.cpf, digits)]
    return [contains(Operator.name_search, fold(q))]


def vehicle_conditions(mid, q):
    plate, digits = normalize_plate(q), only_digits(q)
    conds = []
    if plate_is_valid(plate):
        conds.append(Vehicle.plate == plate)
    elif _plate_like(q):
        conds.append(starts(Vehicle.plate, plate))
    if plate and len(plate) >= 3 and _has_letter(q):
        conds.append(starts(Vehicle.chassis, plate))
    if _is_digits_query(q):
        conds.append(Vehicle.renavam == digits if len(digits) == 11 else starts(Vehicle.renavam, digits))
        conds.append(starts(Vehicle.chassis, digits))
    return conds or [Vehicle.id.is_(None)]


def company_conditions(mid, q):
    conds = [contains(Company.legal_name, q), contains(Company.trade_name, q)]
    if _is_digits_query(q):
        conds.append(starts(Company.cnpj, only_digits(q)))
    return conds


def permit_conditions(mid, q):
    """Permit number, plate, holder or driver name, holder or driver CPF digits.

    Only the kinds of match the text can be are searched: names have no digits, CPFs have no
    letters, plates have a plate's shape. That keeps the expensive name scan out of plate, CPF
    and number searches (see docs/benchmarks/registry.md).
    """
    conds = [starts(Permit.number, q.upper())]
    if _is_digits_query(q) or (_has_letter(q) and not re.search(r"[0-9]", q)):
        ops = operator_ids(mid, q)
        conds.append(Permit.holder_operator_id.in_(ops))
        conds.append(Permit.id.in_(select(permit_drivers.c.permit_id)
                                   .where(permit_drivers.c.operator_id.in_(ops))))
    if _has_letter(q) and not re.search(r"[0-9]", q):
        conds.append(Permit.holder_company_id.in_(select(Company.id).where(
            Company.municipality_id == mid,
            or_(contains(Company.legal_name, q), contains(Company.trade_name, q)))))
    plate = normalize_plate(q)
    if plate_is_valid(plate):
        conds.append(Permit.vehicle_id.in_(select(Vehicle.id).where(
            Vehicle.municipality_id == mid, Vehicle.plate == plate)))
    elif _plate_like(q):
        conds.append(Permit.vehicle_id.in_(select(Vehicle.id).where(
            Vehicle.municipality_id == mid, starts(Vehicle.plate, plate))))
    return conds
