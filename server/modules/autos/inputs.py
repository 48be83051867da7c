"""Values a clerk types on the process forms, checked with a pt-BR reason naming the field."""
from datetime import date

from ...core.clock import local_today
from ...core.errors import ApiError
from ...core.money import MoneyError, parse_cents

TEXT_MIN = 10


def invalid_field(field, message):
    return ApiError(422, "validation_error", "Dados inválidos.", {field: [message]})


def form_text(value, field, minimum=TEXT_MIN):
    value = (value or "").strip()
    if len(value) < minimum:
        raise invalid_field(field, f"Escreva ao menos {minimum} caracteres.")
    return value


def form_date(value, field, not_after_today=True):
    if isinstance(value, date):
        day = value
    else:
        try:
            day = date.fromisoformat(value or "")
        except (TypeError, ValueError):
            raise invalid_field(field, "Informe a data (dd/mm/aaaa).") from None
    if not_after_today and day > local_today():
        raise invalid_field(field, "A data não pode ser futura.")
    return day


def form_money(value, field):
    """Text → cents, or None when empty; 422 naming the field otherwise (core/money.py parses)."""
    try:
        return parse_cents(value if isinstance(value, str) else None)
    except MoneyError as exc:
        raise invalid_field(field, str(exc)) from None
