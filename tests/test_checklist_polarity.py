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


@pytest.mark.parametrize("slug", ["sapezal", "paranatinga", "nortelandia"])
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
