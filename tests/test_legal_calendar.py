"""The legal calendar (server/rules/legal_calendar.py): every hand-computed case of
shared_rules/vectors/calendar.json, and the same cases through the JS twin with identical answers."""
import datetime
import json
import subprocess
from pathlib import Path

import pytest

from server.rules import issqn_activity
from server.rules import legal_calendar as lc
from server.rules.validate import validate_all

ROOT = Path(__file__).resolve().parents[1]
CASES = json.loads((ROOT / "shared_rules" / "vectors" / "calendar.json").read_text(encoding="utf-8"))["cases"]


def run(case):
    cal = lc.calendar_for("MT", case.get("closures", ()), case.get("good_friday", "holiday"))
    op = case["op"]
    if op == "easter":
        out = lc.easter(case["year"])
    elif op == "is_business_day":
        return cal.is_business_day(datetime.date.fromisoformat(case["date"]))
    elif op == "next_business_day":
        out = cal.next_business_day(case["date"])
    elif op == "deadline":
        out = lc.deadline(cal, case["start"], case["days"], case["rule"])
    elif op == "lei_810_years":
        out = lc.lei_810_years(case["start"], case["n"])
    elif op == "lei_810_months":
        out = lc.lei_810_months(case["start"], case["n"])
    elif op == "issqn_in_activity":
        first, last = issqn_activity.month_bounds(case["month"])
        return issqn_activity.in_activity(case["start"], case["date"], case["status"], first, last, case["reading"])
    elif op == "fixed_date_end":
        out = lc.fixed_date_end(cal, datetime.date.fromisoformat(case["date"]))
    else:
        out = lc.ctn_210_due(cal, datetime.date.fromisoformat(case["date"]))
    return out.isoformat()


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_calendar_vector(case):
    assert run(case) == case["expect"]


def test_js_twin_gives_the_same_answers():
    script = ROOT / "tests" / "js" / "legal_calendar_dump.mjs"
    out = subprocess.run(["node", str(script)], capture_output=True, text=True, check=True, cwd=ROOT)
    js = json.loads(out.stdout)
    assert len(js) == len(CASES)
    assert js == [run(c) for c in CASES]


def test_vectors_and_holiday_data_pass_their_schemas():
    problems = [p for p in validate_all(ROOT) if "calendar" in p["file"]]
    assert problems == []


def test_a_vector_with_a_wrong_shape_is_reported(tmp_path):
    import shutil
    shutil.copytree(ROOT / "shared_rules", tmp_path / "shared_rules")
    path = tmp_path / "shared_rules" / "vectors" / "calendar.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["cases"][0]["op"] = "guess"
    path.write_text(json.dumps(doc), encoding="utf-8")
    problems = validate_all(tmp_path, seeds_dirs=[ROOT / "shared_rules" / "laws"])
    assert any(p["file"] == "shared_rules/vectors/calendar.json" and p["path"] == "/cases/0/op" for p in problems)


def test_every_counting_rule_names_its_source():
    assert "art. 132" in lc.rule_text("cc_132") and "art. 66" in lc.rule_text("cc_132")
    assert "arts. 219" in lc.rule_text("cpc_219")
    assert "Lei 810/1949" in lc.rule_text("lei_810")
    assert "art. 210" in lc.rule_text("ctn_210")


def test_every_holiday_cites_its_act_and_carnival_is_not_a_holiday_by_law():
    data = lc.load_data()
    for h in data["fixed"] + data["movable"]:
        assert h["act"].strip()
    carnival = [h for h in data["movable"] if h["id"].startswith("carnaval")]
    assert carnival and all(h["applies"] == "when_enabled" and h["kind"] == "ponto_facultativo" for h in carnival)


def test_suggestions_offer_this_years_carnival_and_corpus_christi():
    got = {s["id"]: s["date"] for s in lc.calendar_for("MT").suggestions(2025)}
    # Easter 2025 is 20 April: Carnival Monday 3 March, Tuesday 4 March, Corpus Christi 19 June.
    assert got == {"carnaval_segunda": "2025-03-03", "carnaval_terca": "2025-03-04", "corpus_christi": "2025-06-19"}


def test_easter_is_a_sunday_between_22_march_and_25_april():
    for year in range(1900, 2200):
        e = lc.easter(year)
        assert e.weekday() == 6 and datetime.date(year, 3, 22) <= e <= datetime.date(year, 4, 25)
