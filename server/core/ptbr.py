"""Money and dates as a Brazilian reader writes them: "R$ 1.234,56", "01/01/2026". Template
filters `brl`, `brl_cents` and `date_br` (registered by the back office)."""
from datetime import date, datetime
from decimal import Decimal


def brl(value):
    """A reais amount (Decimal, float or int) → "R$ 1.234,56"; None → "—"."""
    if value is None:
        return "—"
    amount = Decimal(str(value)).quantize(Decimal("0.01"))
    sign = "-" if amount < 0 else ""
    whole, cents = f"{abs(amount):.2f}".split(".")
    groups = []
    while whole:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    return f"{sign}R$ {'.'.join(groups)},{cents}"


def brl_cents(cents):
    return "—" if cents is None else brl(Decimal(int(cents)) / 100)


def date_br(value):
    """A date (or ISO date text) → "01/01/2026"; anything else is shown as given."""
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value)
        except ValueError:
            return value
    if isinstance(value, datetime):
        value = value.date()
    return value.strftime("%d/%m/%Y") if isinstance(value, date) else ("—" if value is None else str(value))
