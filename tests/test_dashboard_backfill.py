"""Migration 0010_dash backfills the dashboard's tables from the records already held, with the
same values the sync push derives (ponto, amounts, void autos included); 0014_dash_rollup
backfills the daily rollups with the same sums the push and the void listener added up."""
from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from fieldsync_device import FakeDevice
from server.extensions import db
from test_migrations import MIGRATIONS, fresh_db  # noqa: F401  (fixture)

STAT = ("SELECT record_id, municipality_id, kind, day, month, user_id, ponto_id, amount_cents, void, unpriced "
        "FROM field_stat ORDER BY record_id")
ROLLUP = ("SELECT municipality_id, day, user_id, ponto_key, month, inspections, autos, amount_cents, void, unpriced "
          "FROM field_stat_day ORDER BY municipality_id, day, user_id, ponto_key")
ITEM_ROLLUP = ("SELECT municipality_id, day, kind, code, label, count, amount_cents, unpriced FROM field_stat_item_day "
               "ORDER BY municipality_id, day, kind, code")
ITEMS = ("SELECT record_id, position, kind, day, code, label, amount_cents, void, unpriced "
         "FROM field_stat_item ORDER BY record_id, position")


def _rows(sql):
    with db.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(sql))]


def test_backfill_matches_what_the_push_derived(fresh_db):  # noqa: F811
    from server.modules.autos.models import AutoCase
    from server.modules.autos.operations import decide
    from server.modules.demo.dataset import load_demo
    from server.modules.registry.models import Municipality, Permit
    with fresh_db.app_context():
        upgrade(directory=MIGRATIONS)
        load_demo()
        db.session.commit()  # as `flask demo load`'s command does: read below on other connections
        muni = Municipality.query.filter_by(slug="sapezal").one()
        number = Permit.query.filter(Permit.municipality_id == muni.id, Permit.ponto_id.isnot(None)).first().number
        demo_stats, demo_items = len(_rows(STAT)), len(_rows(ITEMS))  # the demo's own synced records
    phone = FakeDevice(fresh_db.test_client(), "fiscal.sapezal")
    inspection = phone.body("inspection", permit_number=number,
                            evaluation={"failed": [{"requirement": "r1", "label_pt": "Capacete"}]})
    numbers = phone.reserve(3)
    autos = [phone.auto(n, inspection_id=inspection["id"]) for n in numbers[:2]]
    # An auto with a fine nobody configured and a CTB art. 244 infraction (traffic authority) that
    # carries an amount: 0022_amounts_unpriced backfills both as the push derives them.
    autos.append(phone.auto(numbers[2], inspection_id=inspection["id"], infractions=[
        {"id": "sap.inf.um_passageiro", "citation": {"law": "Lei Municipal nº 125/1999"}, "amount": {"value": None, "unit": None},
         "amount_brl": None, "decision": "confirmed"},
        {"id": "fed.inf.ctb244_ix", "citation": {"law": "Lei nº 9.503/1997", "art": "244"}, "amount": {"value": 1, "unit": "BRL"},
         "amount_brl": 293.47, "decision": "confirmed"}]))
    assert phone.push([phone.record(inspection), *autos]).status_code == 200
    with fresh_db.app_context():
        decide(AutoCase.query.filter_by(record_id=autos[1]["id"]).one(), "auto_void", "Auto lavrado em duplicidade.")
        db.session.commit()  # the test plays the request; _rows reads on a connection of its own
        pushed_stats, pushed_items = _rows(STAT), _rows(ITEMS)
        pushed_rollup, pushed_item_rollup = _rows(ROLLUP), _rows(ITEM_ROLLUP)
        assert sum(r[8] for r in pushed_rollup) == 1 and len(pushed_item_rollup) >= 2
        # 1 nonconformity + 1 + 1 + 1 municipal infractions: the CTB one is no municipal auto's (issue 34).
        assert len(pushed_stats) == demo_stats + 4 and len(pushed_items) == demo_items + 4
        ours = [r for r in pushed_stats if r[0] in {inspection["id"], *(a["id"] for a in autos)}]
        unpriced = [r for r in ours if r[0] == autos[2]["id"]]
        assert [(r[7], r[9]) for r in unpriced] == [(0, 1)]  # no cents counted, one fine a definir
        assert sum(1 for r in ours if r[8]) == 1 and all(r[6] is not None for r in ours)
        db.session.remove()
        downgrade(directory=MIGRATIONS, revision="0009_process")  # the revision before 0010_dash
        upgrade(directory=MIGRATIONS)
        assert _rows(STAT) == pushed_stats
        assert _rows(ITEMS) == pushed_items
        assert _rows(ROLLUP) == pushed_rollup
        assert _rows(ITEM_ROLLUP) == pushed_item_rollup
