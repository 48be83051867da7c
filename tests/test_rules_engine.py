"""Unit tests of the Python rules engine's entry points (the semantics are covered by the
conformance vectors in shared_rules/vectors/, see test_rules_conformance.py)."""
import datetime
import json
import shutil
from pathlib import Path

import pytest

from server.rules import (FactError, PackError, UnknownMunicipality, checklist, compile_composed,
                          compose, evaluate, load_municipality, validate_all)
from server.rules.validate import law_articles

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures" / "rules"
CONFIG = {"spec_version": "1.0.0", "municipality": "test",
          "unit_values": {"UFIR": [{"valid_from": "2000-01-01", "brl": 1.0641}]}}


def mini(config=CONFIG):
    packs = [json.loads((FIX / n).read_text()) for n in ("mini_federal.json", "mini_municipal.json")]
    return compose(packs, config)


@pytest.mark.parametrize("slug", ["nortelandia", "sapezal", "paranatinga"])
def test_load_municipality_composes_federal_base_then_municipal_pack(slug):
    rules = load_municipality(slug)
    kinds = [p["kind"] for p in rules.packs]
    assert kinds[0] == "federal" and kinds[-1] == "municipal"
    assert rules.packs[-1]["municipality"] == slug
    assert rules.config["municipality"] == slug
    assert rules.config["unit_values"]["UFIR"][0]["brl"] == 1.0641


def test_default_configs_leave_municipal_values_unconfigured():
    for slug in ("nortelandia", "sapezal", "paranatinga"):
        cfg = json.loads((ROOT / "shared_rules" / "config" / f"{slug}.json").read_text())
        assert cfg["unit_values"]["UFM"] == []
        assert cfg["decree_amounts"] == {}
    par = json.loads((ROOT / "shared_rules" / "config" / "paranatinga.json").read_text())
    assert par["options"] == {"paranatinga.veto_002_2007_outcome": "pending",
                              "paranatinga.cc_125_reading": "nominal",
                              # declared readings of issue 19 (LEGAL.md names each)
                              "paranatinga.inabilitacao_multas_de_um_auto": "uma",
                              "paranatinga.lei_311_publicacao": "2007-10-01",
                              # declared reading of issue 35 (readings.json, LEGAL.md's table)
                              "paranatinga.art33_3_counting": "plain",
                              "paranatinga.good_friday": "holiday"}
    assert par["periods"] == {"paranatinga.recidivism_window_art45": {"months": 3}}


def test_every_declared_default_reading_is_recorded_in_legal_md():
    """A default the configuration ships (an option or a period) is a reading of the law: LEGAL.md
    must name its key and its default value."""
    legal = (ROOT / "shared_rules" / "LEGAL.md").read_text(encoding="utf-8")
    for slug in ("nortelandia", "sapezal", "paranatinga"):
        cfg = json.loads((ROOT / "shared_rules" / "config" / f"{slug}.json").read_text())
        for key, value in cfg["options"].items():
            assert key in legal and f"`{value}`" in legal, (slug, key)
        for key in cfg["periods"]:
            assert key in legal, (slug, key)


def test_unknown_municipality():
    with pytest.raises(UnknownMunicipality):
        load_municipality("atlantida")


def test_served_form_round_trips_and_etag_follows_content():
    rules = load_municipality("paranatinga")
    doc = json.loads(json.dumps(rules.to_json()))
    again = compile_composed(doc)
    facts = {"vehicle.engine_cc": 300} if "vehicle.engine_cc" in rules.facts else {}
    assert evaluate(again, "2024-05-10", facts) == evaluate(rules, "2024-05-10", facts)
    assert rules.etag == load_municipality("paranatinga").etag
    changed = load_municipality("paranatinga", config_overrides={"unit_values": {"UFM": [
        {"valid_from": "2024-01-01", "brl": 3.5}]}})
    assert changed.etag != rules.etag
    assert changed.config["unit_values"]["UFIR"][0]["brl"] == 1.0641    # deep merge kept UFIR


def test_evaluate_accepts_a_date_object_and_is_json_serializable():
    rules = mini()
    a = evaluate(rules, datetime.date(2024, 5, 10), {"vehicle.engine_cc": 300})
    b = evaluate(rules, "2024-05-10", {"vehicle.engine_cc": 300})
    assert a == b
    json.dumps(a)
    assert [i["id"] for i in a["infractions"]] == ["t.inf.g2a"]


def test_fact_error_names_the_fact_in_portuguese():
    with pytest.raises(FactError) as exc:
        evaluate(mini(), "2024-05-10", {"vehicle.engine_cc": "muito"})
    err = exc.value
    assert (err.fact, err.reason) == ("vehicle.engine_cc", "wrong_type")
    assert "vehicle.engine_cc" in err.message and "inválido" in err.message
    assert err.to_json()["error"]["fact"] == "vehicle.engine_cc"


def test_pack_error_carries_file_path_reason():
    pack = json.loads((FIX / "mini_municipal.json").read_text())
    pack["requirements"][0]["holds"] = {"<": ["a", {"var": "vehicle.engine_cc"}]}
    with pytest.raises(PackError) as exc:
        compose([pack], CONFIG, file_names=["x.json"])
    assert exc.value.problems == [{"file": "x.json", "path": "/requirements/0/holds/</0",
                                   "reason": "type_error"}]


def _items(facts=None):
    return {i["fact"]: i for i in checklist(mini(), "2024-05-10", facts)}


def test_checklist_passenger_items_follow_the_passenger_answer():
    assert _items()["passenger.age"]["applicable"] is None                      # not yet answered
    assert _items({"trip.passenger": False})["passenger.age"]["applicable"] is False
    assert _items({"trip.passenger": True})["passenger.age"]["applicable"] is True
    # the question that decides applicability is always asked
    assert _items({"trip.passenger": False})["trip.passenger"]["applicable"] is True


def test_checklist_items_inputs_order_and_citations():
    items = checklist(mini(), "2024-05-10", {"vehicle.antenna_cm": "na"})
    names = [i["fact"] for i in items]
    assert names[:2] == ["driver.vest", "trip.passenger"]              # order 1, 5
    assert names[-1] == "vehicle.stripe"                               # no order: last
    by = {i["fact"]: i for i in items}
    assert by["vehicle.engine_cc"]["input"] == "number" and by["vehicle.engine_cc"]["unit"] == "cc"
    assert by["passenger.helmet"]["input"] == "yes_no_na"
    assert by["driver.vest"]["input"] == "yes_no"
    assert by["vehicle.antenna_cm"]["answered"] is True and by["vehicle.antenna_cm"]["photo"] == "required_on_fail"
    assert by["vehicle.engine_cc"]["citations"] == [{"law": "L1", "art": "8", "inciso": "II"}]
    assert "vehicle.manufacture_year" not in by                        # registry fact, not asked


def test_checklist_drops_items_whose_rules_are_not_in_effect():
    by = {i["fact"]: i for i in checklist(mini(), "2019-12-31")}
    assert by["evidence.plate_photo"]["input"] == "photo"
    names = [i["fact"] for i in checklist(mini(), "2020-01-01")]
    assert "evidence.plate_photo" not in names


def test_law_articles_reads_headings_as_printed():
    text = "Art. 1º - x\nArt.2º y\nArt.7. z\nArt. 12 - A autorizada\nArt. 139-A w\nartigo 61"
    assert law_articles(text) == {"1", "2", "7", "12", "139-A"}


def test_validate_all_is_clean_on_the_tree():
    assert validate_all(ROOT) == []


def _copy_tree(tmp_path):
    dst = tmp_path / "repo"
    shutil.copytree(ROOT / "shared_rules", dst / "shared_rules")
    shutil.copytree(FIX, dst / "tests" / "fixtures" / "rules")     # vectors reference them
    shutil.copytree(FIX.parent / "amendments", dst / "tests" / "fixtures" / "amendments")
    return dst


def test_validate_all_reports_schema_and_citation_problems(tmp_path):
    repo = _copy_tree(tmp_path)
    packs = repo / "shared_rules" / "packs"
    name = next(p.name for p in sorted(packs.glob("*.json"))
                if any(law.get("source_file") for law in json.loads(p.read_text())["laws"].values()))
    pack = json.loads((packs / name).read_text())
    pack["requirements"][0]["citation"]["art"] = "999"
    pack["requirements"][1]["label_pt"] = 42
    (packs / name).write_text(json.dumps(pack))
    rel = f"shared_rules/packs/{name}"
    problems = [p for p in validate_all(repo) if p["file"] == rel]
    # a schema violation stops further checks of that pack (and its vectors are reported too)
    assert [(p["path"], p["reason"].split(":")[0]) for p in problems] == [
        ("/requirements/1/label_pt", "schema")]
    pack["requirements"][1]["label_pt"] = "ok"
    (packs / name).write_text(json.dumps(pack))
    problems = validate_all(repo)
    assert [(p["file"], p["path"], p["reason"].split(":")[0]) for p in problems] == [
        (rel, "/requirements/0/citation/art", "article_not_in_law")]


def test_validate_all_reports_bad_references_in_a_composed_municipality(tmp_path):
    repo = _copy_tree(tmp_path)
    packs = repo / "shared_rules" / "packs"
    name = "paranatinga-lei-311-2007.json"
    pack = json.loads((packs / name).read_text())
    req = next(r for r in pack["requirements"] if r.get("on_fail"))
    req["on_fail"] = ["par.nao.existe"]
    (packs / name).write_text(json.dumps(pack))
    problems = validate_all(repo)
    assert [p["reason"] for p in problems] == ["unknown_reference"]
    assert problems[0]["file"] == f"shared_rules/packs/{name}"


def test_auto_fields_list_every_law_in_effect():
    from server.rules import auto_fields
    fields = auto_fields(mini(), "2024-05-10")
    assert [f["id"] for f in fields] == ["fed.auto.local", "fed.auto.assinatura", "fed.auto.prontuario",
                                         "t.auto.nome", "t.auto.local", "t.auto.assinatura"]
    assert fields[3] == {"id": "t.auto.nome", "pack": "test-municipal",
                         "citation": {"law": "L1", "art": "46", "inciso": "I"},
                         "label_pt": "Nome do permissionário ou infrator", "required": True,
                         "source": ["subject_name"]}
    assert auto_fields(mini(), "2007-09-30") == []          # before the test law's effective date
    real = auto_fields(load_municipality("sapezal"), "2024-05-10")
    packs = [f["pack"] for f in real]
    assert packs == sorted(packs, key=lambda p: 0 if p.startswith("federal") else 1)
