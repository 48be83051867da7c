"""core/money.py: the one parser of reais typed by a clerk (autos process, seizure fees, tariffs)."""
from decimal import Decimal

import pytest

from server.core.money import MoneyError, parse_cents, parse_decimal


@pytest.mark.parametrize("text, cents", [
    ("85", 8500), ("85,5", 8550), ("140,46", 14046), ("1.234,56", 123456), ("1.234", 123400),
    ("140.46", 14046), ("0,01", 1), ("R$ 12,50", 1250), ("r$12,50", 1250), ("  9,00 ", 900),
    ("1.000.000,00", 100000000),
])
def test_amounts_as_written_in_brazil(text, cents):
    assert parse_cents(text) == cents


@pytest.mark.parametrize("text", [None, "", "   ", "R$ "])
def test_empty_is_none(text):
    assert parse_cents(text) is None


@pytest.mark.parametrize("text", [
    "-5", "+5", "1e3", "Infinity", "NaN", "12,345", "1,234.56", "1.23.4", "12.3456", "abc", "1 000",
    "١٢", "99999999999999", 12, 12.5,
])
def test_anything_else_is_refused_with_a_ptbr_reason(text):
    with pytest.raises(MoneyError) as exc:
        parse_cents(text)
    assert "valor" in str(exc.value).lower()


def test_decimal_twin_for_amounts_kept_as_reais():
    assert parse_decimal("1.250,5") == Decimal("1250.50")
    assert parse_decimal("8.00") == Decimal("8.00")  # a dot with two digits is a decimal point
    assert parse_decimal("") is None


def test_tariff_lines_use_the_same_parser():
    from server.modules.tariffs.rules import parse_items
    assert parse_items("Corrida urbana | 8.00\nZona rural | 1.250,50") == [
        {"description": "Corrida urbana", "amount": "8.00"}, {"description": "Zona rural", "amount": "1250.50"}]
    with pytest.raises(ValueError):
        parse_items("Corrida | 8,005")
