"""Registry import (issue 21): each law's template, XLSX and CSV, the row checks, natural keys, the
back-office screen (roles, CSRF, scoping)."""
import csv
import io

import pytest
from helpers import csrf_token, login
from registry_import_data import values_for, write_csv, write_xlsx

from server.core.clock import local_today
from server.extensions import db
from server.modules.registry.models import Company, Municipality, Operator, Permit, Ponto, Vehicle
from server.modules.registry_import.columns import columns_for
from server.modules.registry_import.importer import run_import
from server.modules.registry_import.reader import FileProblem

PASSWORD = "senha-forte-123"
MUNICIPALITIES = {
    "sapezal": ("5107875", "Sapezal", "sapezal-lei-125-1999"),
    "nortelandia": ("5106000", "Nortelândia", "nortelandia-lei-030-1998"),
    "paranatinga": ("5106307", "Paranatinga", "paranatinga-lei-311-2007"),
}


def _municipality(runner, slug, admin=True):
    ibge, name, pack = MUNICIPALITIES[slug]
    result = runner.invoke(args=["municipality", "create", "--ibge", ibge, "--name", name, "--uf", "MT", "--pack", pack,
                                 "--public-base-url", "http://localhost:5000"])
    assert result.exit_code == 0, result.output
    if admin:
        assert runner.invoke(args=["users", "create-admin", "--municipality", slug, "--username", f"adm.{slug}",
                                   "--name", f"Adm {name}", "--password", PASSWORD]).exit_code == 0


def _import(app, slug, path, kind, **kw):
    with app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        result = run_import(muni, str(path), kind, path.name, **kw)
        db.session.commit()  # as the command or the job's unit does
        return result


def _work(app):
    """Run the queued import jobs as `flask jobs worker --once` does (the tests queue, never thread)."""
    from server.modules.registry_import.jobs import work
    with app.app_context():
        return work(once=True)


@pytest.fixture(autouse=True)
def _jobs_by_worker(app):
    app.config["IMPORT_JOBS"] = "worker"


def _counts(app):
    with app.app_context():
        return {m.__name__: m.query.count() for m in (Permit, Operator, Vehicle, Company)}


def test_templates_follow_each_law(app, runner):
    for slug in MUNICIPALITIES:
        _municipality(runner, slug, admin=False)
    with app.app_context():
        headers = {m.slug: [c.header for c in columns_for(m)] for m in Municipality.query}
    assert "Inscrição municipal (cadastro de contribuintes)" in headers["sapezal"]
    assert "Inscrição municipal (cadastro de contribuintes)" not in headers["paranatinga"]
    assert {"CNPJ da empresa", "Razão social da empresa", "CPF do condutor"} <= set(headers["nortelandia"])
    assert "CPF do titular" in headers["sapezal"] and "CNPJ da empresa" not in headers["sapezal"]
    assert headers["paranatinga"][0] == "Número do termo" and headers["sapezal"][0] == "Número do alvará"


def test_nortelandia_xlsx_company_permits_and_reimport(app, runner, tmp_path):
    _municipality(runner, "nortelandia", admin=False)
    today = local_today()
    with app.app_context():
        columns = columns_for(Municipality.query.one())
    rows = [values_for(i, today, company=i % 2) for i in range(4)]
    path = tmp_path / "norte.xlsx"
    write_xlsx(path, columns, rows)
    dry = _import(app, "nortelandia", path, "xlsx")
    assert (dry.rows, dry.valid, dry.error_rows, dry.committed) == (4, 4, 0, False)
    assert _counts(app)["Permit"] == 0
    done = _import(app, "nortelandia", path, "xlsx", commit=True)
    assert done.committed and done.written == {"permit": 4, "operator": 4, "vehicle": 4, "company": 2}
    with app.app_context():
        permit = Permit.query.filter_by(number=rows[1]["permit.number"]).one()
        assert permit.holder_operator_id is None and permit.holder_company.cnpj == rows[1]["company.cnpj"]
        assert [d.cpf for d in permit.drivers] == [rows[1]["operator.cpf"]]
        assert permit.drivers[0].company_id == permit.holder_company_id
    before = _counts(app)
    again = _import(app, "nortelandia", path, "xlsx", commit=True)
    assert again.existing == 4 and again.written["permit"] == 0 and _counts(app) == before


def test_paranatinga_imports_termos(app, runner, tmp_path):
    _municipality(runner, "paranatinga", admin=False)
    today = local_today()
    with app.app_context():
        columns = columns_for(Municipality.query.one())
    path = tmp_path / "para.csv"
    write_csv(path, columns, [values_for(i, today) for i in range(2)])
    assert _import(app, "paranatinga", path, "csv", commit=True).committed
    with app.app_context():
        assert {p.kind for p in Permit.query} == {"termo_permissao"}


def test_row_checks_duplicates_ponto_and_status(app, runner, tmp_path):
    _municipality(runner, "sapezal", admin=False)
    today = local_today()
    with app.app_context():
        muni = Municipality.query.one()
        columns = columns_for(muni)
        ponto = Ponto.query.filter_by(municipality_id=muni.id).order_by(Ponto.capacity).first()
        ponto_name, capacity = ponto.name, ponto.capacity
    rows = [values_for(i, today) for i in range(6)]
    rows[1]["permit.number"] = rows[0]["permit.number"]               # line 3: number repeated
    rows[2]["vehicle.plate"] = rows[0]["vehicle.plate"]               # line 4: plate repeated
    rows[3]["permit.status"] = "perdido"                              # line 5: unknown status
    rows[4]["permit.ponto"] = "Praça Inexistente"                     # line 6: unknown ponto
    for row in rows[5:]:
        row["permit.ponto"] = ponto_name.upper()                      # line 7: matched ignoring case
    rows[5]["vehicle.year_manufacture"] = str(today.year - 6)         # ...six years old: art. 5º, in transition
    path = tmp_path / "sap.csv"
    write_csv(path, columns, rows)
    result = _import(app, "sapezal", path, "csv")
    by_line = {}
    for line, column, message in result.errors:
        by_line.setdefault(line, {})[column] = message
    assert sorted(by_line) == [3, 4, 5, 6]
    assert "linha 2" in by_line[3]["Número do alvará"]
    assert "linha 2" in by_line[4]["Placa"]
    assert "ativo" in by_line[5]["Situação"]
    assert ponto_name in by_line[6]["Ponto"]
    # An existing permit is not refused for the law's issuing requirement: listed with its transition.
    assert [(ln, col) for ln, col, _req, _t in result.transitions] == [(7, "Ano de fabricação")]
    assert "art. 5º" in result.transitions[0][2] and result.transitions[0][3] == "sem prazo definido"
    assert capacity >= 1


def test_header_not_the_template_is_refused_naming_the_columns(app, runner, tmp_path):
    _municipality(runner, "sapezal", admin=False)
    path = tmp_path / "outro.csv"
    path.write_text("Nome;CPF;Coluna Estranha\nJoão;123;x\n", encoding="utf-8")
    with pytest.raises(FileProblem) as err:
        _import(app, "sapezal", path, "csv")
    assert "Número do alvará" in str(err.value)  # no column of the template at all
    broken = tmp_path / "quebrado.xlsx"
    broken.write_bytes(b"not a zip")
    with pytest.raises(FileProblem):
        _import(app, "sapezal", broken, "xlsx")


def test_backoffice_screen_dry_run_report_and_import_valid(app, runner, client, tmp_path):
    _municipality(runner, "sapezal")
    today = local_today()
    with app.app_context():
        columns = columns_for(Municipality.query.one())
    rows = [values_for(i, today) for i in range(3)]
    rows[2]["vehicle.engine_cc"] = "abc"
    path = tmp_path / "sap.csv"
    write_csv(path, columns, rows)
    login(client, "adm.sapezal", PASSWORD)
    template = client.get("/bo/importacao/modelo.csv")
    assert template.status_code == 200
    header = next(csv.reader(io.StringIO(template.get_data(as_text=True).lstrip("\ufeff")), delimiter=";"))
    assert header == [c.header for c in columns]
    assert client.get("/bo/importacao/modelo.xlsx").data[:2] == b"PK"
    token = csrf_token(client, "/bo/importacao/")
    assert client.post("/bo/importacao/", data={"file": (io.BytesIO(path.read_bytes()), "sap.csv")}).status_code == 400
    wrong = client.post("/bo/importacao/", data={"csrf_token": token, "file": (io.BytesIO(b"x"), "sap.pdf")})
    assert wrong.status_code == 422 and ".xlsx" in wrong.get_data(as_text=True)
    queued = client.post("/bo/importacao/", data={"csrf_token": token, "file": (io.BytesIO(path.read_bytes()), "sap.csv")})
    assert queued.status_code == 303  # the request only stores the file and queues the check
    upload = queued.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    waiting = client.get(f"/bo/importacao/{upload}").get_data(as_text=True)
    assert "Na fila" in waiting and "js/job-progress.js" in waiting  # the page follows its job by itself
    # What the page's script polls: the state line while the job waits, never cached.
    status = client.get(f"/bo/importacao/{upload}/estado")
    assert status.status_code == 200 and status.headers["Cache-Control"] == "no-store"
    assert status.json == {"state": "queued", "running": True, "text": "Na fila: começa em instantes."}
    assert f'data-status="/bo/importacao/{upload}/estado"' in waiting and status.json["text"] in waiting
    assert _work(app) == 1
    assert client.get(f"/bo/importacao/{upload}/estado").json == {"state": "done", "running": False, "text": None}
    report = client.get(f"/bo/importacao/{upload}")
    page = report.get_data(as_text=True)
    assert report.status_code == 200 and "Cilindrada (cc)" in page and "Importar as válidas (2 no máximo)" in page
    assert _counts(app)["Permit"] == 0
    errors = client.get(f"/bo/importacao/{upload}/erros.csv").get_data(as_text=True)
    assert "Cilindrada (cc)" in errors and ";4;" not in errors and errors.splitlines()[1].startswith("4;")
    refused = client.post(f"/bo/importacao/{upload}/gravar", data={"csrf_token": token})
    assert refused.status_code == 303 and _work(app) == 1 and _counts(app)["Permit"] == 0
    assert "Nada foi gravado" in client.get(refused.headers["Location"]).get_data(as_text=True)
    # A refused commit leaves the stored check usable: the clerk chooses again from the same report.
    done = client.post(f"/bo/importacao/{upload}/gravar", data={"csrf_token": token, "only_valid": "1"})
    assert done.status_code == 303 and _work(app) == 1 and _counts(app)["Permit"] == 2
    assert "Importação concluída: 2 permissões" in client.get(done.headers["Location"]).get_data(as_text=True)
    # One import per check.
    assert client.post(f"/bo/importacao/{upload}/gravar", data={"csrf_token": token, "only_valid": "1"}).status_code == 404
    with app.app_context():
        from server.modules.registry_import.models import ImportJob
        assert db.session.get(ImportJob, upload).body == b""  # the imported file is not kept twice


def test_upload_belongs_to_its_session_and_staff_roles(app, runner, client, tmp_path):
    _municipality(runner, "sapezal")
    _municipality(runner, "paranatinga")
    assert runner.invoke(args=["users", "create-admin", "--municipality", "sapezal", "--username", "outro.sapezal",
                               "--name", "Outro Adm", "--password", PASSWORD]).exit_code == 0
    today = local_today()
    with app.app_context():
        columns = columns_for(Municipality.query.filter_by(slug="sapezal").one())
        from server.modules.accounts.models import User
        fiscal = User(username="fiscal.sapezal", name="Fiscal", role="fiscal",
                      municipality_id=Municipality.query.filter_by(slug="sapezal").one().id)
        fiscal.set_password(PASSWORD)
        db.session.add(fiscal)
        db.session.commit()
    path = tmp_path / "sap.csv"
    write_csv(path, columns, [values_for(0, today)])
    login(client, "adm.sapezal", PASSWORD)
    token = csrf_token(client, "/bo/importacao/")
    page = client.post("/bo/importacao/", data={"csrf_token": token, "file": (io.BytesIO(path.read_bytes()), "s.csv")})
    upload = page.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    assert _work(app) == 1
    for other in ("outro.sapezal", "adm.paranatinga"):
        second = app.test_client()
        login(second, other, PASSWORD)
        other_token = csrf_token(second, "/bo/importacao/")
        assert second.get(f"/bo/importacao/{upload}").status_code == 404
        assert second.post(f"/bo/importacao/{upload}/gravar", data={"csrf_token": other_token}).status_code == 404
        assert second.get(f"/bo/importacao/{upload}/erros.csv").status_code == 404
        assert second.get(f"/bo/importacao/{upload}/estado").status_code == 404
    assert _work(app) == 0
    assert _counts(app)["Permit"] == 0
    third = app.test_client()  # a fiscal has no back-office session at all; its API token opens nothing here
    token_response = third.post("/api/v1/auth/token", json={"username": "fiscal.sapezal", "password": PASSWORD})
    assert token_response.status_code == 200
    bearer = {"Authorization": f"Bearer {token_response.json['token']}"}
    assert third.get("/bo/importacao/", headers=bearer).status_code == 302  # to the login page
    assert third.get(f"/bo/importacao/{upload}/estado", headers=bearer).status_code == 302
    assert client.get(f"/bo/importacao/{upload}/estado").json["state"] == "done"  # the uploader's own


def test_imported_permits_enter_the_status_list(app, runner, tmp_path):
    """The phones learn every imported permit's status, as they do for one issued by a form."""
    from server.modules.credentials.models import StatusListEntry

    _municipality(runner, "sapezal", admin=False)
    today = local_today()
    with app.app_context():
        columns = columns_for(Municipality.query.one())
    rows = [values_for(i, today) for i in range(3)]
    rows[1]["permit.status"] = "suspenso"
    path = tmp_path / "sap.csv"
    write_csv(path, columns, rows)
    assert _import(app, "sapezal", path, "csv", commit=True).committed
    with app.app_context():
        entries = {(e.ref, e.status) for e in StatusListEntry.query.filter_by(kind="permit")}
    assert entries == {(r["permit.number"], r["permit.status"]) for r in rows}
