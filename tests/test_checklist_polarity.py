"""One polarity everywhere (issue 18, item 2): each bool checklist fact of a compliance question
declares the answer that is compliance (`checklist.compliant_if`), and the law agrees: in every
municipality, answering each such fact with it fails no requirement, the opposite answer fails
one. Questions about the situation (no `compliant_if`) never fail anything by themselves."""
import pytest

from server.rules import evaluate, load_municipality
from server.rules.checklist import checklist

DAY = "2026-11-30"


def _failed(rules, facts):
    return {f["requirement"] for f in evaluate(rules, DAY, facts, [])["failed"]}


@pytest.mark.parametrize("slug", ["sapezal", "paranatinga", "nortelandia", "serra-azul-do-norte"])
def test_compliant_answer_never_fails_and_the_other_one_does(slug):
    rules = load_municipality(slug)
    # The situation in which every question applies: a passenger aboard, rain, in town, parked.
    situation = {name: True for name, d in rules.facts.items() if d.get("source") == "checklist"
                 and d["type"] == "bool" and "compliant_if" not in (d.get("checklist") or {})}
    items = [i for i in checklist(rules, DAY, situation) if i["input"].startswith("yes_no")]
    compliance = [i for i in items if i["compliant_if"] is not None]
    assert len(compliance) >= 25
    for item in compliance:
        fact, ok = item["fact"], item["compliant_if"]
        assert not _failed(rules, {**situation, fact: ok}), (slug, fact, "compliant answer fails")
        # Questions whose answer only counts with an option the municipality has not chosen
        # (Paranatinga's yellow helmet) fail nothing either way until it is chosen.
        if _failed(rules, {**situation, fact: not ok}):
            continue
        assert evaluate(rules, DAY, {**situation, fact: not ok}, [])["undecided"], (slug, fact)
    for item in items:
        if item["compliant_if"] is None:
            assert not _failed(rules, {item["fact"]: True}) and not _failed(rules, {item["fact"]: False}), item["fact"]


def test_sapezal_violation_phrased_questions_are_compliant_on_no():
    rules = load_municipality("sapezal")
    by_fact = {i["fact"]: i for i in checklist(rules, DAY, {"passenger.present": True})}
    for fact in ("conduct.rude", "conduct.obstructed_inspection", "driver.intoxicated", "conduct.soliciting"):
        assert by_fact[fact]["compliant_if"] is False, fact
    for fact in ("driver.helmet", "driver.vest", "vehicle.red_plate"):
        assert by_fact[fact]["compliant_if"] is True, fact
    assert by_fact["passenger.present"]["compliant_if"] is None


def _situation(rules):
    """Every question about the situation answered yes: a passenger aboard, rain, in town, parked,
    speed measured — the stop in which every other question applies."""
    return {name: True for name, d in rules.facts.items() if d.get("source") == "checklist"
            and d["type"] == "bool" and "compliant_if" not in (d.get("checklist") or {})}


@pytest.mark.parametrize("slug", ["sapezal", "paranatinga", "nortelandia"])
def test_a_quick_compliant_number_never_fails(slug):
    """A number item's quick "Conforme" (issue 34) stores the pack's compliant_value: it fails no
    requirement, and a value on the other side of the law's threshold does."""
    rules = load_municipality(slug)
    situation = _situation(rules)
    numbers = [i for i in checklist(rules, DAY, situation) if i["compliant_value"] is not None]
    assert {i["fact"] for i in numbers} >= {"passenger.count", "passenger.age_years"}
    for item in numbers:
        assert item["input"] == "number" and item["compliant_pt"], item["fact"]
        assert not _failed(rules, {**situation, item["fact"]: item["compliant_value"]}), (slug, item["fact"])


@pytest.mark.parametrize("slug", ["sapezal", "paranatinga", "nortelandia"])
def test_everything_declared_compliant_proposes_nothing(slug):
    """What a group declaration can store — each compliance item's compliant answer, each number's
    compliant value, reached question by question as the dependent ones become askable — never
    fails a requirement: an infraction can only rest on an answer given item by item."""
    rules = load_municipality(slug)
    facts = _situation(rules)
    for _ in range(5):
        for item in checklist(rules, DAY, facts):
            if item["fact"] in facts or item["applicable"] is not True:
                continue
            if item["compliant_if"] is not None:
                facts[item["fact"]] = item["compliant_if"]
            elif item["compliant_value"] is not None:
                facts[item["fact"]] = item["compliant_value"]
    assert not _failed(rules, facts), slug


DEPENDENT = {  # issue 34: no helmet → visor and seal; no vest → its stripes and words
    "driver.helmet": ["driver.helmet_visor", "driver.helmet_inmetro", "driver.helmet_yellow", "driver.helmet_marked"],
    "driver.vest": ["driver.vest_retroreflective", "driver.vest_phosphorescent", "driver.vest_identifies_company",
                    "driver.vest_shows_number_name", "driver.vest_shows_ponto_permit"],
    "vehicle.tank_stripe": ["vehicle.tank_stripe_spec_ok"],
    "equipment.antenna_corta_pipa": ["equipment.antennas_both_sides", "equipment.antenna_height_cm"],
}


@pytest.mark.parametrize("slug", ["sapezal", "paranatinga", "nortelandia"])
def test_what_depends_on_a_failed_answer_is_not_asked(slug):
    rules = load_municipality(slug)
    for parent, children in DEPENDENT.items():
        if parent not in rules.facts:
            continue
        asked = {i["fact"]: i for i in checklist(rules, DAY, {parent: True})}
        present = [c for c in children if c in asked]
        assert present or parent not in ("driver.helmet", "driver.vest"), (slug, parent)
        failed = {i["fact"]: i for i in checklist(rules, DAY, {parent: False})}
        for child in present:
            assert asked[child]["applicable"] is True, (slug, child)
            assert failed[child]["applicable"] is False and parent in failed[child]["decided_by"], (slug, child)
    # No passenger: no passenger item asked, each naming the answer that settled it.
    for item in checklist(rules, DAY, {"passenger.present": False}):
        if item["fact"].startswith("passenger.") and item["fact"] != "passenger.present":
            assert item["applicable"] is False and "passenger.present" in item["decided_by"], item["fact"]
