"""`flask tenancy app-role` run as the owner docs/operations.md creates (LOGIN BYPASSRLS, owns the
database, no superuser, no CREATEROLE), on a database of its own migrated by that owner (issue 36:
the project's other tests run it as superuser). PostgreSQL only."""
import os

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from server import create_app
from server.extensions import db

PG_URL = os.environ.get("MOTOFISCAL_TEST_DATABASE_URL")
pytestmark = [pytest.mark.db, pytest.mark.skipif(not PG_URL, reason="PostgreSQL only (row-level security)")]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _admin(url):
    return create_engine(url, isolation_level="AUTOCOMMIT")


@pytest.fixture(scope="module")
def owned(tmp_path_factory, worker_id):
    from server.config import normalize_database_url
    base = make_url(normalize_database_url(PG_URL))
    suffix = f"{base.database}_{worker_id}".replace("-", "_")
    owner, app_role, name = f"{suffix}_owner", f"{suffix}_app", f"{suffix}_owned"
    admin = _admin(base)

    def drop():
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            for role in (app_role, owner):
                conn.execute(text(f'DROP ROLE IF EXISTS "{role}"'))
    drop()
    with admin.connect() as conn:  # docs/operations.md, "Row-level security", set-up
        conn.execute(text(f"CREATE ROLE \"{owner}\" LOGIN BYPASSRLS PASSWORD 'owner-pw'"))
        conn.execute(text(f'CREATE DATABASE "{name}" OWNER "{owner}"'))
    url = base.set(database=name, username=owner, password="owner-pw").render_as_string(hide_password=False)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "t",
                      "INSTANCE_DIR": str(tmp_path_factory.mktemp("owned"))})
    with app.app_context():
        from flask_migrate import upgrade
        upgrade(directory=os.path.join(ROOT, "migrations"))  # the owner migrates, as documented
    yield app, admin, app_role
    with app.app_context():
        db.engine.dispose()
    drop()
    admin.dispose()


def test_the_owner_grants_the_app_role_and_says_what_it_cannot_do(owned, monkeypatch):
    app, admin, role = owned
    runner = app.test_cli_runner()
    monkeypatch.setenv("MOTOFISCAL_APP_DB_PASSWORD", "app-pw")
    # The owner may not create roles: a clear answer naming the command that does, no traceback.
    missing = runner.invoke(args=["tenancy", "app-role", role])
    assert missing.exit_code == 1, missing.output
    assert f"O papel {role} não existe" in missing.output and f"CREATE ROLE {role} LOGIN" in missing.output
    assert "Traceback" not in missing.output and missing.exception.__class__.__name__ == "SystemExit"
    # The superuser creates it once (as the docs say); the owner's run then grants the rows.
    with admin.connect() as conn:
        conn.execute(text(f"CREATE ROLE \"{role}\" LOGIN PASSWORD 'app-pw'"))
    done = runner.invoke(args=["tenancy", "app-role", role])
    assert done.exit_code == 0, done.output
    assert f"Papel {role} pronto" in done.output and "a senha não foi alterada" in done.output
    with app.app_context():
        granted = db.session.execute(text(
            "SELECT has_table_privilege(:r, 'municipality', 'SELECT, INSERT, UPDATE, DELETE'), "
            "has_table_privilege(:r, 'permit', 'SELECT, INSERT, UPDATE, DELETE'), "
            "has_table_privilege(:r, 'permit', 'TRUNCATE')"), {"r": role}).one()
        assert tuple(granted) == (True, True, False)
        db.session.remove()
    # Connected as that role, the policies bind it: no municipality set, no row (municipality too).
    app_url = make_url(app.config["SQLALCHEMY_DATABASE_URI"]).set(username=role, password="app-pw")
    engine = create_engine(app_url)
    with engine.connect() as conn:
        conn.execute(text("SELECT 1 FROM permit LIMIT 1")).all()
        assert conn.execute(text("SELECT count(*) FROM municipality")).scalar() == 0
    engine.dispose()
    # A role the policies skip is refused (the owner itself has BYPASSRLS).
    owner = make_url(app.config["SQLALCHEMY_DATABASE_URI"]).username
    refused = runner.invoke(args=["tenancy", "app-role", owner])
    assert refused.exit_code == 1 and "BYPASSRLS" in refused.output and "Traceback" not in refused.output
