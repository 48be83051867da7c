"""The `municipality` table under row-level security (issue 36, migration 0034): as the app role a
municipality reads and writes only its own row (its settings: fine amounts, retention, process
deadlines); platform administration declares its crossing. PostgreSQL only for the policy itself;
the platform screens run on both databases."""
import pytest
from sqlalchemy import text

from helpers import csrf_token, login
from server.core.tenancy import NOTHING, crossing_municipalities, use_municipality, use_scope
from server.extensions import db
from server.modules.registry.models import Municipality

pytestmark = pytest.mark.app_role  # PostgreSQL: connect as the role the policies bind

PASSWORD = "senha-forte-123"
URL = "https://motofiscal.exemplo.mt.gov.br"


def _two_municipalities(runner):
    for ibge, name, pack in (("5107875", "Sapezal", "sapezal-lei-125-1999"),
                             ("5106307", "Paranatinga", "paranatinga-lei-311-2007")):
        result = runner.invoke(args=["municipality", "create", "--ibge", ibge, "--name", name, "--uf", "MT",
                                     "--pack", pack, "--public-base-url", URL])
        assert result.exit_code == 0, result.output
    with crossing_municipalities("test: the ids"):
        return {m.slug: m.id for m in Municipality.query}


def test_a_municipality_reads_and_writes_only_its_own_row(app, runner):
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("row-level security is PostgreSQL's")
        ids = _two_municipalities(runner)
        sapezal, paranatinga = ids["sapezal"], ids["paranatinga"]
        use_municipality(sapezal)
        assert [m.slug for m in Municipality.query] == ["sapezal"]
        # Another municipality's settings (fine amounts, retention…): the UPDATE finds no row.
        changed = db.session.execute(text("UPDATE municipality SET settings = '{\"hacked\": true}' WHERE id = :id"),
                                     {"id": paranatinga}).rowcount
        assert changed == 0
        assert db.session.get(Municipality, paranatinga) is None
        # Its own row: written.
        assert db.session.execute(text("UPDATE municipality SET name = 'Sapezal' WHERE id = :id"),
                                  {"id": sapezal}).rowcount == 1
        db.session.commit()
        # Making a row of another municipality is refused by the policy's WITH CHECK.
        use_municipality(sapezal)
        with pytest.raises(Exception, match="row-level security"):
            db.session.execute(text("INSERT INTO municipality (slug, ibge_code, name, uf, regimes, settings, "
                                    "created_at) VALUES ('x', '5100000', 'X', 'MT', '[]', '{}', now())"))
        db.session.rollback()
        use_scope(NOTHING)
        assert db.session.execute(text("SELECT count(*) FROM municipality")).scalar() == 0
        with crossing_municipalities("test: the truth"):
            other = db.session.get(Municipality, paranatinga)
            assert "hacked" not in other.settings and db.session.query(Municipality).count() == 2


def test_platform_administration_declares_its_crossing(app, runner, client):
    with app.app_context():
        _two_municipalities(runner)
    assert runner.invoke(args=["users", "create-admin", "--username", "plataforma", "--name", "Adm Plataforma",
                               "--password", PASSWORD]).exit_code == 0
    assert runner.invoke(args=["users", "create-admin", "--municipality", "sapezal", "--username", "adm.sapezal",
                               "--name", "Adm Sapezal", "--password", PASSWORD]).exit_code == 0
    admin = app.test_client()
    login(admin, "adm.sapezal", PASSWORD)
    home = admin.get("/bo/")
    assert home.status_code == 200 and "Sapezal" in home.get_data(as_text=True)
    login(client, "plataforma", PASSWORD)
    page = client.get("/bo/municipio").get_data(as_text=True)
    assert "Sapezal" in page and "Paranatinga" in page
    listed = client.get("/bo/plataforma/municipios").get_data(as_text=True)
    assert "Sapezal" in listed and "Paranatinga" in listed
    with app.app_context(), crossing_municipalities("test: the id"):
        paranatinga = Municipality.query.filter_by(slug="paranatinga").one().id
    picked = client.post("/bo/municipio", data={"csrf_token": csrf_token(client, "/bo/municipio"),
                                                "municipality_id": paranatinga})
    assert picked.status_code == 302
    dashboard = client.get("/bo/")
    assert dashboard.status_code == 200 and "Paranatinga" in dashboard.get_data(as_text=True)
    # The operators' first-access form lists the municipalities served (public by design).
    listed = client.get("/api/v1/operator/municipalities")
    assert sorted(m["slug"] for m in listed.json) == ["paranatinga", "sapezal"]
