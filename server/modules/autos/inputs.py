"""Values a clerk types on the process forms, checked with a pt-BR reason naming the field."""
import re
from datetime import date

from ...core.clock import local_today
from ...core.errors import ApiError

TEXT_MIN = 10


def _invalid(field, message):
    return ApiError(422, "validation_error", "Dados inválidos.", {field: [message]})


def _text(value, field, minimum=TEXT_MIN):
    value = (value or "").strip()
    if len(value) < minimum:
        raise _invalid(field, f"Escreva ao menos {minimum} caracteres.")
    return value


def _date(value, field, not_after_today=True):
    if isinstance(value, date):
        day = value
    else:
        try:
            day = date.fromisoformat(value or "")
        except (TypeError, ValueError):
            raise _invalid(field, "Informe a data (dd/mm/aaaa).") from None
    if not_after_today and day > local_today():
        raise _invalid(field, "A data não pode ser futura.")
    return day


# Reais as a clerk types them: "1.234,56", "140,46", "85" (or "140.46"); nothing else.
MONEY_RE = re.compile(r"(\d{1,3}(?:\.\d{3})+|\d{1,9})(?:,(\d{1,2}))?|(\d{1,9})\.(\d{1,2})")


def _money(value, field):
    """Text → cents, or None when empty; 422 naming the field otherwise."""
    text = (value or "").strip() if isinstance(value, str) else ""
    if not text:
        return None
    match = MONEY_RE.fullmatch(text)
    if not match:
        raise _invalid(field, "Informe o valor em reais (ex.: 85,00).")
    whole, fraction = (match[1], match[2]) if match[1] else (match[3], match[4])
    return int(whole.replace(".", "")) * 100 + int((fraction or "0").ljust(2, "0"))
