"""Rows of an uploaded registry file, streamed (CSV or XLSX): one row in memory at a time, so a
10,000-permit registry does not hold the whole sheet. Each row is {column key: text or date}."""
import csv
from datetime import date, datetime

from .columns import header_key

MAX_COLUMNS = 200


class FileProblem(Exception):
    """The file itself cannot be read (not the rows): a pt-BR message."""


def _normalize(value):
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    return text or None


def _raw_rows(path, kind):
    if kind == "xlsx":
        from openpyxl import load_workbook
        from zipfile import BadZipFile
        try:
            workbook = load_workbook(path, read_only=True, data_only=True)
        except (BadZipFile, KeyError, OSError, ValueError) as exc:
            raise FileProblem("Arquivo XLSX ilegível: salve-o de novo como pasta de trabalho do Excel (.xlsx).") from exc
        try:
            sheet = workbook.worksheets[0]
            for row in sheet.iter_rows(values_only=True):
                yield list(row[:MAX_COLUMNS])
        finally:
            workbook.close()
        return
    with open(path, "rb") as raw:
        head = raw.read(4096)
    try:
        head.decode("utf-8-sig")
        encoding = "utf-8-sig"
    except UnicodeDecodeError:
        encoding = "cp1252"  # Excel's "CSV" in a pt-BR Windows
    with open(path, encoding=encoding, newline="") as text:
        first = text.readline()
        delimiter = ";" if first.count(";") >= first.count(",") else ","
        text.seek(0)
        for row in csv.reader(text, delimiter=delimiter):
            yield row[:MAX_COLUMNS]


def read_rows(path, kind, columns):
    """Yield (line number, {key: value}) for every non-blank row after the header.
    Raises FileProblem when the header lacks a required column or names an unknown one."""
    by_header = {header_key(c.header): c for c in columns}
    rows = _raw_rows(path, kind)
    try:
        header = next(rows)
    except StopIteration:
        raise FileProblem("O arquivo está vazio: use o modelo deste município.") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise FileProblem("Arquivo CSV ilegível: salve-o como CSV UTF-8 (separado por ';').") from exc
    keys, unknown = [], []
    for text in header:
        column = by_header.get(header_key(text))
        if column is None and _normalize(text) is not None:
            unknown.append(str(text).strip())
        keys.append(column.key if column else None)
    missing = [c.header for c in columns if c.required and c.key not in keys]
    if missing or unknown:
        parts = []
        if missing:
            parts.append("faltam as colunas " + ", ".join(f"“{m}”" for m in missing))
        if unknown:
            parts.append("colunas desconhecidas " + ", ".join(f"“{u}”" for u in unknown))
        raise FileProblem("O cabeçalho não segue o modelo deste município: " + "; ".join(parts) + ".")
    line = 1
    try:
        for row in rows:
            line += 1
            values = {key: _normalize(value) for key, value in zip(keys, row) if key is not None}
            if any(v is not None for v in values.values()):
                yield line, values
    except (UnicodeDecodeError, csv.Error) as exc:
        raise FileProblem(f"Arquivo CSV ilegível na linha {line}.") from exc
