"""Tariff tables: record one (audited) and find the one in force on a day."""
from ...core.audit import record
from ...core.clock import local_today
from ...core.errors import ApiError
from ...extensions import db
from ..registry.operations import snapshot
from .models import TariffTable


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
    db.session.commit()
    return table


def _tell_phones(municipality, table):
    """A new field-data version, so phones polling with an ETag get the new tariff."""
    from ..fieldsync.changes import mark_changed
    mark_changed(db.session.connection(), municipality.id, [("tariff", table.id, False)])


def current_tariff(municipality, on=None):
    on = on or local_today()
    return (TariffTable.query.filter(TariffTable.municipality_id == municipality.id, TariffTable.valid_from <= on,
                                     (TariffTable.valid_until.is_(None)) | (TariffTable.valid_until >= on))
            .order_by(TariffTable.valid_from.desc(), TariffTable.id.desc()).first())


def tariff_summary(municipality, on=None):
    """The table in force as plain data (public page, field data), or None."""
    from .rules import OVERCHARGE_INFRACTION, law_for
    on = on or local_today()
    table = current_tariff(municipality, on)
    if table is None:
        return None
    law = law_for(municipality)
    stale = law["renew_yearly"] and (on - table.valid_from).days > 365
    return {"act": table.act, "valid_from": table.valid_from.isoformat(),
            "valid_until": table.valid_until.isoformat() if table.valid_until else None,
            "items": table.items, "basis": law["basis"], "renewal_overdue": stale,
            "infraction": OVERCHARGE_INFRACTION.get(municipality.slug)}
