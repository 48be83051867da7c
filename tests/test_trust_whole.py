"""The crachás' status list reaches a device whole in one answer (issue 40, item 1): every change
after the cursor, each permit, crachá and key once in its current state, in either format, gzip
when the device accepts it; and entry ids are drawn in commit order, so no cursor skips one."""
import gzip
import json
import threading
from datetime import datetime, timezone

from sqlalchemy import create_engine, text

from helpers import api_token
from server.extensions import db
from server.modules.credentials import operations as ops
from server.modules.credentials.verifier import prepare_trust, verify
from server.modules.permits.operations import change_permit_status
from server.modules.registry.models import Municipality, Permit


def _crachás(app, slug="sapezal"):
    with app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        if ops.active_key(muni) is None:
            ops.create_key(muni)
        permits = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).all()
        issued = [ops.issue_credential(p) for p in permits[:3]]
        ops.issue_credential(permits[0], reason="perda")  # supersedes the first
        change_permit_status(db.session.get(Permit, permits[1].id), "suspend", "Teste")
        db.session.commit()  # as the requests that made them
        return [(c.serial, c.payload) for c in issued], permits[1].number


def _get(client, headers, query, gz=False):
    response = client.get(f"/api/v1/trust/sapezal?{query}",
                          headers={**headers, **({"Accept-Encoding": "gzip"} if gz else {})})
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_data()
    return response, json.loads(gzip.decompress(body) if gz else body)


def test_one_answer_holds_each_entry_once_in_its_current_state(app, demo, client):
    issued, suspended = _crachás(app)
    fiscal = api_token(client, "fiscal.sapezal")
    _, entries = _get(client, fiscal, "cursor=0")
    keys = [(e["kind"], e["ref"]) for e in entries["entries"]]
    assert len(keys) == len(set(keys))  # compacted: the superseded crachá appears once
    latest = {(e["kind"], e["ref"]): e["status"] for e in entries["entries"]}
    assert latest[("credential", str(issued[0][0]))] == "superseded"
    assert latest[("permit", suspended)] == "suspenso"
    assert latest[("credential", str(issued[1][0]))] == "suspenso"  # a crachá follows its permit
    assert entries["more"] is False

    response, grouped = _get(client, fiscal, "cursor=0&format=grouped", gz=True)
    assert response.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in response.headers["Vary"]
    assert grouped["entries"] == [] and grouped["next_cursor"] == entries["next_cursor"]
    assert suspended in grouped["status"]["permit"]["suspenso"]
    # Serials as differences from the previous one: summed back, the same crachás.
    for status in ("active", "superseded", "suspenso"):
        serials, total = [], 0
        for step in grouped["status"]["credential"].get(status, []):
            total += step
            serials.append(total)
        assert serials == sorted(int(ref) for (kind, ref), s in latest.items() if kind == "credential" and s == status)

    # Both shapes give every crachá the same verdict.
    now = datetime.now(timezone.utc)
    for serial, payload in issued:
        assert verify(payload, prepare_trust(grouped), now) == verify(payload, prepare_trust(entries), now)
    assert verify(issued[2][1], prepare_trust(grouped), now)["verdict"] == "VÁLIDO"

    # The next answer after that cursor: nothing, and a 304 for the same representation.
    again = client.get(f"/api/v1/trust/sapezal?cursor={grouped['next_cursor']}&format=grouped",
                       headers={**fiscal, "Accept-Encoding": "gzip", "If-None-Match": response.headers["ETag"]})
    assert again.status_code == 200  # another cursor is another representation
    _, empty = _get(client, fiscal, f"cursor={grouped['next_cursor']}&format=grouped")
    assert empty["status"] == {"permit": {}, "credential": {}, "key": {}}
    poll = client.get("/api/v1/trust/sapezal?cursor=0&format=grouped",
                      headers={**fiscal, "Accept-Encoding": "gzip", "If-None-Match": response.headers["ETag"]})
    assert poll.status_code == 304 and poll.headers["Date"]


def test_entry_ids_are_drawn_in_commit_order(app, demo, database_url):
    """Two transactions appending to one municipality's list: the second waits for the first
    (the feed's row lock on PostgreSQL, the database's write lock on SQLite), so the entry
    committed later never has the lower id."""
    with app.app_context():
        mid = Municipality.query.filter_by(slug="sapezal").one().id
    engine = create_engine(database_url)
    first_inserted, second_done = threading.Event(), threading.Event()
    order = []

    def first():
        with app.app_context():
            ops.append_status(mid, "permit", "ORDEM-1", "ativo")
            db.session.flush()  # its id is drawn now, while the lock is held
            first_inserted.set()
            second_done.wait(timeout=2)  # the second must still be waiting on the lock
            order.append(("first", second_done.is_set()))
            db.session.commit()

    def second():
        first_inserted.wait(timeout=10)
        with app.app_context():
            ops.append_status(mid, "permit", "ORDEM-2", "ativo")
            db.session.commit()
        second_done.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert order == [("first", False)]  # the second could not commit while the first held the lock
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT set_config('motofiscal.crossing', 'on', false)"))
        ids = dict(conn.execute(text("SELECT ref, id FROM status_list_entry WHERE ref LIKE 'ORDEM-%'")).all())
    engine.dispose()
    assert ids["ORDEM-1"] < ids["ORDEM-2"]
