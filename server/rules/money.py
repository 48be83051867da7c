"""Exact decimal money (SPEC §5): numbers are taken by their shortest round-trip decimal form,
multiplied exactly, and centavos are rounded half up."""
from decimal import Decimal, ROUND_HALF_UP, localcontext


def dec(x):
    if isinstance(x, Decimal):
        return x
    return Decimal(repr(float(x)))


def mul(a, b):
    with localcontext() as ctx:
        ctx.prec = 60
        return dec(a) * dec(b)


def cents(value, unit_value):
    with localcontext() as ctx:
        ctx.prec = 60
        exact = dec(value) * dec(unit_value) * 100
        return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def to_number(d):
    """Decimal -> JSON number: int when integral, else the nearest float."""
    d = dec(d)
    if d == d.to_integral_value():
        return int(d)
    return float(str(d))


def fmt(d):
    """Decimal as text for pt-BR messages: integers plain, decimals with a comma."""
    n = to_number(d)
    return str(n).replace(".", ",")
