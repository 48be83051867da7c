"""Migrations: from empty to head, upgrading a database that holds data, and no model drift.

Runs on SQLite, and on PostgreSQL when MOTOFISCAL_TEST_DATABASE_URL is set (in its own schema so
the session database of the other tests is left alone).
"""
import os
import uuid
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import create_engine, inspect, text

from server import create_app
from server.config import normalize_database_url
from server.extensions import db

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = str(ROOT / "migrations")
PG_URL = os.environ.get("MOTOFISCAL_TEST_DATABASE_URL")
FIRST_REVISION = "0001_foundation"

pytestmark = pytest.mark.db


@pytest.fixture
def fresh_db(tmp_path):
    """An app bound to a brand-new empty database (its own PostgreSQL schema, or a new file)."""
    if PG_URL:
        schema = f"mig_{uuid.uuid4().hex[:10]}"
        base = normalize_database_url(PG_URL)
        engine = create_engine(base)
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        url = base + ("&" if "?" in base else "?") + f"options=-csearch_path%3D{schema}"
    else:
        url = f"sqlite:///{tmp_path / 'mig.sqlite3'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "x"})
    app.instance_path = str(tmp_path)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    if PG_URL:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


def test_upgrade_from_empty_matches_models(fresh_db):
    with fresh_db.app_context():
        upgrade(directory=MIGRATIONS)
        with db.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, db.metadata)
        # Every model change must come with a migration: autogenerate finds nothing to do.
        assert diff == []
        assert {"municipality", "permit", "user", "audit_log"} <= set(inspect(db.engine).get_table_names())


def test_upgrade_keeps_existing_data(fresh_db):
    """A database at the first revision, holding data, upgrades to head without losing it."""
    with fresh_db.app_context():
        upgrade(directory=MIGRATIONS, revision=FIRST_REVISION)
        with db.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO municipality (id, slug, ibge_code, name, uf, regimes, settings, created_at) "
                "VALUES (1, 'sapezal', '5107875', 'Sapezal', 'MT', '[]', '{}', '2024-01-01 00:00:00')"))
            conn.execute(text(
                "INSERT INTO ponto (id, municipality_id, name, capacity) VALUES (1, 1, 'Cowtry Lanches', 3)"))
            conn.execute(text(
                "INSERT INTO vehicle (id, municipality_id, plate, renavam, chassis, make, model, "
                "year_manufacture, engine_cc, plate_category, plate_colour, created_at, updated_at) VALUES "
                "(1, 1, 'ABC1D23', '12345678900', '9C2ABCDEFGH123456', 'Honda', 'CG 160', 2020, 162, "
                "'aluguel', 'vermelha', '2024-01-01 00:00:00', '2024-01-01 00:00:00')"))
            conn.execute(text(
                "INSERT INTO permit (id, municipality_id, number, kind, vehicle_id, ponto_id, issued_on, "
                "valid_from, valid_until, status, status_changed_at, issqn_status, created_at, updated_at) "
                "VALUES (1, 1, '001/2024', 'alvara', 1, 1, '2024-01-01', '2024-01-01', '2025-01-01', "
                "'ativo', '2024-01-01 00:00:00', 'em_dia', '2024-01-01 00:00:00', '2024-01-01 00:00:00')"))
            conn.execute(text(
                "INSERT INTO operator (id, municipality_id, name, cpf, cnh_number, cnh_category, "
                "cnh_first_issue_date, cnh_expiry, birth_date, created_at, updated_at) VALUES "
                "(1, 1, 'João  Antônio da Conceição', '52998224725', '02650306461', 'A', '2010-01-01', "
                "'2030-01-01', '1980-01-01', '2024-01-01 00:00:00', '2024-01-01 00:00:00')"))
        upgrade(directory=MIGRATIONS)
        with db.engine.connect() as conn:
            # 0003 backfilled the search form of names already in the registry.
            assert conn.execute(text("SELECT name_search FROM operator WHERE id = 1")).scalar() \
                == "joao antonio da conceicao"
            row = conn.execute(text("SELECT number, status, valid_until FROM permit WHERE id = 1")).one()
            assert row[0] == "001/2024" and row[1] == "ativo" and str(row[2]) == "2025-01-01"
            assert conn.execute(text("SELECT capacity FROM ponto WHERE id = 1")).scalar() == 3
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        heads = _heads()
        assert len(heads) == 1, f"several migration heads: {heads}"
        assert version == heads[0]


def test_downgrade_to_first_revision_and_back(fresh_db):
    with fresh_db.app_context():
        upgrade(directory=MIGRATIONS)
        downgrade(directory=MIGRATIONS, revision=FIRST_REVISION)
        upgrade(directory=MIGRATIONS)
        assert "permit" in inspect(db.engine).get_table_names()


def _heads():
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    return ScriptDirectory.from_config(config).get_heads()


def test_cli_upgrade_and_demo_load_twice_keeps_data(fresh_db):
    runner = fresh_db.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    first = runner.invoke(args=["demo", "load"])
    assert "Dados de demonstração carregados" in first.output
    with fresh_db.app_context():
        count = db.session.execute(text("SELECT count(*) FROM permit")).scalar()
    assert count > 0
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    second = runner.invoke(args=["demo", "load"])
    assert "não executada" in second.output
    with fresh_db.app_context():
        assert db.session.execute(text("SELECT count(*) FROM permit")).scalar() == count
