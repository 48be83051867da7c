"""The rollups the dashboard reads (daily: field_stat_day, field_stat_item_day; monthly:
field_stat_month, field_stat_item_month) always equal a recount from field_stat /
field_stat_item: after pushes, a replay, a void, and two phones pushing at the same moment
(PostgreSQL)."""
import threading
from decimal import Decimal

import pytest
from sqlalchemy import text

from fieldsync_device import FakeDevice
from server.extensions import db
from test_dashboard import _infraction, pushed  # noqa: F401  (fixture)

STAT_RECOUNT = (
    "SELECT municipality_id, day, user_id, COALESCE(ponto_id, 0), COUNT(CASE WHEN kind = 'inspection' THEN 1 END), "
    "COUNT(CASE WHEN kind = 'auto' THEN 1 END), COALESCE(SUM(CASE WHEN NOT void THEN amount_cents END), 0), "
    "COUNT(CASE WHEN void THEN 1 END), COALESCE(SUM(CASE WHEN NOT void THEN unpriced END), 0) FROM field_stat GROUP BY municipality_id, day, user_id, COALESCE(ponto_id, 0)")
STAT_ROLLUP = ("SELECT municipality_id, day, user_id, ponto_key, inspections, autos, amount_cents, void, unpriced "
               "FROM field_stat_day")
ITEM_RECOUNT = (
    "SELECT municipality_id, day, kind, code, MAX(label), COUNT(*), "
    "COALESCE(SUM(CASE WHEN NOT void THEN amount_cents END), 0), "
    "COALESCE(SUM(CASE WHEN NOT void THEN unpriced END), 0) FROM field_stat_item "
    "GROUP BY municipality_id, day, kind, code")
ITEM_ROLLUP = "SELECT municipality_id, day, kind, code, label, count, amount_cents, unpriced FROM field_stat_item_day"
MONTH_RECOUNT = (
    "SELECT municipality_id, month, user_id, COALESCE(ponto_id, 0), COUNT(CASE WHEN kind = 'inspection' THEN 1 END), "
    "COUNT(CASE WHEN kind = 'auto' THEN 1 END), COALESCE(SUM(CASE WHEN NOT void THEN amount_cents END), 0), "
    "COUNT(CASE WHEN void THEN 1 END), COALESCE(SUM(CASE WHEN NOT void THEN unpriced END), 0) FROM field_stat "
    "GROUP BY municipality_id, month, user_id, COALESCE(ponto_id, 0)")
MONTH_ROLLUP = ("SELECT municipality_id, month, user_id, ponto_key, inspections, autos, amount_cents, void, unpriced "
                "FROM field_stat_month")
ITEM_MONTH_RECOUNT = (
    "SELECT i.municipality_id, s.month, i.kind, i.code, MAX(i.label), COUNT(*), "
    "COALESCE(SUM(CASE WHEN NOT i.void THEN i.amount_cents END), 0), "
    "COALESCE(SUM(CASE WHEN NOT i.void THEN i.unpriced END), 0) FROM field_stat_item i "
    "JOIN field_stat s ON s.record_id = i.record_id GROUP BY i.municipality_id, s.month, i.kind, i.code")
ITEM_MONTH_ROLLUP = ("SELECT municipality_id, month, kind, code, label, count, amount_cents, unpriced "
                     "FROM field_stat_item_month")


def _rows(sql):
    """Sorted rows; PostgreSQL's SUM of a bigint is a Decimal, compared as an int."""
    return sorted(tuple(int(v) if isinstance(v, Decimal) else v for v in r)
                  for r in db.session.execute(text(sql)))


def _assert_rollup_is_a_recount(app):
    with app.app_context():
        stats, items = _rows(STAT_ROLLUP), _rows(ITEM_ROLLUP)
        assert stats == _rows(STAT_RECOUNT)
        assert items == _rows(ITEM_RECOUNT)
        assert _rows(MONTH_ROLLUP) == _rows(MONTH_RECOUNT) and _rows(MONTH_ROLLUP)
        assert _rows(ITEM_MONTH_ROLLUP) == _rows(ITEM_MONTH_RECOUNT) and _rows(ITEM_MONTH_ROLLUP)
        return stats, items


def test_rollup_equals_recount_after_pushes_replay_and_void(app, pushed):  # noqa: F811
    stats, items = _assert_rollup_is_a_recount(app)
    assert sum(r[5] for r in stats) >= 3 and sum(r[7] for r in stats) == 1  # 3 autos, one void
    capacete = [r for r in items if r[3] == "sap.inf.capacete"]
    # 3 autos named it; the void one's R$ 1.000,00 no longer counts
    assert sum(r[5] for r in capacete) == 3 and sum(r[6] for r in capacete) == 2 * 123456


def test_two_phones_pushing_at_once_add_up(app, demo):
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("concurrent writers: PostgreSQL only (SQLite serialises them)")
    phones = [FakeDevice(app.test_client(), "fiscal.sapezal") for _ in range(2)]
    batches = []
    for phone in phones:
        numbers = phone.reserve(5)
        batches.append([phone.auto(n, infractions=[_infraction("sap.inf.capacete", "Sem capacete", 10)])
                        for n in numbers])
    start = threading.Barrier(2)
    statuses = []

    def push(phone, records):
        start.wait()
        statuses.append(phone.push(records).status_code)

    threads = [threading.Thread(target=push, args=pair) for pair in zip(phones, batches)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert statuses == [200, 200]
    stats, items = _assert_rollup_is_a_recount(app)
    assert sum(r[5] for r in stats) >= 10
    assert sum(r[5] for r in items if r[3] == "sap.inf.capacete") >= 10
