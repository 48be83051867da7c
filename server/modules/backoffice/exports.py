"""CSV downloads of the back-office lists: the list as filtered on screen (every page, not just
the one shown), same columns with pt-BR labels, CPF masked as on screen (LGPD). Each list view
asks `wants_csv()` and, if so, returns `export(...)` instead of its page; templates link to
`export_url()` ("Exportar CSV"), which keeps the current filters."""
import re
import unicodedata

from flask import request, url_for

from ...core.clock import local_today
from ...core.csv_export import csv_response

FORMAT_ARG = "formato"
BATCH = 1000


def wants_csv():
    return request.args.get(FORMAT_ARG) == "csv"


def export_url(**extra):
    """This page's URL with its filters, without the page number, as CSV."""
    return url_for(request.endpoint, **(request.view_args or {}), **dict(export_args(**extra)))


def export_args(**extra):
    """[(name, value)] of the CSV request: the page's filters (not its page number) + formato.
    The "Exportar CSV" button sends them from hidden inputs (backoffice/_export.html) rather
    than a link, so a CPF typed in the search box never lands in the page's markup as a URL."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k not in ("page", FORMAT_ARG, *extra)]
    return args + list(extra.items()) + [(FORMAT_ARG, "csv")]


def export(name, columns, rows):
    """columns: [(label, fn(row) -> value)]; rows: an iterable (a query is read in batches).
    The file is named after the list and the local day: operadores-2026-11-30.csv."""
    if hasattr(rows, "yield_per"):
        rows = rows.yield_per(BATCH)
    header = [label for label, _ in columns]
    return csv_response(f"{_file_name(name)}-{local_today().isoformat()}.csv", header,
                        ([fn(row) for _, fn in columns] for row in rows))


def _file_name(name):
    """"Alvarás de autorização" → "alvaras-de-autorizacao" (the header allows ASCII only)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "lista"
