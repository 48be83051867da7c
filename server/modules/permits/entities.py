"""Writes of the registry's simple records — companies, operators, vehicles, pontos, unit values —
validated (unique keys, foreign ids of the same municipality, the law's registration requirements
through rule_checks) and audited; and the field errors the permit's operations share."""

from ...core.audit import record, snapshot
from ...core.errors import ApiError
from ...core.tenancy import owned
from ...extensions import db
from ..registry.models import OCCUPYING, Company, Operator, Permit, Ponto, UnitValue, Vehicle
from .rule_checks import registry_problems


def field_error(field, message, status=422):
    return ApiError(status, "validation_error", "Dados inválidos.", {field: [message]})


def check_unique(model, municipality_id, field, value, exclude_id=None, message=None):
    query = model.query.filter(model.municipality_id == municipality_id, getattr(model, field) == value)
    if exclude_id is not None:
        query = query.filter(model.id != exclude_id)
    if db.session.query(query.exists()).scalar():
        raise field_error(field, message or "Já cadastrado neste município.", 409)


def owned_row_or_error(model, ident, municipality_id, field):
    """A referenced row must exist in the same municipality (ids from forms are untrusted)."""
    if ident is None:
        return None
    obj = owned(model, ident, municipality_id)
    if obj is None:
        raise field_error(field, "Registro não encontrado neste município.")
    return obj


def _rule_problems(municipality, entity, data):
    """Registry checks that come from the municipality's rule packs (citing the article)."""
    problems = registry_problems(municipality, entity, data)
    if problems:
        raise ApiError(422, "validation_error", "Dados inválidos segundo a lei municipal.", problems)


UNIQUE_FIELDS = {Company: ("cnpj",), Operator: ("cpf",), Vehicle: ("plate",), Ponto: ("name",)}
ENTITY_NAMES = {Company: "company", Operator: "operator", Vehicle: "vehicle", Ponto: "ponto"}


def save_entity(model, municipality, data, obj=None, reason=None):
    """Create (obj None) or update one registry row of a simple entity, with audit (and the
    reason the clerk gave, for a correction of a person's record: LGPD art. 18, III)."""
    for field in UNIQUE_FIELDS[model]:
        if field in data:
            check_unique(model, municipality.id, field, data[field], getattr(obj, "id", None))
    if model is Operator and data.get("company_id") is not None:
        owned_row_or_error(Company, data["company_id"], municipality.id, "company_id")
    if model in (Operator, Vehicle):
        # On an edit, only what changes is judged: a vehicle that ages past a limit while
        # registered is a matter for renewal, not a reason to refuse fixing its colour.
        changed = {k: v for k, v in data.items() if obj is None or getattr(obj, k) != v}
        _rule_problems(municipality, ENTITY_NAMES[model], changed)
    if model is Ponto and obj is not None and "capacity" in data:
        occupied = Permit.query.filter(Permit.ponto_id == obj.id, Permit.status.in_(OCCUPYING)).count()
        if data["capacity"] < occupied:
            raise field_error("capacity", f"O ponto já tem {occupied} permissões ativas; a capacidade não pode ser menor.")
    before = snapshot(obj) if obj is not None else None
    if obj is None:
        obj = model(municipality_id=municipality.id)
        db.session.add(obj)
    for key, value in data.items():
        setattr(obj, key, value)
    db.session.flush()
    record("create" if before is None else "update", ENTITY_NAMES[model], obj.id, before, snapshot(obj),
           reason=reason, municipality_id=municipality.id)
    db.session.flush()
    return obj


def add_unit_value(municipality, data):
    exists = UnitValue.query.filter_by(municipality_id=municipality.id, unit=data["unit"],
                                       valid_from=data["valid_from"]).first()
    if exists:
        raise field_error("valid_from", "Já existe um valor desta unidade com esta data.", 409)
    row = UnitValue(municipality_id=municipality.id, **data)
    db.session.add(row)
    db.session.flush()
    record("create", "unit_value", row.id, None, snapshot(row), municipality_id=municipality.id)
    db.session.flush()
    return row
