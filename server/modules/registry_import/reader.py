"""Rows of an uploaded registry file, streamed (CSV or XLSX): one row in memory at a time, so a
10,000-permit registry does not hold the whole sheet. Each row is {column key: text or date}.

Caps (refused before any row is read, with a pt-BR message): the file's bytes, an XLSX's
uncompressed parts and their compression ratio (a 400 KB XLSX can inflate to gigabytes: openpyxl
keeps the shared strings in memory even in read-only mode), rows and columns. Formula cells are
read as their formula text (not a cached value) so the importer can refuse them."""
import csv
import os
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime

from .columns import header_key

MAX_BYTES = 16 * 1024 * 1024          # the upload limit (config MAX_CONTENT_LENGTH)
MAX_ROWS = 20_000                     # data rows; blank rows count towards RAW_ROW_LIMIT only
RAW_ROW_LIMIT = MAX_ROWS + 5_000
MAX_COLUMNS = 60                      # the widest template has 28
MAX_CELL_CHARS = 1_000
MAX_XLSX_UNCOMPRESSED = 96 * 1024 * 1024   # every part of the zip, inflated
MAX_SHARED_STRINGS = 24 * 1024 * 1024      # xl/sharedStrings.xml is held in memory whole
MAX_RATIO = 100                            # ordinary XLSX parts compress 5-20x; bombs 1000x


class FileProblem(Exception):
    """The file itself cannot be read (not the rows): a pt-BR message."""


@dataclass
class Header:
    keys: list = field(default_factory=list)      # column key per position (None: ignored)
    unknown: list = field(default_factory=list)   # headers not in the template (reported, ignored)
    missing: list = field(default_factory=list)   # required columns absent: [Column]


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
    if len(text) > MAX_CELL_CHARS:
        text = text[:MAX_CELL_CHARS]  # every field is shorter: the schema refuses it, naming the column
    return text or None


def check_size(path, kind):
    """Refuse early what would cost a worker too much, before openpyxl or csv sees it."""
    size = os.path.getsize(path)
    if size > MAX_BYTES:
        raise FileProblem(f"Arquivo grande demais ({size // (1024 * 1024)} MB; limite {MAX_BYTES // (1024 * 1024)} MB): "
                          "divida o cadastro em arquivos menores.")
    if kind != "xlsx":
        _count_lines(path)
        return
    try:
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError) as exc:
        raise FileProblem("Arquivo XLSX ilegível: salve-o de novo como pasta de trabalho do Excel (.xlsx).") from exc
    total = sum(p.file_size for p in parts)
    strings = sum(p.file_size for p in parts if p.filename.lower().endswith("sharedstrings.xml"))
    inflating = [p for p in parts if p.file_size > 1024 * 1024 and p.file_size > MAX_RATIO * max(p.compress_size, 1)]
    if total > MAX_XLSX_UNCOMPRESSED or strings > MAX_SHARED_STRINGS or inflating:
        raise FileProblem(f"Planilha recusada: descompactada ocupa {total // (1024 * 1024)} MB (limite "
                          f"{MAX_XLSX_UNCOMPRESSED // (1024 * 1024)} MB, no máximo {MAX_RATIO} vezes o tamanho "
                          "compactado). Salve só a aba do cadastro, sem formatação, ou envie em CSV.")


def _count_lines(path):
    """A CSV's lines counted on the bytes (~0.1 s for 10 MB) before any row is checked: a file over
    the row cap is refused at once, not after checking 20,000 rows."""
    lines = 0
    with open(path, "rb") as raw:
        for chunk in iter(lambda: raw.read(1 << 20), b""):
            lines += chunk.count(b"\n")
    if lines > RAW_ROW_LIMIT:
        raise FileProblem(f"Arquivo com linhas demais ({lines} linhas; limite {MAX_ROWS} linhas de cadastro): "
                          "divida-o em partes.")


def _raw_rows(path, kind):
    if kind == "xlsx":
        from openpyxl import load_workbook  # noqa: PLC0415 (local: heavy (0.2–0.7 s measured), only an XLSX file needs it)
        try:
            # data_only=False: a formula cell reads as "=…", refused by the importer, never its cached value.
            workbook = load_workbook(path, read_only=True, data_only=False)
        except (zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
            raise FileProblem("Arquivo XLSX ilegível: salve-o de novo como pasta de trabalho do Excel (.xlsx).") from exc
        try:
            sheet = workbook.worksheets[0]
            # max_col: a stray cell in column XFD would otherwise pad every row to 16,384 cells.
            for row in sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS):
                yield list(row)
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


def open_rows(path, kind, columns):
    """(Header, iterator of (line number, {key: value})) for every non-blank row after the header.
    Unknown headers are ignored (Header.unknown) and missing required ones reported
    (Header.missing): the importer lists them with the rows' errors, in one pass."""
    check_size(path, kind)
    by_header = {header_key(c.header): c for c in columns}
    rows = _raw_rows(path, kind)
    try:
        first = next(rows)
    except StopIteration:
        raise FileProblem("O arquivo está vazio: use o modelo deste município.") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise FileProblem("Arquivo CSV ilegível: salve-o como CSV UTF-8 (separado por ';').") from exc
    header = Header()
    for text in first:
        column = by_header.get(header_key(text))
        if column is not None and column.key in header.keys:
            column = None  # the same column twice: the first one counts
            header.unknown.append(f"{str(text).strip()} (repetida)")
        elif column is None and _normalize(text) is not None:
            header.unknown.append(str(text).strip())
        header.keys.append(column.key if column else None)
    header.missing = [c for c in columns if c.required and c.key not in header.keys]
    if all(k is None for k in header.keys):
        raise FileProblem("Nenhuma coluna do modelo deste município foi reconhecida no cabeçalho (primeira linha): "
                          "use o modelo (" + ", ".join(f"“{c.header}”" for c in columns[:4]) + ", …).")
    return header, _data_rows(rows, header.keys)


def _data_rows(rows, keys):
    line, data = 1, 0
    try:
        for row in rows:
            line += 1
            if line > RAW_ROW_LIMIT:
                raise FileProblem(f"Arquivo com linhas demais (limite {MAX_ROWS} linhas de cadastro): divida-o.")
            values = {key: _normalize(value) for key, value in zip(keys, row) if key is not None}
            if any(v is not None for v in values.values()):
                data += 1
                if data > MAX_ROWS:
                    raise FileProblem(f"Arquivo com mais de {MAX_ROWS} linhas de cadastro: divida-o em partes.")
                yield line, values
    except (UnicodeDecodeError, csv.Error) as exc:
        raise FileProblem(f"Arquivo CSV ilegível na linha {line}.") from exc
