"""CSV downloads open right in a pt-BR spreadsheet: BOM, ";", local times, no formula injection."""
import csv
import io
from datetime import date, datetime, timezone
from decimal import Decimal

from server.core.csv_export import BOM, csv_text


def test_csv_is_bom_semicolon_and_pt_br_values(app):
    with app.app_context():
        text = csv_text(["Nome", "Valor", "Quando", "Dia", "Ativo"],
                        [["João Conceição", Decimal("1234.5"), datetime(2026, 3, 1, 3, 30, tzinfo=timezone.utc),
                          date(2026, 3, 31), True]])
    assert text.startswith(BOM)
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    # 03:30 UTC is 23:30 of the day before in Cuiabá (UTC−4).
    assert rows == [["Nome", "Valor", "Quando", "Dia", "Ativo"],
                    ["João Conceição", "1234,50", "28/02/2026 23:30", "31/03/2026", "Sim"]]
    assert text.encode("utf-8")[:3] == b"\xef\xbb\xbf"


def test_cells_a_spreadsheet_would_run_are_defused():
    text = csv_text(["x"], [["=HYPERLINK(\"http://x\")"], ["+1+1"], ["@SUM(A1)"], ["-12,5"], ["ok"]])
    values = [row[0] for row in csv.reader(io.StringIO(text[1:]), delimiter=";")][1:]
    assert values == ["'=HYPERLINK(\"http://x\")", "'+1+1", "'@SUM(A1)", "-12,5", "ok"]
