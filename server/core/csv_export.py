"""CSV downloads of back-office lists, made for the spreadsheet a clerk opens them with: UTF-8
with a byte-order mark (without it, Excel reads "Sapezal – São" as Latin-1 mojibake), ";" as
separator (Excel in pt-BR uses the comma as decimal mark), CRLF line ends, and cells that a
spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) prefixed with an apostrophe
(CSV injection)."""
import csv
import io
from datetime import date, datetime
from decimal import Decimal

from flask import Response

from .clock import to_local

BOM = "\ufeff"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value):
    """One value as a pt-BR spreadsheet shows it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if isinstance(value, datetime):
        return to_local(value).strftime("%d/%m/%Y %H:%M")
    if isinstance(value, date):
        return value.strftime("%d/%m/%Y")
    if isinstance(value, Decimal | float):
        return f"{value:.2f}".replace(".", ",")
    text = str(value)
    if text.startswith(_FORMULA_START) and not _is_number(text):
        return "'" + text
    return text


def _is_number(text):
    try:
        float(text.replace(",", "."))
        return True
    except ValueError:
        return False


def csv_text(header, rows):
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([cell(v) for v in row])
    return BOM + out.getvalue()


def csv_response(filename, header, rows):
    """A download named `filename` (ASCII, ending in .csv) of `rows` under `header`."""
    return Response(csv_text(header, rows).encode("utf-8"), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"',
                             "Cache-Control": "no-store"})
