"""Brazilian identifiers and pt-BR validation messages shared by every schema."""
import re
from datetime import date, datetime, timezone
import unicodedata

from marshmallow import ValidationError, fields

from .clock import local_today

# pt-BR defaults for the marshmallow messages our users can see.
_PT = {
    fields.Field: {"required": "Campo obrigatório.", "null": "Campo obrigatório.",
                   "validator_failed": "Valor inválido."},
    fields.String: {"invalid": "Texto inválido."},
    fields.Integer: {"invalid": "Informe um número inteiro.", "too_large": "Número grande demais."},
    fields.Decimal: {"invalid": "Informe um número.", "special": "Informe um número."},
    fields.Float: {"invalid": "Informe um número."},
    fields.Boolean: {"invalid": "Informe sim ou não."},
    fields.Date: {"invalid": "Data inválida (use AAAA-MM-DD).", "format": "Data inválida."},
    fields.DateTime: {"invalid": "Data e hora inválidas.", "format": "Data e hora inválidas."},
    fields.Email: {"invalid": "E-mail inválido."},
    fields.List: {"invalid": "Informe uma lista."},
    fields.Nested: {"type": "Formato inválido."},
    fields.Dict: {"invalid": "Formato inválido."},
}
for _cls, _msgs in _PT.items():
    _cls.default_error_messages = {**_cls.default_error_messages, **_msgs}

from marshmallow import Schema, validate  # noqa: E402  (after the messages are patched)

# pt-BR defaults of the validators too: a Length or Range without its own message reached the
# phone and the back office in English ("Length must be between 1 and 40.").
validate.Length.message_min = "No mínimo {min} caractere(s)."
validate.Length.message_max = "No máximo {max} caracteres."
validate.Length.message_all = "De {min} a {max} caracteres."
validate.Length.message_equal = "Exatamente {equal} caracteres."
validate.Range.message_gte, validate.Range.message_gt = "maior ou igual a", "maior que"
validate.Range.message_lte, validate.Range.message_lt = "menor ou igual a", "menor que"
validate.Range.message_min = "Deve ser {min_op} {{min}}."
validate.Range.message_max = "Deve ser {max_op} {{max}}."
validate.Range.message_all = "Deve ser {min_op} {{min}} e {max_op} {{max}}."
validate.OneOf.default_message = "Valor não aceito; use um de: {choices}."
validate.Regexp.default_message = "Formato inválido."
validate.Equal.default_message = "Deve ser igual a {other}."

Schema.error_messages = {"unknown": "Campo desconhecido.", "type": "Formato inválido."}


def fold(text) -> str:
    """Search form of a name: no accents, lower case, single spaces ("João  Antônio" → "joao antonio")."""
    if text is None:
        return ""
    decomposed = unicodedata.normalize("NFKD", str(text))
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.lower().split())


def only_digits(value: str) -> str:
    return re.sub(r"\D", "", value or "")


def cpf_check_digits(base9: str) -> str:
    """The 11-digit CPF for 9 base digits (the official two check digits appended)."""
    digits = [int(d) for d in base9]
    for size in (9, 10):
        total = sum(d * w for d, w in zip(digits[:size], range(size + 1, 1, -1)))
        digits.append((total * 10) % 11 % 10)
    return "".join(map(str, digits))


def cpf_is_valid(value: str) -> bool:
    digits = only_digits(value)
    if len(digits) != 11 or digits == digits[0] * 11:
        return False
    return cpf_check_digits(digits[:9]) == digits


def format_cpf(value: str) -> str:
    d = only_digits(value)
    return f"{d[:3]}.{d[3:6]}.{d[6:9]}-{d[9:]}"


def mask_cpf(value: str) -> str:
    d = only_digits(value)
    return f"***.{d[3:6]}.{d[6:9]}-**" if len(d) == 11 else "***"


def cnpj_is_valid(value: str) -> bool:
    digits = only_digits(value)
    if len(digits) != 14 or digits == digits[0] * 14:
        return False
    for size in (12, 13):
        weights = ([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] if size == 12
                   else [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
        total = sum(int(d) * w for d, w in zip(digits[:size], weights))
        check = 0 if total % 11 < 2 else 11 - total % 11
        if check != int(digits[size]):
            return False
    return True


PLATE_OLD = re.compile(r"^[A-Z]{3}[0-9]{4}$")
PLATE_MERCOSUL = re.compile(r"^[A-Z]{3}[0-9][A-Z][0-9]{2}$")


def normalize_plate(value: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "", value or "").upper()


def plate_is_valid(value: str) -> bool:
    plate = normalize_plate(value)
    return bool(PLATE_OLD.match(plate) or PLATE_MERCOSUL.match(plate))


def renavam_is_valid(value: str) -> bool:
    digits = only_digits(value)
    if len(digits) != 11:
        return False
    weights = [3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    total = sum(int(d) * w for d, w in zip(digits[:10], weights))
    check = (total * 10) % 11 % 10
    return check == int(digits[10])


VIN = re.compile(r"^[A-HJ-NPR-Z0-9]{17}$")


def chassis_is_valid(value: str) -> bool:
    return bool(VIN.match((value or "").strip().upper()))


CNH_CATEGORIES = ("A", "AB", "AC", "AD", "AE")


def cnh_number_is_valid(value: str) -> bool:
    """CNH registration number: 11 digits, two check digits (the DENATRAN algorithm)."""
    digits = only_digits(value)
    if len(digits) != 11 or digits == digits[0] * 11:
        return False
    base = [int(d) for d in digits[:9]]
    dv1 = sum(d * w for d, w in zip(base, range(9, 0, -1))) % 11
    discount = 0
    if dv1 >= 10:
        dv1, discount = 0, 2
    rest = sum(d * w for d, w in zip(base, range(1, 10))) % 11
    dv2 = 0 if rest >= 10 else rest - discount
    return dv1 == int(digits[9]) and dv2 == int(digits[10])


BLOOD_TYPES = ("A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-")


def validate_cpf(value):
    if not cpf_is_valid(value):
        raise ValidationError("CPF inválido (dígitos verificadores não conferem).")


def validate_cnpj(value):
    if not cnpj_is_valid(value):
        raise ValidationError("CNPJ inválido (dígitos verificadores não conferem).")


def validate_plate(value):
    if not plate_is_valid(value):
        raise ValidationError("Placa inválida: use o formato antigo (ABC1234) ou Mercosul (ABC1D23).")


def validate_renavam(value):
    if not renavam_is_valid(value):
        raise ValidationError("RENAVAM inválido (11 dígitos com dígito verificador).")


def validate_chassis(value):
    if not chassis_is_valid(value):
        raise ValidationError("Chassi inválido: 17 caracteres, sem as letras I, O e Q.")


def validate_cnh_number(value):
    if not cnh_number_is_valid(value):
        raise ValidationError("Número da CNH inválido (dígitos verificadores não conferem).")


def validate_past_date(value):
    if value > local_today():
        raise ValidationError("A data não pode estar no futuro.")


# Plausible ranges of the instants and dates a field record carries. A phone whose clock was
# reset after a battery swap says 1970 (flagged clock_behind, still accepted); anything before
# the Unix epoch or from 2100 on is not a clock reading, and years 0001/9999 with an offset
# cannot even be converted to UTC (OverflowError).
EARLIEST_INSTANT = datetime(1970, 1, 1, tzinfo=timezone.utc)
LATEST_INSTANT = datetime(2100, 1, 1, tzinfo=timezone.utc)
EARLIEST_DATE = date(2000, 1, 1)
LATEST_DATE = date(2099, 12, 31)
INSTANT_RANGE_MESSAGE = "Data e hora fora do intervalo aceito (de 1970 a 2099, em UTC)."
DATE_RANGE_MESSAGE = "Data fora do intervalo aceito (de 01/01/2000 a 31/12/2099)."


def instant_in_range(value) -> bool:
    """An aware datetime between 1970-01-01T00:00Z (included) and 2100-01-01T00:00Z (excluded)."""
    try:
        moment = value.astimezone(timezone.utc)
    except (OverflowError, ValueError):
        return False
    return EARLIEST_INSTANT <= moment < LATEST_INSTANT


def validate_instant_range(value):
    if value is not None and not instant_in_range(value):
        raise ValidationError(INSTANT_RANGE_MESSAGE)


def validate_date_range(value):
    if value is not None and not EARLIEST_DATE <= value <= LATEST_DATE:
        raise ValidationError(DATE_RANGE_MESSAGE)
