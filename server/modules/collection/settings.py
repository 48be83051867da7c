"""The municipality's settings for collecting fines by PIX (Municipality.settings["collection"]).

Nothing here is presumed: the key, the receiver's name and city are the municipality's own, and
each comes with the act that destines the fines' revenue to that account. A due date exists only
when an act fixes one (none of the three laws does; Sapezal art. 27 sends the fine's payment "na
forma prevista no Código Tributário do Município"), and so do late-payment additions: without an
act, a late fine costs what it cost on time (shared_rules/LEGAL.md, "Pagamento das multas").
Saved with the act, audited."""
from decimal import ROUND_HALF_UP, Decimal

from ...core.audit import record
from ...core.errors import ApiError
from . import brcode

SETTING_FIELDS = {
    "pix_key_type": "Tipo da chave PIX",
    "pix_key": "Chave PIX da conta que recebe as multas",
    "pix_receiver_name": "Nome do recebedor, como o banco o registra (até 25 letras)",
    "pix_city": "Cidade do recebedor (até 15 letras)",
    "pix_act": "Ato que destina as multas a esta conta (lei, decreto, portaria)",
    "dam_used": "A Prefeitura emite DAM (documento de arrecadação) para cada multa",
    "dam_act": "Ato que institui o DAM",
    "due_days": "Prazo para pagar, em dias corridos contados da aplicação da multa",
    "due_act": "Ato que fixa o prazo de pagamento",
    "late_fine_percent": "Multa de mora (% sobre o valor, uma vez)",
    "late_interest_percent": "Juros de mora (% ao mês)",
    "late_interest_basis": "Como o ato conta os juros",
    "late_act": "Ato que fixa os acréscimos por atraso",
}
TEXT_FIELDS = ("pix_key", "pix_receiver_name", "pix_city", "pix_act", "dam_act", "due_act", "late_act")
INTEREST_BASES = {"mes_ou_fracao": "Por mês ou fração de mês, a partir do dia seguinte ao vencimento",
                  "pro_rata_dia": "Proporcional aos dias de atraso (mês de 30 dias)"}


def invalid(field, message):
    return ApiError(422, "validation_error", "Dados inválidos.", {field: [message]})


def collection_settings(municipality) -> dict:
    return dict((municipality.settings or {}).get("collection") or {})


def slip_refusal(settings) -> str | None:
    """Why no PIX slip can be made for this municipality, or None when one can."""
    if not settings.get("pix_key"):
        return ("A Prefeitura ainda não cadastrou a chave PIX que recebe as multas (Arrecadação → Configuração). "
                "Pague pela guia emitida no setor de tributação.")
    if not settings.get("pix_act"):
        return "A chave PIX foi cadastrada sem o ato que destina as multas à conta: o setor precisa completá-lo."
    return None


def _percent(form, key):
    text = form.get(key)
    text = text.strip().replace(",", ".") if isinstance(text, str) else ""
    if not text:
        return None
    try:
        value = Decimal(text)
    except ArithmeticError:
        raise invalid(key, "Informe um percentual (ex.: 2 ou 0,33).") from None
    if not value.is_finite() or value < 0 or value > 100:
        raise invalid(key, "Informe um percentual entre 0 e 100.")
    return str(value)


def _days(form, key):
    text = form.get(key)
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 3650:
        raise invalid(key, "Informe um número de dias entre 1 e 3650.")
    return int(text)


def save_settings(municipality, form, actor=None):
    values = {}
    for key in TEXT_FIELDS:
        text = form.get(key)
        text = " ".join(text.split()) if isinstance(text, str) else ""
        if len(text) > 300:
            raise invalid(key, "Use no máximo 300 caracteres.")
        values[key] = text or None
    kind = form.get("pix_key_type") or None
    if values["pix_key"]:
        if kind not in brcode.KEY_TYPES:
            raise invalid("pix_key_type", "Escolha o tipo da chave PIX.")
        try:
            values["pix_key"] = brcode.normalize_key(kind, values["pix_key"])
        except brcode.BRCodeError as exc:
            raise invalid(exc.field, str(exc)) from None
        if not values["pix_act"]:
            raise invalid("pix_act", "Informe o ato que destina a arrecadação das multas a esta conta.")
        for key, limit in (("pix_receiver_name", brcode.MAX_NAME), ("pix_city", brcode.MAX_CITY)):
            written = brcode.plain(values[key] or "", 999)
            if not written:
                raise invalid(key, "Obrigatório com a chave PIX (sem acentos no código, até "
                                   f"{limit} letras).")
            if len(written) > limit:
                raise invalid(key, f"O BR Code leva até {limit} caracteres; este tem {len(written)} "
                                   f"(“{written}”). Abrevie como o banco registra.")
    values["pix_key_type"] = kind if values["pix_key"] else None
    values["dam_used"] = form.get("dam_used") in ("1", "on", "sim")
    if values["dam_used"] and not values["dam_act"]:
        raise invalid("dam_act", "Informe o ato que institui o DAM.")
    values["due_days"] = _days(form, "due_days")
    if values["due_days"] is not None and not values["due_act"]:
        raise invalid("due_act", "Informe o ato que fixa o prazo de pagamento.")
    values["late_fine_percent"] = _percent(form, "late_fine_percent")
    values["late_interest_percent"] = _percent(form, "late_interest_percent")
    basis = form.get("late_interest_basis") or None
    if values["late_interest_percent"] is not None and basis not in INTEREST_BASES:
        raise invalid("late_interest_basis", "Escolha como o ato conta os juros.")
    values["late_interest_basis"] = basis if values["late_interest_percent"] is not None else None
    if (values["late_fine_percent"] or values["late_interest_percent"]) and not values["late_act"]:
        raise invalid("late_act", "Informe o ato que fixa os acréscimos por atraso (sem ele, nada é acrescido).")
    if (values["late_fine_percent"] or values["late_interest_percent"]) and values["due_days"] is None:
        raise invalid("due_days", "Sem prazo de pagamento não há atraso: informe o prazo e o seu ato.")
    before = collection_settings(municipality)
    settings = dict(municipality.settings or {})
    settings["collection"] = values
    municipality.settings = settings
    record("collection_settings", "municipality", municipality.id, before, values, municipality_id=municipality.id,
           actor=actor)
    return values


def late_additions(base_cents: int, due_on, paid_on, settings) -> tuple[int, str | None]:
    """(cents added, the words saying why) for a payment on `paid_on` of a fine due on `due_on`:
    nothing on time, nothing without an act, else the act's multa de mora and juros. Pure."""
    if due_on is None or paid_on <= due_on or not settings.get("late_act"):
        return 0, None
    fine = Decimal(settings.get("late_fine_percent") or "0")
    rate = Decimal(settings.get("late_interest_percent") or "0")
    days_late = (paid_on - due_on).days
    if settings.get("late_interest_basis") == "pro_rata_dia":
        months = Decimal(days_late) / Decimal(30)
    else:  # each month or fraction started after the due date
        months = Decimal(_months_or_fraction(due_on, paid_on))
    added = (Decimal(base_cents) * (fine + rate * months) / Decimal(100)).quantize(Decimal("1"), ROUND_HALF_UP)
    words = (f"Pago {days_late} dia(s) após o vencimento: multa de mora de {fine}% e juros de {rate}% ao mês "
             f"({INTEREST_BASES.get(settings.get('late_interest_basis'), '')}), conforme {settings['late_act']}.")
    return int(added), words


def _months_or_fraction(due_on, paid_on) -> int:
    months = (paid_on.year - due_on.year) * 12 + paid_on.month - due_on.month
    if paid_on.day > due_on.day:
        months += 1
    return max(months, 1)
