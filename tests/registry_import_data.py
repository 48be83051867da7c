"""Rows for registry import tests and the benchmark: valid Brazilian identifiers that belong to
nobody, and dates every law's registration rules accept on any day the tests run."""
import csv
from datetime import timedelta

from server.core.validation import cnh_number_is_valid, cpf_check_digits


def cnpj_check_digits(base12):
    digits = base12
    for weights in ([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]):
        total = sum(int(d) * w for d, w in zip(digits, weights))
        digits += str(0 if total % 11 < 2 else 11 - total % 11)
    return digits


def cpf(i):
    return cpf_check_digits(f"{300000000 + i:09d}")


def cnh(i):
    """A valid CNH number of its own for each i (bases are 10 apart; a base without a valid pair
    of check digits gives way to the next one)."""
    for base in range(500000000 + 10 * i, 500000000 + 10 * i + 10):
        for dv in range(100):
            if cnh_number_is_valid(f"{base}{dv:02d}"):
                return f"{base}{dv:02d}"
    raise ValueError(i)


def renavam(i):
    base = [int(d) for d in f"{1000000000 + i:010d}"]
    total = sum(d * w for d, w in zip(base, [3, 2, 9, 8, 7, 6, 5, 4, 3, 2]))
    return "".join(map(str, base)) + str((total * 10) % 11 % 10)


def plate(i):
    letters = "ABCDEFGHJKLMNPRSTUVWXYZ"
    n = i
    return f"{letters[n // 10000 % 23]}{letters[n // 100000 % 23]}{letters[n // 2300000 % 23]}" \
           f"{n % 10}{letters[n // 10 % 10]}{n // 100 % 100:02d}"


def values_for(i, today, company=0):
    """{column key: text} of a row every municipality's law accepts (a recent 150 cc motorcycle,
    a driver of 35 with 15 years of CNH living there for 10)."""
    br = lambda d: d.strftime("%d/%m/%Y")  # noqa: E731
    spread = timedelta(days=i % 2000)  # people differ: no two rows need to give the same facts
    return {
        "permit.number": f"{i + 1:05d}/{today.year}", "permit.status": "ativo",
        "permit.issued_on": br(today - timedelta(days=30)), "permit.valid_from": br(today - timedelta(days=30)),
        "permit.valid_until": br(today + timedelta(days=300)), "permit.taxpayer_number": f"{1000 + i}-1",
        "permit.ponto": "", "company.cnpj": cnpj_check_digits(f"{11222333 + company:08d}0001"),
        "company.legal_name": f"Moto Táxi Importada {company} Ltda.",
        "operator.name": f"Pessoa Importada {i}", "operator.cpf": cpf(i),
        "operator.birth_date": br(today - timedelta(days=35 * 365) - spread), "operator.cnh_number": cnh(i),
        "operator.cnh_category": "A", "operator.cnh_first_issue_date": br(today - timedelta(days=15 * 365) - spread / 2),
        "operator.cnh_expiry": br(today + timedelta(days=900)), "operator.address": f"Rua {i}, 10",
        "operator.residence_since": br(today - timedelta(days=10 * 365) - spread / 3), "operator.phone": "(65) 99999-0000",
        "vehicle.plate": plate(i), "vehicle.renavam": renavam(i), "vehicle.chassis": f"9C2KC1670KR{i:06d}",
        "vehicle.make": "Honda", "vehicle.model": "CG 160 Fan", "vehicle.year_manufacture": str(today.year - i % 3),
        "vehicle.engine_cc": "150",
    }


def write_csv(path, columns, rows):
    """rows: [{column key: text}] → the municipality's template filled in."""
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle, delimiter=";")
        writer.writerow([c.header for c in columns])
        for row in rows:
            writer.writerow([row.get(c.key, "") for c in columns])


def write_xlsx(path, columns, rows):
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("Cadastro")
    sheet.append([c.header for c in columns])
    for row in rows:
        sheet.append([row.get(c.key, "") for c in columns])
    book.save(path)


# Identifiers that start with 0: what a "Geral" column in Excel turns into numbers without their
# leading zeros (tests/test_prod_like.py builds its damaged sheet with them).

def cpf_leading_zero(i):
    return cpf_check_digits(f"0{60000000 + i:08d}")


def cnh_leading_zero(i):
    for base in range(20_000_000 + 10 * i, 20_000_000 + 10 * i + 10):
        for dv in range(100):
            if cnh_number_is_valid(f"0{base:08d}{dv:02d}"):
                return f"0{base:08d}{dv:02d}"
    raise ValueError(i)


def renavam_leading_zero(i):
    base = [int(d) for d in f"{3000 + i:010d}"]
    total = sum(d * w for d, w in zip(base, [3, 2, 9, 8, 7, 6, 5, 4, 3, 2]))
    return "".join(map(str, base)) + str((total * 10) % 11 % 10)
