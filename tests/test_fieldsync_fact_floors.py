"""Floored dates on the phone (issue 24, fieldsync/fact_floors.py): an operator past every "at
least N years since" rule travels with 1 January of (today − N − 1) instead of the real birth,
first-CNH or residence date, and the verdict stays the same on every later day. Any other use of
such a fact by the rules turns its floor off."""
import copy
from datetime import date, timedelta

import pytest

from server.modules.fieldsync.fact_floors import apply_floors, date_floors, floor_years
from server.rules import evaluate, load_municipality
from server.rules.compose import compose
from test_migrations import fresh_db  # noqa: F401  (the fixture)

TODAY = date(2026, 12, 3)
LATER = [TODAY, TODAY + timedelta(days=1), date(2027, 12, 31), date(2028, 2, 29), date(2028, 3, 1),
         date(2031, 6, 15)]


def _json(slug):
    return load_municipality(slug).to_json()


def test_the_floors_are_the_laws_thresholds():
    # Lei 12.009/2009 art. 2º I (21 years) and II (2 years of CNH) bind every municipality;
    # Nortelândia Lei 30/1998 art. 12 II adds 1 year of residence; nobody else reads residence.
    for slug in ("sapezal", "paranatinga", "nortelandia"):
        rules = _json(slug)
        assert floor_years(rules, "operator.birth_date") == 21
        assert floor_years(rules, "operator.cnh_first_issue_date") == 2
    assert date_floors(_json("nortelandia"), TODAY) == {
        "birth_date": date(2004, 1, 1), "cnh_first_issue_date": date(2023, 1, 1), "residence_since": date(2024, 1, 1)}
    assert "residence_since" not in date_floors(_json("sapezal"), TODAY)


def _facts(rules, birth, first_cnh, residence):
    facts = {"operator.birth_date": birth.isoformat(), "operator.cnh_first_issue_date": first_cnh.isoformat(),
             "operator.resident_since": residence.isoformat(), "operator.cnh_category_ok": True}
    return {name: value for name, value in facts.items() if name in rules.facts}


@pytest.mark.parametrize("slug", ["sapezal", "paranatinga", "nortelandia"])
def test_floored_dates_give_the_same_verdict_on_every_later_day(slug):
    rules = load_municipality(slug)
    floors = date_floors(rules.to_json(), TODAY)
    # Dates on both sides of each floor, across 29 February, from far past to a few days ago.
    samples = [date(1950, 1, 1), date(2000, 2, 29), date(2003, 12, 31), date(2004, 1, 1), date(2004, 1, 2),
               date(2005, 6, 30), date(2008, 2, 29), date(2022, 12, 31), date(2023, 1, 1), date(2023, 1, 2),
               date(2024, 2, 29), TODAY - timedelta(days=366), TODAY - timedelta(days=3)]
    floored_somewhere = 0
    for value in samples:
        real = {"birth_date": value.isoformat(), "cnh_first_issue_date": value.isoformat(),
                "residence_since": value.isoformat()}
        sent = apply_floors([dict(real)], floors)[0]
        floored_somewhere += sent != real
        for day in LATER:
            as_real = evaluate(rules, day.isoformat(), _facts(rules, value, value, value))
            as_sent = evaluate(rules, day.isoformat(), _facts(rules, *(date.fromisoformat(sent[k]) for k in real)))
            assert as_sent == as_real, (slug, value, day)
    assert floored_somewhere >= 5  # the samples did exercise the floors


def _with_extra_requirement(slug, holds, valid=True):
    """The composed rules' JSON with one more federal requirement (compiled, so a real rule)."""
    packs = copy.deepcopy(load_municipality(slug).packs)
    federal = next(p for p in packs if p.get("kind") == "federal")
    extra = dict(federal["requirements"][0], id="test.req.extra", holds=holds)
    federal["requirements"].append(extra)
    config = load_municipality(slug).config
    return compose(packs, config).to_json() if valid else {"packs": packs, "config": config}


def test_any_other_reading_of_the_fact_sends_the_real_date():
    since_birth = {"years_between_cc": [{"var": "operator.birth_date"}, {"var": "$date"}]}
    # A maximum age: an older date no longer gives the same answer.
    max_age = _with_extra_requirement("sapezal", {"<=": [since_birth, 70]})
    assert floor_years(max_age, "operator.birth_date") is None
    assert "birth_date" not in date_floors(max_age, TODAY)
    assert floor_years(max_age, "operator.cnh_first_issue_date") == 2  # the other fact keeps its floor
    # A comparison with a fixed date (the first CNH before a law's start).
    fixed = _with_extra_requirement("sapezal", {"<": [{"var": "operator.cnh_first_issue_date"}, {"date": "2009-07-30"}]})
    assert "cnh_first_issue_date" not in date_floors(fixed, TODAY)
    # A threshold read from the configuration instead of written in the rule.
    configured = _with_extra_requirement("sapezal", {">=": [since_birth, {"var": "config.minimum_age"}]}, valid=False)
    assert floor_years(configured, "operator.birth_date") is None


def test_apply_floors_raises_only_older_dates_and_keeps_missing_ones():
    floors = {"birth_date": date(2004, 1, 1)}
    rows = [{"id": 1, "birth_date": "1980-05-05"}, {"id": 2, "birth_date": "2004-01-02"}, {"id": 3}]
    assert apply_floors(rows, floors) == [{"id": 1, "birth_date": "2004-01-01"},
                                          {"id": 2, "birth_date": "2004-01-02"}, {"id": 3}]


@pytest.mark.db
def test_migration_0027_makes_every_phone_take_its_operator_rows_again(fresh_db):  # noqa: F811
    """Phones that hold CNH numbers and real dates lose them at their next delta: the upgrade
    forgets the last rules sent, which marks every operator changed at the next request."""
    from flask_migrate import upgrade
    from sqlalchemy import text
    from test_migrations import MIGRATIONS

    from server.extensions import db
    with fresh_db.app_context():
        upgrade(directory=MIGRATIONS, revision="0026_insurance_per_person")
        with db.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO municipality (id, slug, ibge_code, name, uf, regimes, settings, created_at) "
                "VALUES (1, 'sapezal', '5107875', 'Sapezal', 'MT', '[]', '{}', '2024-01-01 00:00:00')"))
            conn.execute(text("INSERT INTO field_data_state (municipality_id, version, rules_etag, changed_at) "
                              "VALUES (1, 7, 'etag-of-the-rules-sent', '2024-01-01 00:00:00')"))
        upgrade(directory=MIGRATIONS, revision="0027_field_rows_resent")
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT version, rules_etag FROM field_data_state")).one() == (7, None)
