"""Shared fixtures. Database tests run on SQLite, and again on PostgreSQL when
MOTOFISCAL_TEST_DATABASE_URL points at one (`make test` does both).

The schema is built once per session by the real Alembic migrations; each test then starts from
empty tables. Any test that uses the `app` fixture is marked `db` automatically.
"""
import functools
import os
import sqlite3
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import Integer, create_engine, event, text
from sqlalchemy.engine import Engine, make_url

from server import create_app
from server.extensions import db as _db

import app_reuse
import clock_words
import xdist_order
from helpers import DEMO_PASSWORD, login  # noqa: F401  (shared by the fixtures below)

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("MOTOFISCAL_TEST_DATABASE_URL")
# On PostgreSQL, tests marked `app_role` (and every test with MOTOFISCAL_TEST_AS_APP_ROLE=1) connect
# as the application's role, which the row-level security policies bind (docs/operations.md), not
# as the superuser that builds the schema: a view that forgets its municipality filter then gets
# nothing instead of a neighbour's rows.
AS_APP_ROLE = os.environ.get("MOTOFISCAL_TEST_AS_APP_ROLE") == "1"
APP_ROLE, APP_ROLE_PASSWORD = "motofiscal_app", "motofiscal-app-test"
# Outside requests, tests set up and check data of several municipalities: declared here.
TEST_CROSSING = "tests: set-up and checks outside requests read every municipality"


# A test whose data depends on today is date-sensitive: its body reads "today" or counts days, or
# it uses the demo set (dated from the day the suite runs) or another fixture that reads the clock.
# `make test` runs it again under libfaketime at year ends, 29 February, 21 January, 31 March and
# 1 April and the edges of the day and month (tools/date-sweep), so that a time bomb goes off today
# rather than on New Year's Day. Found by reading sources (tests/clock_words.py), so a new test of
# that kind joins the sweep without anyone remembering to mark it.
def pytest_collection_modifyitems(items):
    for item in items:
        if "app" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.db)
        if clock_words.is_date_sensitive(item) and clock_words.swept(item):
            item.add_marker(pytest.mark.calendar)
    xdist_order.order(items)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: absent without it
def pytest_xdist_make_scheduler(config, log):
    return xdist_order.make_scheduler(config, log)


@event.listens_for(Engine, "connect")
def _sqlite_without_fsync(dbapi_connection, _record):
    """Test databases need no durability against power loss: SQLite's fsync at every commit
    (about 0.9 ms on this disk, tens of commits per test) is left out. Locking, journaling and
    rollback are unchanged."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.execute("PRAGMA synchronous=OFF")


def _base_config(url, instance):
    return {"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test-secret",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",  # hashing cost is not under test here
            "INSTANCE_DIR": str(instance), "RATELIMIT_ENABLED": True}


def _worker_database(url, worker):
    """Under pytest-xdist each worker gets its own PostgreSQL database, `<name>_<worker>`, created
    beside the configured one (dropped and recreated so a run never sees an earlier run's rows)."""
    base = make_url(url)
    name = f"{base.database}_{worker}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def database_url(tmp_path_factory, worker_id):
    """A migrated, empty database for the whole session (one per pytest-xdist worker)."""
    if PG_URL:
        from server.config import normalize_database_url
        url = normalize_database_url(PG_URL)
        if worker_id != "master":
            url = _worker_database(url, worker_id)
        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(text("DROP SCHEMA public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
        engine.dispose()
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'test.sqlite3'}"
    instance = tmp_path_factory.mktemp("instance")
    app = create_app(_base_config(url, instance))
    with app.app_context():
        from flask_migrate import upgrade
        upgrade(directory=str(ROOT / "migrations"))
    return url


# SQLite: a database's whole content at two points — emptied after the migrations, and with the
# demo set written — held in memory and copied back page by page with sqlite3's backup API
# (Connection.backup) instead of 53 DELETEs and, for the demo, ~40 bulk INSERTs. The copy is a
# memcpy of ~1 MB: 1–2 ms against ~5 ms to empty the tables and ~20 ms to write the demo back,
# for each of ~2,000 tests and again at each of the date sweep's seven moments. The counters of
# AUTOINCREMENT tables (sqlite_sequence) go back with the rows, as PostgreSQL's sequences do below.
_SQLITE_SNAPSHOTS = {}


def _sqlite_snapshot(engine):
    raw = engine.raw_connection()
    try:
        copy = sqlite3.connect(":memory:", check_same_thread=False)
        raw.driver_connection.backup(copy)
        return copy
    finally:
        raw.close()


def _sqlite_restore(engine, snapshot):
    raw = engine.raw_connection()
    try:
        snapshot.backup(raw.driver_connection)
    finally:
        raw.close()


def _empty_tables():
    tables = [t for t in reversed(_db.metadata.sorted_tables)]
    if _db.engine.dialect.name == "sqlite" and _db.engine.url.database not in (None, "", ":memory:"):
        key = ("empty", str(_db.engine.url))
        _db.session.remove()
        if key in _SQLITE_SNAPSHOTS:
            _sqlite_restore(_db.engine, _SQLITE_SNAPSHOTS[key])
            return
        for table in tables:
            _db.session.execute(table.delete())
        _db.session.commit()
        _SQLITE_SNAPSHOTS[key] = _sqlite_snapshot(_db.engine)
        return
    if _db.engine.dialect.name == "postgresql":
        # DELETE and a sequence reset in one round trip: a test leaves a few rows, and TRUNCATE of
        # 53 tables (new files for each table, index and sequence) cost 280 ms per test here
        # against 3 ms for this — about three minutes of the PostgreSQL suite.
        _db.session.connection().exec_driver_sql(_pg_empty_sql(tuple(t.name for t in tables)))
    else:
        for table in tables:
            _db.session.execute(table.delete())
    _db.session.commit()


@functools.cache
def _pg_empty_sql(names):
    """The DELETEs (children first) and the reset of every sequence those tables own (serial or
    identity columns), to its start value, as TRUNCATE … RESTART IDENTITY did."""
    sequences = _db.session.execute(text(
        "SELECT s.oid::regclass::text, q.seqstart FROM pg_class s"
        " JOIN pg_sequence q ON q.seqrelid = s.oid"
        " JOIN pg_depend d ON d.objid = s.oid AND d.deptype IN ('a', 'i')"
        " JOIN pg_class t ON t.oid = d.refobjid"
        " WHERE s.relkind = 'S' AND t.relname = ANY(:names)"), {"names": list(names)}).all()
    deletes = [f'DELETE FROM "{name}"' for name in names]
    resets = [f"SELECT setval('{name}', {start}, false)" for name, start in sequences]
    return "; ".join(deletes + resets)


@pytest.fixture(scope="session")
def app_role_url(database_url):
    """The session database as the application's role (created if missing, granted the rows as
    `flask tenancy app-role` grants them). PostgreSQL only."""
    from server.core import rls_sql
    owner = create_engine(database_url)
    with owner.begin() as conn:
        conn.exec_driver_sql(rls_sql.create_role(APP_ROLE, APP_ROLE_PASSWORD))
        for statement in rls_sql.grants(APP_ROLE):
            conn.exec_driver_sql(statement)
    owner.dispose()
    url = make_url(database_url).set(username=APP_ROLE, password=APP_ROLE_PASSWORD)
    return url.render_as_string(hide_password=False)


@pytest.fixture
def ratelimit_config():
    """Limiter settings added to the `app` fixture's: none here; the rate-limit tests override
    this fixture to run once on memory:// and once on Redis (tests/ratelimit_backends.py)."""
    return {}


def _create_app(config):
    app = create_app(config)
    app.jinja_env.bytecode_cache = app_reuse.TEMPLATE_CACHE
    return app


@pytest.fixture
def app(request, database_url, tmp_path, ratelimit_config):
    """A fresh app over empty tables. No app context stays pushed while the test runs: requests
    must each get their own `g` (as in production), so use `with app.app_context():` for direct
    database access in a test."""
    as_app_role = PG_URL and (AS_APP_ROLE or request.node.get_closest_marker("app_role"))
    app = _create_app({**_base_config(database_url, tmp_path), **ratelimit_config})
    with app.app_context():
        _empty_tables()  # as the owner: emptying every table is not the application's to do
    if as_app_role:
        with app.app_context():
            _db.engine.dispose()
        app = _create_app({**_base_config(database_url, tmp_path), **ratelimit_config,
                          "TENANCY_DEFAULT_CROSSING": TEST_CROSSING,
                          "SQLALCHEMY_DATABASE_URI": request.getfixturevalue("app_role_url")})
    app.instance_path = str(tmp_path)
    yield app
    with app.app_context():
        _db.session.remove()
        # A shared engine (`app_reuse._share_engines`) keeps its pooled connections for the worker's next
        # test: a new PostgreSQL backend per test read the catalog again for every table the test
        # touched (about 30 ms a test, 95 ms with the demo set; SQLite re-read its schema, 10 ms).
        # Pooled connections are idle, outside any transaction, and hold no lock; each worker keeps
        # at most pool_size of them per engine (a few engines), well under PostgreSQL's 100
        # connections. A test that needs a database to itself disposes its engine (test_backup,
        # test_migrations). An engine of its own (in-memory SQLite) goes with its test.
        if not app_reuse.is_shared(_db.engine):
            _db.engine.dispose()


@pytest.fixture
def second_server(app, database_url, tmp_path_factory):
    """Another app server over the same database, with an instance folder of its own: what it can
    do, it does from shared state only. Both have the same key passphrase, as a deployment must."""
    app.config["KEY_PASSPHRASE"] = "test-passphrase"
    other = create_app({**_base_config(database_url, tmp_path_factory.mktemp("second")),
                        "KEY_PASSPHRASE": "test-passphrase"})
    other.instance_path = other.config["INSTANCE_DIR"]
    yield other
    with other.app_context():
        _db.session.remove()
        _db.engine.dispose()


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory):
    """A real S3-protocol server (moto_server) on a free loopback port for the whole session."""
    from object_store import MotoServer
    server = MotoServer(tmp_path_factory.mktemp("moto") / "moto_server.log")
    yield server
    server.stop()


@pytest.fixture(params=["local", "s3"])
def storage_backend(request, app, monkeypatch):
    """Runs a test twice: blobs in the instance folder (the default), then in the S3 server under
    a prefix of the test's own. `pytestmark = pytest.mark.usefixtures("storage_backend")` in a
    module puts every test of it on both."""
    if request.param == "s3":
        settings = request.getfixturevalue("s3_server").settings()
        for name, value in settings.items():
            if name.startswith("AWS_"):
                monkeypatch.setenv(name, value)
        app.config.update(STORAGE_URL=settings["STORAGE_URL"], STORAGE_ENDPOINT_URL=settings["STORAGE_ENDPOINT_URL"])
    return request.param


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


# The light demo set is the same rows for every test of a worker on one day: it is built through
# the real operations once, then kept — on SQLite as a copy of the whole database (see
# _SQLITE_SNAPSHOTS), on PostgreSQL in temporary tables of the worker's own connection
# (_PgDemoRows), written back by one INSERT … SELECT per table — for the next test (far cheaper
# than building it again, and ~850 tests ask for it).
_DEMO_SNAPSHOTS = {}


@pytest.fixture
def demo(app, database_url):
    """The demo data set (three municipalities, users, permits in every status), without issuer
    keys and crachás: credential tests create those themselves (see test_demo.py for the full
    set that `make run` loads)."""
    from server.core.clock import local_today
    from server.modules.demo.dataset import load_demo
    with app.app_context():
        key = (database_url, local_today())
        if key in _DEMO_SNAPSHOTS:
            saved, logins = _DEMO_SNAPSHOTS[key]
            if isinstance(saved, sqlite3.Connection):
                _sqlite_restore(_owner_engine(database_url), saved)
                return logins
            if saved.write_back():
                return logins
        logins = load_demo(credentials=False)
        _db.session.commit()  # the loader stages, as under `flask demo load` (its command commits)
        for kept, _logins in _DEMO_SNAPSHOTS.values():  # another day's (or a lost connection's)
            kept.close()
        _DEMO_SNAPSHOTS.clear()
        engine = _owner_engine(database_url)
        saved = _sqlite_snapshot(engine) if engine.dialect.name == "sqlite" else _PgDemoRows(database_url)
        _DEMO_SNAPSHOTS[key] = (saved, logins)
        return logins


@functools.cache
def _owner_engine(database_url):
    """Rows are copied and written back as the database's owner: under row-level security the
    application's role would see one municipality, and may not move sequences."""
    return create_engine(database_url)


class _PgDemoRows:
    """PostgreSQL: the demo rows kept by the server, in temporary tables of a connection of the
    worker's own (as the database's owner), and written back by one INSERT … SELECT per table in
    one round trip: no row travels through Python (bulk INSERTs of Python dicts cost ~40 ms of CPU
    per test, ~850 tests). Explicit ids leave the sequences behind, so they are moved on after."""

    def __init__(self, database_url):
        url = make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.connection = psycopg.connect(url, autocommit=True)
        statements, sequences = [], []
        for table in _db.metadata.sorted_tables:
            kept = f'pg_temp."demo_{table.name}"'
            self.connection.execute(f'CREATE TEMP TABLE "demo_{table.name}" AS SELECT * FROM "{table.name}"')
            if not self.connection.execute(f"SELECT EXISTS (SELECT FROM {kept})").fetchone()[0]:
                continue
            statements.append(f'INSERT INTO "{table.name}" SELECT * FROM {kept}')
            key = list(table.primary_key.columns)
            if len(key) == 1 and isinstance(key[0].type, Integer):
                sequences.append(f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', '{key[0].name}'), "
                                 f'(SELECT MAX("{key[0].name}") FROM "{table.name}"))')
        self.sql = "; ".join(statements + sequences)

    def write_back(self):
        """False when the connection is gone (a test that ended the database's sessions, as a
        restore does): the demo is then built again."""
        try:
            with self.connection.transaction():
                self.connection.execute(self.sql)
            return True
        except psycopg.OperationalError:
            self.close()
            return False

    def close(self):
        self.connection.close()


@pytest.fixture
def login_as(client):
    return lambda username, password=DEMO_PASSWORD: login(client, username, password)
