"""Vectors written as a table (shared_rules/vectors/tables/*.csv, SPEC §10 "Tables"): every row
passes on the Python engine, and the JS engine reads the same case from it and projects the same
outcome (tests/js/dump_vector_tables.mjs; the JS runner is tests/js/rules_vector_tables.test.mjs)."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from server.rules.vector_table import canonical, run_table, table_files

ROOT = Path(__file__).resolve().parents[1]
ROWS = [(t, row) for t in table_files(ROOT) for row in run_table(t)]


def test_every_shipped_municipal_pack_with_a_table_has_rows():
    assert {t.name for t, _ in ROWS} >= {"serra-azul-do-norte.csv"}
    assert sum(t.name == "serra-azul-do-norte.csv" for t, _ in ROWS) >= 60


@pytest.mark.parametrize("table,row", ROWS, ids=[f"{t.name}:{r['line']}:{r['name'][:50]}" for t, r in ROWS])
def test_row(table, row):
    assert row["problems"] == [], f"{table.name}, linha {row['line']} ({row['name']})"
    assert row["note"], "each row says which article it tests"


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed; the Node runner covers JS")
def test_python_and_js_read_and_judge_every_row_alike():
    out = subprocess.run([NODE, str(ROOT / "tests" / "js" / "dump_vector_tables.mjs")], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    js = json.loads(out.stdout)
    assert set(js) == {f"{t.name}#{r['line']}" for t, r in ROWS}
    differing = []
    for table, row in ROWS:
        py = canonical({"case": row["case"], "projection": row["projection"], "problems": row["problems"]})
        if py != js[f"{table.name}#{row['line']}"]:
            differing.append(f"{table.name}#{row['line']}\n  py: {py[:500]}\n  js: {js[table.name + '#' + str(row['line'])][:500]}")
    assert not differing, "\n".join(differing[:5])
