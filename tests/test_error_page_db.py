"""The back office's error page after a database error (issue 36, item 10): the request's
transaction failed, or its connection was dropped, and the page — whose layout reads the user's
municipality — still renders, instead of an empty 500."""
import pytest

from helpers import login
from server.core.auth import login_required
from server.extensions import db
from server.modules.registry.models import Municipality

PASSWORD = "senha-forte-123"


def _failed_flush():
    db.session.add(Municipality(slug=None, ibge_code=None, name=None, uf=None))  # NOT NULL: the flush fails
    db.session.flush()


def _dropped_connection():
    db.session.execute(db.text("SELECT pg_terminate_backend(pg_backend_pid())"))


@pytest.mark.parametrize("failure", [_failed_flush, _dropped_connection], ids=["failed transaction", "dropped connection"])
def test_the_error_page_renders_after_a_database_error(app, runner, failure):
    if failure is _dropped_connection:
        with app.app_context():
            if db.engine.dialect.name != "postgresql":
                pytest.skip("a server-side connection to drop is PostgreSQL's")
    app.add_url_rule("/bo/_database_error", "database_error", login_required()(failure))
    assert runner.invoke(args=["municipality", "create", "--ibge", "5107875", "--name", "Sapezal", "--uf", "MT",
                               "--pack", "sapezal-lei-125-1999",
                               "--public-base-url", "https://motofiscal.exemplo.mt.gov.br"]).exit_code == 0
    assert runner.invoke(args=["users", "create-admin", "--municipality", "sapezal", "--username", "adm.sapezal",
                               "--name", "Adm Sapezal", "--password", PASSWORD]).exit_code == 0
    client = app.test_client()
    login(client, "adm.sapezal", PASSWORD)
    page = client.get("/bo/_database_error")
    body = page.get_data(as_text=True)
    assert page.status_code == 500
    assert "Erro 500" in body and "Erro interno" in body
    assert "Sapezal" in body  # the full layout, with the user's municipality read after the rollback
    # The next request on the same server works (the pooled connection was rolled back or replaced).
    assert client.get("/bo/").status_code == 200
