"""The municipal settings of the autos process that the laws leave open (authority, edital act,
removal and pátio fees), each saved with the act that set it."""
from ...core.audit import record
from ...extensions import db
from .inputs import _invalid, _money
from .notification_content import process_settings


SETTING_FIELDS = {
    "authority_pt": "Autoridade que julga a defesa (quando a lei não a indica)",
    "edital_basis_pt": "Ato que autoriza a notificação por edital",
    "removal_fee": "Taxa de remoção (R$)",
    "storage_fee_daily": "Diária do pátio (R$)",
    "source": "Ato que fixou estes valores",
}


def save_process_settings(municipality, form, actor=None):
    """Municipality.settings["autos"]: values the laws do not set, each shown as configured."""
    values = {}
    for key in ("authority_pt", "edital_basis_pt", "source"):
        text = (form.get(key) or "").strip()
        if len(text) > 300:
            raise _invalid(key, "Use no máximo 300 caracteres.")
        values[key] = text or None
    values["removal_fee_cents"] = _money(form.get("removal_fee"), "removal_fee")
    values["storage_fee_daily_cents"] = _money(form.get("storage_fee_daily"), "storage_fee_daily")
    if (values["removal_fee_cents"] is not None or values["storage_fee_daily_cents"] is not None) and not values["source"]:
        raise _invalid("source", "Informe o ato (decreto, portaria) que fixou as taxas.")
    before = dict(process_settings(municipality))
    settings = dict(municipality.settings or {})
    settings["autos"] = values
    municipality.settings = settings
    record("autos_settings", "municipality", municipality.id, before, values, municipality_id=municipality.id, actor=actor)
    db.session.commit()
    return values
