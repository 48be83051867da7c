"""Tariff tables: record one (audited) and find the one in force on a day."""
from sqlalchemy import select

from ...core.audit import record, snapshot
from ...core.clock import local_today
from ...rules.legal_calendar import lei_810_years
from ...core.errors import ApiError
from ...extensions import db
from ..registry.change_models import FieldDataEntity
from ..registry.changes import mark_changed
from ..registry.models import Municipality
from .models import TariffTable
from .rules import OVERCHARGE_INFRACTION, law_for


def _field_error(field, message, status=422):
    return ApiError(status, "validation_error", "Dados inválidos.", {field: [message]})


def record_tariff_table(municipality, data):
    if data.get("valid_until") is not None and data["valid_until"] < data["valid_from"]:
        raise _field_error("valid_until", "O fim da vigência não pode ser anterior ao início.")
    if TariffTable.query.filter_by(municipality_id=municipality.id, valid_from=data["valid_from"]).first():
        raise _field_error("valid_from", "Já existe uma tabela com este início de vigência.", 409)
    table = TariffTable(municipality_id=municipality.id, **data)
    db.session.add(table)
    db.session.flush()
    record("create", "tariff_table", table.id, None, snapshot(table), municipality_id=municipality.id)
    _tell_phones(municipality, table)
    return table


def _tell_phones(municipality, table):
    """A new field-data version, so phones polling with an ETag get the new tariff."""
    mark_changed(db.session.connection(), municipality.id, [("tariff", table.id, False)])
    _mark_in_force(municipality, local_today(), force=True)


# Field data is versioned by changes, not by the calendar: when a table comes into force (or the
# last one lapses) with nothing edited, the daily task bumps the version once, so a phone holding
# the previous ETag is not answered 304 with yesterday's tariff. Marker rows: kind "tariff_now",
# entity_id = id of the table in force (0: none); the latest one says what phones were told.
IN_FORCE_KIND = "tariff_now"


def _mark_in_force(municipality, today, force=False):
    table = current_tariff(municipality, today)
    marker = table.id if table is not None else 0
    told = db.session.execute(select(FieldDataEntity.entity_id).where(
        FieldDataEntity.municipality_id == municipality.id, FieldDataEntity.kind == IN_FORCE_KIND)
        .order_by(FieldDataEntity.version.desc()).limit(1)).scalar()
    if told is None and marker == 0 and not force:
        return False  # never had a tariff: nothing to tell
    if told == marker and not force:
        return False
    mark_changed(db.session.connection(), municipality.id, [(IN_FORCE_KIND, marker, False)])
    return True


def refresh_tariffs_in_force(today):
    """Daily task: one new field-data version per municipality whose table in force changed
    since phones were last told. Idempotent (a second run finds the marker current)."""
    changed = 0
    for municipality in Municipality.query.order_by(Municipality.id):
        if TariffTable.query.filter_by(municipality_id=municipality.id).first() is None:
            continue
        changed += _mark_in_force(municipality, today)
    return changed


def current_tariff(municipality, on=None):
    on = on or local_today()
    return (TariffTable.query.filter(TariffTable.municipality_id == municipality.id, TariffTable.valid_from <= on,
                                     (TariffTable.valid_until.is_(None)) | (TariffTable.valid_until >= on))
            .order_by(TariffTable.valid_from.desc(), TariffTable.id.desc()).first())


def field_data_section(municipality, **_):
    """Receiver of fieldsync.signals.field_data_sections (server/subscriptions.py): the table in
    force, for the fiscal to check "cobrar tarifa superior ou inferior"; sent whole in every
    field-data answer (a few lines), null when none is recorded."""
    return {"tariff": tariff_summary(municipality)}


def tariff_summary(municipality, on=None):
    """The table in force as plain data (public page, field data), or None."""
    on = on or local_today()
    table = current_tariff(municipality, on)
    if table is None:
        return None
    law = law_for(municipality)
    stale = law["renew_yearly"] and on > lei_810_years(table.valid_from, 1)
    return {"act": table.act, "valid_from": table.valid_from.isoformat(),
            "valid_until": table.valid_until.isoformat() if table.valid_until else None,
            "items": table.items, "basis": law["basis"], "renewal_overdue": stale,
            "infraction": OVERCHARGE_INFRACTION.get(municipality.slug)}
