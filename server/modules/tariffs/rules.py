"""What each law says about tariffs (no amounts: the decree sets them, the clerk records it)."""
from decimal import Decimal

from ...core.money import MoneyError, parse_decimal

TARIFF_LAW = {
    # "Os valores das tarifas ... será estabelecido por ato do Chefe do Executivo Municipal,
    # através de Decreto, com base em planilha tarifária ... renovável anualmente."
    "paranatinga": {"basis": "Lei 311/2007, art. 35", "renew_yearly": True},
    # "... o Município poderá baixar Decreto, estabelecendo medidas, para regularizar a cobrança".
    "sapezal": {"basis": "Lei 125/1999, art. 19", "renew_yearly": False},
}
DEFAULT = {"basis": "lei municipal (não fixa a tarifa — registre o ato que a fixou)", "renew_yearly": False}
# Paranatinga: charging above or below the table is an infraction (art. 50, Grupo VI, c).
OVERCHARGE_INFRACTION = {"paranatinga": "Lei 311/2007, art. 50, Grupo VI, c (cobrar tarifa superior ou inferior)"}


def law_for(municipality):
    return TARIFF_LAW.get(municipality.slug, DEFAULT)


def parse_items(text):
    """Lines "description | 8,00" → [{"description", "amount"}] or raise ValueError(pt-BR)."""
    items = []
    for line in (raw.strip() for raw in (text or "").splitlines()):
        if not line:
            continue
        description, sep, amount = (part.strip() for part in line.rpartition("|"))
        if not sep or not 2 <= len(description) <= 120:
            raise ValueError(f"Linha “{line[:40]}”: escreva “descrição | valor”.")
        try:
            value = parse_decimal(amount)
        except MoneyError:
            raise ValueError(f"Linha “{line[:40]}”: valor inválido.") from None
        if value is None or value <= 0 or value >= 100000:
            raise ValueError(f"Linha “{line[:40]}”: valor inválido.")
        items.append({"description": description, "amount": format(value.quantize(Decimal("0.01")), "f")})
    if not items:
        raise ValueError("Informe ao menos uma linha “descrição | valor”.")
    if len(items) > 30:
        raise ValueError("No máximo 30 linhas.")
    return items


def brl(amount):
    whole, _, cents = amount.partition(".")
    whole = f"{int(whole):,}".replace(",", ".")
    return f"R$ {whole},{(cents + '00')[:2]}"
