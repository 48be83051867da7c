"""Reais as a clerk types them → integer centavos: the one parser for every money field.

Accepted: "1.234,56", "140,46", "85", "85,5", "R$ 85,00", and the dot-decimal "140.46" a phone
keyboard or a copied figure may give. A dot followed by exactly three digits is a thousands
separator ("1.234" = R$ 1.234,00), never a decimal. Anything else is refused with a pt-BR reason;
formatting back is core/ptbr.py."""
import re
from decimal import Decimal

_MONEY_RE = re.compile(r"([0-9]{1,3}(?:\.[0-9]{3})+|[0-9]{1,12})(?:,([0-9]{1,2}))?|([0-9]{1,12})\.([0-9]{1,2})")
MAX_CENTS = 10**13  # R$ 100 bilhões: beyond any municipal amount, inside a 64-bit column
FORMAT_PT = "Informe o valor em reais (ex.: 85,00)."


class MoneyError(ValueError):
    """The reason, in pt-BR, why a text is not an amount in reais."""


def parse_cents(text):
    """Text → centavos (int), None when empty; MoneyError otherwise. Signs are refused: callers
    record amounts charged or paid, never negative ones."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise MoneyError(FORMAT_PT)
    text = text.strip()
    if text[:2].upper() == "R$":
        text = text[2:].strip()
    if not text:
        return None
    match = _MONEY_RE.fullmatch(text)
    if not match:
        raise MoneyError(FORMAT_PT)
    whole, fraction = (match[1], match[2]) if match[1] else (match[3], match[4])
    cents = int(whole.replace(".", "")) * 100 + int((fraction or "0").ljust(2, "0"))
    if cents >= MAX_CENTS:
        raise MoneyError("Valor grande demais.")
    return cents


def parse_decimal(text):
    """The same parser, as a Decimal of reais with two places (None when empty)."""
    cents = parse_cents(text)
    return None if cents is None else (Decimal(cents) / 100).quantize(Decimal("0.01"))
