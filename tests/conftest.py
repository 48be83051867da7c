"""Shared fixtures. Database tests run on SQLite, and again on PostgreSQL when
MOTOFISCAL_TEST_DATABASE_URL points at one (`make test` does both).

The schema is built once per session by the real Alembic migrations; each test then starts from
empty tables. Any test that uses the `app` fixture is marked `db` automatically.
"""
import inspect
import os
import re
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from server import create_app
from server.extensions import db as _db

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


# A test whose body reads "today" or counts days is date-sensitive: `make test` runs it again under
# libfaketime at year ends, 29 February, 31 March and the edges of the day (tools/date-sweep), so
# that a time bomb goes off today rather than on New Year's Day. Found by reading the test's own
# source, so a new test of that kind joins the sweep without anyone remembering to mark it.
_READS_THE_CLOCK = re.compile(r"\b(TODAY|NOW|local_today|local_now|date\.today|datetime\.now|days_ago|timedelta)\b")


def _reads_the_clock(item):
    function = getattr(item, "function", None)
    try:
        return function is not None and bool(_READS_THE_CLOCK.search(inspect.getsource(function)))
    except (OSError, TypeError):
        return False


def pytest_collection_modifyitems(items):
    for item in items:
        if "app" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.db)
        if _reads_the_clock(item):
            item.add_marker(pytest.mark.calendar)


def _base_config(url, instance):
    return {"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test-secret",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",  # hashing cost is not under test here
            "INSTANCE_DIR": str(instance), "RATELIMIT_ENABLED": True}


def _worker_database(url, worker):
    """Under pytest-xdist each worker gets its own PostgreSQL database, `<name>_<worker>`, created
    beside the configured one (dropped and recreated so a run never sees an earlier run's rows)."""
    from sqlalchemy.engine import make_url
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


def _empty_tables():
    tables = [t for t in reversed(_db.metadata.sorted_tables)]
    if _db.engine.dialect.name == "postgresql":
        names = ", ".join(f'"{t.name}"' for t in tables)
        _db.session.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    else:
        for table in tables:
            _db.session.execute(table.delete())
    _db.session.commit()


@pytest.fixture(scope="session")
def app_role_url(database_url):
    """The session database as the application's role (created if missing, granted the rows as
    `flask tenancy app-role` grants them). PostgreSQL only."""
    from sqlalchemy.engine import make_url
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
def app(request, database_url, tmp_path):
    """A fresh app over empty tables. No app context stays pushed while the test runs: requests
    must each get their own `g` (as in production), so use `with app.app_context():` for direct
    database access in a test."""
    as_app_role = PG_URL and (AS_APP_ROLE or request.node.get_closest_marker("app_role"))
    app = create_app(_base_config(database_url, tmp_path))
    with app.app_context():
        _empty_tables()  # as the owner: TRUNCATE is not the application's to run
    if as_app_role:
        with app.app_context():
            _db.engine.dispose()
        app = create_app({**_base_config(database_url, tmp_path), "TENANCY_DEFAULT_CROSSING": TEST_CROSSING,
                          "SQLALCHEMY_DATABASE_URI": request.getfixturevalue("app_role_url")})
    app.instance_path = str(tmp_path)
    yield app
    with app.app_context():
        _db.session.remove()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def demo(app):
    """The demo data set (three municipalities, users, permits in every status), without issuer
    keys and crachás: credential tests create those themselves (see test_demo.py for the full
    set that `make run` loads)."""
    from server.modules.registry.demo import load_demo
    with app.app_context():
        return load_demo(credentials=False)


@pytest.fixture
def login_as(client):
    return lambda username, password=DEMO_PASSWORD: login(client, username, password)
