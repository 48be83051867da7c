"""A period of two months or more reads its whole months from the monthly rollups and only the
partial months at its edges from the daily ones (dashboard.queries._split): the page's figures are
the same as read day by day, for periods that start and end anywhere in a month."""
from datetime import date, datetime, timedelta, timezone

import pytest

from fieldsync_device import FakeDevice
from server.modules.dashboard import queries
from test_dashboard import _infraction

CUIABA = timezone(timedelta(hours=-4))
DAYS = [date(2026, 6, 30), date(2026, 7, 1), date(2026, 7, 15), date(2026, 7, 31), date(2026, 8, 1),
        date(2026, 9, 10), date(2026, 10, 31), date(2026, 11, 1)]


@pytest.fixture
def spread(app, client, demo):
    """Sapezal: an inspection and an auto on each of DAYS (month ends and first days included)."""
    phone = FakeDevice(client, "fiscal.sapezal")
    numbers = phone.reserve(len(DAYS))
    records = []
    for n, (day, number) in enumerate(zip(DAYS, numbers)):
        at = datetime(day.year, day.month, day.day, 10, 0, tzinfo=CUIABA)
        inspection = phone.body("inspection", device_at=at, evaluation={"failed": [
            {"requirement": "sap.req.capacete", "label_pt": "Capacete"}]})
        records += [phone.record(inspection), phone.record(phone.body(
            "auto", device_at=at, inspection_id=inspection["id"], number=number, infractions=[
                _infraction("sap.inf.capacete", "Sem capacete", 100 + n)],
            auto_fields={}, signatures={"fiscal": "0" * 64, "operator": None, "operator_refused": True},
            defence={"deadline_days": 30, "instance": "JARI"}, public_token="t" * 43))]
    answer = phone.push(records)
    assert {r["status"] for r in answer.json["results"]} == {"accepted"}, answer.json
    with app.app_context():
        from server.modules.registry.models import Municipality
        return Municipality.query.filter_by(slug="sapezal").one().id


@pytest.mark.parametrize("first,last", [
    (date(2026, 6, 30), date(2026, 11, 1)),   # partial months at both ends
    (date(2026, 7, 1), date(2026, 10, 31)),   # whole months only
    (date(2026, 7, 2), date(2026, 10, 31)),   # a partial first month
    (date(2026, 7, 1), date(2026, 9, 10)),    # a partial last month
    (date(2026, 6, 1), date(2026, 12, 31)),   # wider than the data
    (date(2026, 7, 3), date(2026, 10, 29)),   # both edge months read as the month minus the days left out (7/1, 10/31)
    (date(2026, 9, 12), date(2026, 12, 31)),  # September minus 1–11: its one record (9/10) taken out, no bucket left
])
def test_whole_months_and_edge_days_add_up_to_the_days(app, spread, monkeypatch, first, last):
    with app.app_context():
        months, edges = queries._split(first, last)
        assert months is not None  # each of these periods holds a whole month
        from_months = (queries.activity(spread, first, last), queries.items(spread, first, last))
        monkeypatch.setattr(queries, "_split", lambda a, b: (None, [(a, b)]))  # every day from the days
        from_days = (queries.activity(spread, first, last), queries.items(spread, first, last))
    assert from_months == from_days
    (series, daily, totals, fiscal, ponto), (infractions, failed) = from_days
    inside = [d for d in DAYS if first <= d <= last]
    assert not daily and totals["autos"] == totals["inspections"] == len(inside)
    assert totals["amount_cents"] == sum((100 + DAYS.index(d)) * 100 for d in inside)
    assert infractions[0][2] == len(inside) and failed[0][2] == len(inside)


def test_an_edge_month_with_few_days_left_out_is_read_as_its_month_minus_them():
    sources = queries._sources(queries.FieldStatDay, queries.FieldStatMonth, 1, date(2024, 12, 5), date(2026, 12, 5),
                               subtract=True)
    assert [(model.__name__, sign) for model, _, sign in sources] == [
        ("FieldStatMonth", 1), ("FieldStatDay", 1), ("FieldStatDay", -1)]
    months, days, minus = (str(w.compile(compile_kwargs={"literal_binds": True})) for _, w, _ in sources)
    assert "'2024-12'" in months and "'2026-12-01'" in days and "'2024-12-01'" in minus
    assert "'2024-12-04'" in minus and "'2024-12-05'" not in minus
    items = queries._sources(queries.FieldStatItemDay, queries.FieldStatItemMonth, 1, date(2024, 12, 5), date(2026, 12, 5))
    assert all(sign == 1 for _, _, sign in items)  # labels are a max: never subtracted


def test_split_reads_each_day_once():
    for first, last in [(date(2026, 1, 31), date(2026, 3, 1)), (date(2024, 2, 29), date(2026, 2, 28)),
                        (date(2026, 12, 15), date(2027, 1, 20)), (date(2026, 5, 1), date(2026, 5, 31))]:
        months, edges = queries._split(first, last)
        days = {first + timedelta(n) for n in range((last - first).days + 1)}
        covered = [d for a, b in edges for d in (a + timedelta(n) for n in range((b - a).days + 1))]
        if months:
            covered += [d for d in days if months[0] <= f"{d.year:04d}-{d.month:02d}" <= months[1]]
        assert sorted(covered) == sorted(days), (first, last)
