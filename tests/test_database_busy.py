"""A database that gives up waiting for a lock is busy, not broken: 503 with Retry-After, never
500. A phone told 500 searches its batch for a record to blame and holds it back; told 503, it
waits and sends again in order (pwa/js/fiscal/outbox.js). Nothing of the refused request holds,
and the same push a moment later is accepted once.

The lock is real: another connection holds SQLite's writer lock (`BEGIN IMMEDIATE`) or
PostgreSQL's table lock, and this server's own connections wait a short time for it (the
driver's busy timeout on SQLite, `lock_timeout` on PostgreSQL) instead of the defaults."""
import sqlite3
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, make_url, text

from conftest import _base_config
from fieldsync_device import FakeDevice
from server.extensions import db

SHORT_WAIT_MS = 300


@pytest.fixture
def impatient_app(app, demo, database_url, tmp_path):
    """A second server over the demo's database whose connections wait SHORT_WAIT_MS for a lock."""
    from server import create_app
    wait = ({"timeout": SHORT_WAIT_MS / 1000} if database_url.startswith("sqlite")
            else {"options": f"-c lock_timeout={SHORT_WAIT_MS}"})
    other = create_app({**_base_config(database_url, tmp_path / "impatient"),
                        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True, "connect_args": wait}})
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


@contextmanager
def writer_lock_held(database_url):
    """Another process's writer holding the lock the push needs, until the block ends."""
    if database_url.startswith("sqlite"):
        holder = sqlite3.connect(make_url(database_url).database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    engine = create_engine(database_url)
    with engine.connect() as holder:
        holder.execute(text("LOCK TABLE field_record IN ACCESS EXCLUSIVE MODE"))
        try:
            yield
        finally:
            holder.rollback()
    engine.dispose()


def test_a_push_that_meets_a_held_lock_is_told_busy_and_lands_once_after(impatient_app, database_url):
    from server.modules.fieldsync.models import FieldRecord
    phone = FakeDevice(impatient_app.test_client(), "fiscal.sapezal")
    batch = [phone.inspection(), phone.inspection()]

    with writer_lock_held(database_url):
        refused = phone.push(batch)
    assert refused.status_code == 503, refused.get_data(as_text=True)
    assert refused.json["error"]["code"] == "busy"
    assert "ocupado" in refused.json["error"]["message"]
    assert int(refused.headers["Retry-After"]) > 0
    with impatient_app.app_context():
        assert FieldRecord.query.filter(FieldRecord.id.in_([r["id"] for r in batch])).count() == 0

    accepted = phone.push(batch)
    assert accepted.status_code == 200, accepted.get_data(as_text=True)
    assert [r["status"] for r in accepted.json["results"]] == ["accepted", "accepted"]
    with impatient_app.app_context():
        assert FieldRecord.query.filter(FieldRecord.id.in_([r["id"] for r in batch])).count() == 2
