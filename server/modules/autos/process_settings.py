"""The municipal settings of the autos process that the laws leave open (authority, edital act,
removal and pátio fees and how their days count, whether fees are paid before a release), each
saved with the act that set it, audited."""
from ...core.audit import record
from ...extensions import db
from ..registry.changes import mark_changed
from .auto_data import traffic_authority_act
from .inputs import invalid_field, form_money
from .notification_content import process_settings
from .process_models import STORAGE_DAY_COUNTS

SETTING_FIELDS = {
    "authority_pt": "Autoridade que julga a defesa (quando a lei não a indica)",
    "edital_basis_pt": "Ato que autoriza a notificação por edital",
    "electronic_service_act": "Ato que admite a intimação eletrônica (e-mail ou aplicativo) de quem aderir a ela",
    "traffic_authority_act": "Ato que integra o município ao Sistema Nacional de Trânsito (deixe em branco se não integra)",
    "removal_fee": "Taxa de remoção (R$)",
    "removal_fee_act": "Ato que fixou a taxa de remoção (ex.: Código Tributário Municipal, art. …)",
    "storage_fee_daily": "Diária do pátio (R$)",
    "storage_fee_act": "Ato que fixou a diária do pátio",
    "storage_day_count": "Como as diárias são contadas (conforme o ato)",
    "release_requires_fees": "Exigir o pagamento das taxas antes de liberar a moto",
}
TEXT_FIELDS = ("authority_pt", "edital_basis_pt", "electronic_service_act", "traffic_authority_act", "removal_fee_act",
               "storage_fee_act")


def field_data_section(municipality, **_):
    """Receiver of fieldsync.signals.field_data_sections (server/subscriptions.py): the act that
    integrates the municipality into the SNT, or None; sent whole in every field-data answer. The
    phone then knows whether a CTB infraction is its auto's or the traffic authority's."""
    return {"traffic_authority_act": traffic_authority_act(municipality)}


def fee_settings(municipality) -> dict:
    """The fees in force: {"remocao": {"cents", "act"} | None, "estadia": {"cents", "act",
    "day_count"} | None, "release_requires_fees": bool}. A fee without its act is not in force
    (settings saved before issue 11 kept one `source` for both fees: it is their act)."""
    settings = process_settings(municipality)
    legacy = settings.get("source")
    removal_act = settings.get("removal_fee_act") or legacy
    storage_act = settings.get("storage_fee_act") or legacy
    removal, storage = settings.get("removal_fee_cents"), settings.get("storage_fee_daily_cents")
    day_count = settings.get("storage_day_count")
    return {
        "remocao": {"cents": removal, "act": removal_act} if removal is not None and removal_act else None,
        "estadia": ({"cents": storage, "act": storage_act, "day_count": day_count}
                    if storage is not None and storage_act and day_count in STORAGE_DAY_COUNTS else None),
        "release_requires_fees": bool(settings.get("release_requires_fees")),
    }


def save_process_settings(municipality, form, actor=None):
    """Municipality.settings["autos"]: values the laws do not set, each shown as configured."""
    values = {}
    for key in TEXT_FIELDS:
        text = form.get(key)
        text = text.strip() if isinstance(text, str) else ""
        if len(text) > 300:
            raise invalid_field(key, "Use no máximo 300 caracteres.")
        values[key] = text or None
    values["removal_fee_cents"] = _fee(form, "removal_fee")
    values["storage_fee_daily_cents"] = _fee(form, "storage_fee_daily")
    if values["removal_fee_cents"] is not None and not values["removal_fee_act"]:
        raise invalid_field("removal_fee_act", "Informe o ato (lei, decreto, Código Tributário) que fixou a taxa de remoção.")
    if values["storage_fee_daily_cents"] is not None and not values["storage_fee_act"]:
        raise invalid_field("storage_fee_act", "Informe o ato (lei, decreto, Código Tributário) que fixou a diária do pátio.")
    day_count = form.get("storage_day_count") or None
    if day_count is not None and day_count not in STORAGE_DAY_COUNTS:
        raise invalid_field("storage_day_count", "Escolha uma das formas de contagem.")
    if values["storage_fee_daily_cents"] is not None and day_count is None:
        raise invalid_field("storage_day_count", "Escolha como o ato conta as diárias (por dia ou fração, ou por pernoite).")
    values["storage_day_count"] = day_count if values["storage_fee_daily_cents"] is not None else None
    values["release_requires_fees"] = form.get("release_requires_fees") in ("1", "on", "sim")
    before = dict(process_settings(municipality))
    settings = dict(municipality.settings or {})
    settings["autos"] = values
    municipality.settings = settings
    record("autos_settings", "municipality", municipality.id, before, values, municipality_id=municipality.id, actor=actor)
    if (before.get("traffic_authority_act") or None) != values["traffic_authority_act"]:
        # Phones decide at the roadside whether a CTB infraction is communicated or enters the
        # auto: a new field-data version, or they would be answered 304 and keep the old answer.
        mark_changed(db.session.connection(), municipality.id, [("config", 0, False)])
    return values


def _fee(form, key):
    cents = form_money(form.get(key), key)
    if cents is not None and cents <= 0:
        raise invalid_field(key, "Informe um valor positivo, ou deixe em branco se não há taxa.")
    return cents
