"""Every reading sits in one table (shared_rules/readings/readings.json) that LEGAL.md and
docs/legal-coverage.md both carry, generated, so the two cannot disagree (issue 35, item 4); each
setting it names is an option of a pack, and each vector it names exists in the vector files that
both engines run (tests/test_rules_vectors*.py, tests/test_legal_calendar.py, tests/js/)."""
import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _builder():
    spec = importlib.util.spec_from_file_location("build_readings", ROOT / "shared_rules/NOTES/build_readings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_legal_md_and_legal_coverage_carry_the_same_current_table():
    builder = _builder()
    for target in builder.TARGETS:
        assert builder.embedded(target.read_text(encoding="utf-8")) == builder.section(), (
            f"{target.relative_to(ROOT)} is stale: run .venv/bin/python shared_rules/NOTES/build_readings.py")


def test_each_setting_is_an_option_of_a_pack():
    options = {}
    for pack in (ROOT / "shared_rules" / "packs").glob("*.json"):
        options.update(json.loads(pack.read_text(encoding="utf-8")).get("options") or {})
    for reading in _builder().readings():
        if reading["setting"]:
            assert reading["setting"] in options, reading["id"]


def test_each_named_vector_exists():
    for reading in _builder().readings():
        for side in ("reading", "alternative"):
            for file, name in reading["vectors"][side]:
                cases = json.loads((ROOT / "shared_rules" / "vectors" / file).read_text(encoding="utf-8"))["cases"]
                assert any(c["name"] == name for c in cases), (reading["id"], side, file, name)


def test_the_readings_issue_35_names_are_in_the_table():
    ids = {r["id"] for r in _builder().readings()}
    assert {"federal.good_friday", "sapezal.art26_suspension_recidivism", "nortelandia.issqn_em_atividade",
            "sapezal.art15_window", "paranatinga.art33_3_days"} <= ids


def test_legal_coverage_no_longer_contradicts_legal_md_on_sapezal_art_15():
    coverage = (ROOT / "docs" / "legal-coverage.md").read_text(encoding="utf-8")
    row = next(line for line in coverage.splitlines()
               if line.startswith("| 15 |") and "substitute_vehicle" in line)
    assert "not encoded" not in row and "sapezal.art15_window" in row
