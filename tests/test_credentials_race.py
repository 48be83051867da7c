"""Two crachás issued at the same moment: the loser of the serial race retries, never a 500.
Keys shared by app servers (issue 22): rotated on one, used on the other; rotations at once."""
import threading

import pytest
from sqlalchemy import event, insert

from server.core.audit import AuditLog
from server.core.errors import ApiError
from server.extensions import db
from server.modules.credentials.models import Credential, IssuerKey
from server.modules.credentials.operations import create_key, issue_credential, rotate_key
from server.modules.registry.models import Municipality, Permit


def test_serial_collision_with_a_concurrent_writer_takes_the_next_serial(app, demo):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        create_key(muni)
        permits = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).limit(2).all()
        first = issue_credential(permits[0])
        db.session.commit()  # as the request that issued it
        # Read now: inside the savepoint below, reloading it would hold SQLite's read lock.
        template = {c.key: getattr(first, c.key) for c in Credential.__table__.columns if c.key != "id"}
        taken = {}

        def concurrent_writer(session, _ctx, _instances):
            # Another worker commits a crachá with the serial this session is about to use.
            pending = [o for o in session.new if isinstance(o, Credential)]
            if not pending or taken:
                return
            row = dict(template)
            row.update(serial=pending[0].serial, status="revoked")
            with db.engine.begin() as other:
                other.execute(insert(Credential.__table__).values(**row))
            taken["serial"] = pending[0].serial

        event.listen(db.session, "before_flush", concurrent_writer)
        try:
            second = issue_credential(permits[1])
        finally:
            event.remove(db.session, "before_flush", concurrent_writer)
        assert taken["serial"] == first.serial + 1
        assert second.serial == first.serial + 2
        assert second.status == "active" and second.permit_id == permits[1].id


def test_a_key_rotated_on_one_server_signs_on_the_other(app, demo, second_server):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        muni_id = muni.id
        create_key(muni)
        rotate_key(muni)
        db.session.commit()  # as `flask keys rotate`
    with second_server.app_context():
        permit = Permit.query.filter_by(municipality_id=muni_id, status="ativo").order_by(Permit.id).first()
        assert issue_credential(permit).issuer_key.kid == 2


def test_two_servers_rotating_the_same_key_at_once_one_wins(app, demo, second_server):
    """Server A has read the active key (kid 1) and is about to rotate it when server B's rotation
    commits: A's rotation is refused (409), nothing of it is written, and one key is active."""
    with app.app_context():
        muni_id = Municipality.query.filter_by(slug="sapezal").one().id
        create_key(db.session.get(Municipality, muni_id))
        db.session.commit()
    done = {}

    def server_b_rotates_first(conn, cursor, statement, *_):
        if statement.startswith("UPDATE municipality SET id = id") and not done:
            done["b"] = True
            with second_server.app_context():
                done["kid"] = rotate_key(db.session.get(Municipality, muni_id)).kid
                db.session.commit()  # server B's request ends

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", server_b_rotates_first)
        try:
            with pytest.raises(ApiError) as err:
                rotate_key(db.session.get(Municipality, muni_id))
        finally:
            event.remove(db.engine, "before_cursor_execute", server_b_rotates_first)
        assert err.value.status == 409 and err.value.code == "busy"
    with app.app_context():
        keys = IssuerKey.query.filter_by(municipality_id=muni_id).order_by(IssuerKey.kid).all()
        assert done["kid"] == 2 and [(k.kid, k.status) for k in keys] == [(1, "retired"), (2, "active")]
        assert AuditLog.query.filter_by(action="key_retire").count() == 1


def test_concurrent_rotations_leave_one_active_key(app, demo, second_server):
    """Four rotations at once from two servers: each one wins or is refused, never two actives."""
    with app.app_context():
        muni_id = Municipality.query.filter_by(slug="sapezal").one().id
        create_key(db.session.get(Municipality, muni_id))
        db.session.commit()
    barrier, outcomes = threading.Barrier(4), []

    def rotate(server):
        with server.app_context():
            barrier.wait()
            try:
                kid = rotate_key(db.session.get(Municipality, muni_id)).kid
                db.session.commit()  # the request's boundary
                outcomes.append(kid)
            except ApiError as err:
                db.session.rollback()  # the request's boundary on an error answer
                outcomes.append(err.code)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=rotate, args=(server,)) for server in (app, second_server) * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    won = [o for o in outcomes if isinstance(o, int)]
    assert len(outcomes) == 4 and won and set(outcomes) - set(won) <= {"busy"}
    with app.app_context():
        keys = IssuerKey.query.filter_by(municipality_id=muni_id).all()
        assert [k.kid for k in keys if k.status == "active"] == [max(won)]
        assert len(keys) == 1 + len(won)  # a refused rotation left no key behind
