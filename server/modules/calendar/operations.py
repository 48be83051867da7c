"""Recording and removing closures (audited, scoped to the municipality)."""
from ...core.audit import record
from ...core.errors import ApiError
from ...core.signals import announce
from ...extensions import db
from ..registry.changes import mark_changed
from .models import CLOSURE_KINDS_PT, CalendarClosure
from .signals import closure_added


def _field_error(field, message, status=422):
    return ApiError(status, "validation_error", "Dados inválidos.", {field: [message]})


def add_closure(municipality, data, actor=None):
    if data["kind"] not in CLOSURE_KINDS_PT:
        raise _field_error("kind", "Escolha um dos tipos da lista.")
    if CalendarClosure.query.filter_by(municipality_id=municipality.id, day=data["day"]).first():
        raise _field_error("day", "Este dia já está no calendário do município.", 409)
    row = CalendarClosure(municipality_id=municipality.id, day=data["day"], kind=data["kind"],
                          name_pt=data["name_pt"].strip(), act=data["act"].strip())
    db.session.add(row)
    db.session.flush()
    mark_changed(db.session.connection(), municipality.id, [("calendar", row.id, False)])
    record("calendar_closure_add", "calendar_closure", row.id, None, row.as_dict(),
           municipality_id=municipality.id, actor=actor)
    announce(closure_added, municipality, closed_day=row.day)
    return row


def remove_closure(municipality, row, reason, actor=None):
    if row.municipality_id != municipality.id:
        raise ApiError(404, "not_found", "Registro não encontrado.")
    before = row.as_dict()
    mark_changed(db.session.connection(), municipality.id, [("calendar", row.id, True)])
    db.session.delete(row)
    record("calendar_closure_remove", "calendar_closure", row.id, before, None, reason=reason,
           municipality_id=municipality.id, actor=actor)
