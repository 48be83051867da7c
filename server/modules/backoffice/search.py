"""Search predicates for the registry lists (one place, shared by every list and the benchmark)."""
import re

from sqlalchemy import or_, select

from ...core.validation import normalize_plate, only_digits
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


def operator_ids(mid, q):
    """Operators of municipality `mid` whose name contains q or whose CPF starts with q's digits."""
    query = select(Operator.id).where(Operator.municipality_id == mid)
    if _is_digits_query(q):
        return query.where(starts(Operator.cpf, only_digits(q)))
    return query.where(contains(Operator.name, q))


def operator_conditions(mid, q):
    if _is_digits_query(q):
        return [starts(Operator.cpf, only_digits(q))]
    return [contains(Operator.name, q)]


def vehicle_conditions(mid, q):
    plate, digits = normalize_plate(q), only_digits(q)
    conds = []
    if plate:
        conds += [starts(Vehicle.plate, plate), starts(Vehicle.chassis, plate)]
    if _is_digits_query(q):
        conds.append(starts(Vehicle.renavam, digits))
    return conds or [Vehicle.id.is_(None)]


def company_conditions(mid, q):
    conds = [contains(Company.legal_name, q), contains(Company.trade_name, q)]
    if _is_digits_query(q):
        conds.append(starts(Company.cnpj, only_digits(q)))
    return conds


def permit_conditions(mid, q):
    """Permit number, plate, holder or driver name, holder or driver CPF digits."""
    conds = [starts(Permit.number, q.upper())]
    ops = operator_ids(mid, q)
    conds.append(Permit.holder_operator_id.in_(ops))
    conds.append(Permit.id.in_(select(permit_drivers.c.permit_id)
                               .where(permit_drivers.c.operator_id.in_(ops))))
    plate = normalize_plate(q)
    if len(plate) >= 3 and not _is_digits_query(q):
        conds.append(Permit.vehicle_id.in_(select(Vehicle.id).where(
            Vehicle.municipality_id == mid, starts(Vehicle.plate, plate))))
    if not _is_digits_query(q):
        conds.append(Permit.holder_company_id.in_(select(Company.id).where(
            Company.municipality_id == mid,
            or_(contains(Company.legal_name, q), contains(Company.trade_name, q)))))
    return conds
