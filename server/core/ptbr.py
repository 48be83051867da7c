"""Money, dates and plates as a Brazilian reader writes them: "R$ 1.234,56", "01/01/2026",
"ABC-1234" / "ABC1D23". Template filters `brl`, `brl_cents`, `date_br` and `plate` (registered by
the back office)."""
import re
from datetime import date, datetime
from decimal import Decimal

_OLD_PLATE = re.compile(r"^[A-Z]{3}[0-9]{4}$")


def plate(value):
    """One plate format on every surface (issue 34, item 4), the twin of the field app's
    `formatPlate` (pwa/js/ui/format.js): the old grey plate with its hyphen, "ABC-1234"; the
    Mercosul plate as it is embossed, "ABC1D23". Typed variants (lower case, spaces, a hyphen)
    are normalised first; anything that is no plate is shown as given; None → "—"."""
    if value is None or value == "":
        return "—"
    text = str(value)
    compact = re.sub(r"[^A-Z0-9]", "", text.upper())
    if _OLD_PLATE.match(compact):
        return f"{compact[:3]}-{compact[3:]}"
    if re.match(r"^[A-Z]{3}[0-9][A-Z][0-9]{2}$", compact):
        return compact
    return text


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


def plural(count, singular, plural_form):
    """The word for `count` things: plural(1, "foto salva", "fotos salvas") → "foto salva", any other
    count → the plural (zero included, as Portuguese says "0 fotos"). Screens say "3 itens
    pendentes", never "3 item(ns) pendente(s)"."""
    return singular if count == 1 else plural_form
