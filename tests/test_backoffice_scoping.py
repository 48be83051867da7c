"""Municipality scoping and roles in the back office: a Sapezal user can neither read nor change
Paranatinga's data, whatever URL or form field they tamper with."""
import pytest

from backoffice_data import free_operator_and_vehicle, muni
from helpers import csrf_token, login
from server.core.audit import AuditLog
from server.extensions import db
from server.modules.registry.models import Company, Operator, Permit, Ponto, Vehicle


def _first(app, model, slug, **filters):
    with app.app_context():
        row = model.query.filter_by(municipality_id=muni(slug).id, **filters).order_by(model.id).first()
        return row.id


def _snapshot(app, model, ident):
    with app.app_context():
        obj = db.session.get(model, ident)
        return {c.key: getattr(obj, c.key) for c in obj.__table__.columns}


def _audit_count(app):
    with app.app_context():
        return AuditLog.query.filter(AuditLog.action != "login", AuditLog.action != "view").count()


FOREIGN_EDITS = {
    "permissoes": (Permit, {"number": "999/2026", "kind": "alvara", "vehicle_id": "1", "issued_on": "2026-01-01",
                            "valid_from": "2026-01-01", "valid_until": "2027-01-01", "issqn_status": "em_dia"}),
    "operadores": (Operator, {"name": "Nome Trocado", "cpf": "529.982.247-25", "cnh_number": "02650306461",
                              "cnh_category": "A", "cnh_first_issue_date": "2001-01-01",
                              "cnh_expiry": "2030-01-01", "birth_date": "1980-01-01"}),
    "veiculos": (Vehicle, {"plate": "ABC1D23", "renavam": "12345678900", "chassis": "9C2KC1670AR000000",
                           "make": "Honda", "model": "CG", "year_manufacture": "2020", "engine_cc": "160"}),
    "pontos": (Ponto, {"name": "Ponto Trocado", "capacity": "9"}),
}


@pytest.mark.parametrize("segment", list(FOREIGN_EDITS))
def test_other_municipality_records_answer_404_and_stay_unchanged(app, client, demo, segment):
    model, form = FOREIGN_EDITS[segment]
    ident = _first(app, model, "paranatinga")
    before, audits = _snapshot(app, model, ident), _audit_count(app)
    login(client, "backoffice.sapezal")
    assert client.get(f"/bo/{segment}/{ident}").status_code == 404
    assert client.get(f"/bo/{segment}/{ident}/editar").status_code == 404
    token = csrf_token(client, "/bo/")
    response = client.post(f"/bo/{segment}/{ident}/editar", data={**form, "csrf_token": token})
    assert response.status_code == 404
    assert _snapshot(app, model, ident) == before
    assert _audit_count(app) == audits


def test_company_of_other_municipality_is_404(app, client, demo):
    ident = _first(app, Company, "nortelandia")
    login(client, "backoffice.sapezal")
    assert client.get(f"/bo/empresas/{ident}").status_code == 404
    token = csrf_token(client, "/bo/")
    response = client.post(f"/bo/empresas/{ident}/editar",
                           data={"legal_name": "Tomada Ltda.", "cnpj": "11.222.333/0001-81", "csrf_token": token})
    assert response.status_code == 404
    with app.app_context():
        assert db.session.get(Company, ident).legal_name != "Tomada Ltda."


@pytest.mark.parametrize("action", ["suspend", "cassar", "extinguish", "renew"])
def test_actions_on_other_municipality_permit_are_404(app, client, demo, action):
    ident = _first(app, Permit, "paranatinga", status="ativo")
    before = _snapshot(app, Permit, ident)
    login(client, "backoffice.sapezal")
    token = csrf_token(client, "/bo/")
    response = client.post(f"/bo/permissoes/{ident}/acoes/{action}",
                           data={"reason": "Tentativa de outro município", "valid_until": "2035-01-01",
                                 "csrf_token": token})
    assert response.status_code == 404
    assert _snapshot(app, Permit, ident) == before


def test_new_permit_referencing_other_municipality_rows_is_refused(app, client, demo):
    op_id, _ = free_operator_and_vehicle(app, "sapezal")
    foreign_vehicle = _first(app, Vehicle, "paranatinga")
    foreign_ponto = _first(app, Ponto, "paranatinga")
    foreign_driver = _first(app, Operator, "paranatinga")
    login(client, "backoffice.sapezal")
    token = csrf_token(client, "/bo/permissoes/nova")
    base = {"number": "500/2026", "kind": "alvara", "holder_operator_id": str(op_id), "issued_on": "2026-01-01",
            "valid_from": "2026-01-01", "valid_until": "2027-01-01", "issqn_status": "em_dia", "csrf_token": token}
    cases = [({"vehicle_id": str(foreign_vehicle)}, 'id="f-vehicle_id-err"'),
             ({"vehicle_id": str(_first(app, Vehicle, "sapezal")), "ponto_id": str(foreign_ponto)}, None),
             ({"vehicle_id": str(_first(app, Vehicle, "sapezal")), "driver_ids": str(foreign_driver)}, None)]
    for extra, marker in cases:
        response = client.post("/bo/permissoes/nova", data={**base, **extra})
        html = response.get_data(as_text=True)
        assert response.status_code == 422, html[:300]
        assert "Registro não encontrado neste município." in html
        if marker:
            assert marker in html  # shown next to the vehicle field
    with app.app_context():
        assert Permit.query.filter_by(number="500/2026").count() == 0


def test_operator_company_of_other_municipality_is_refused(app, client, demo):
    with app.app_context():
        foreign = Company(municipality_id=muni("paranatinga").id, legal_name="Alheia Ltda.", cnpj="45723174000110")
        db.session.add(foreign)
        db.session.commit()
        foreign_id = foreign.id
    login(client, "backoffice.nortelandia")
    token = csrf_token(client, "/bo/operadores/novo")
    response = client.post("/bo/operadores/novo", data={
        **FOREIGN_EDITS["operadores"][1], "company_id": str(foreign_id), "csrf_token": token})
    assert response.status_code == 422
    assert "Registro não encontrado neste município." in response.get_data(as_text=True)
    with app.app_context():
        assert Operator.query.filter_by(name="Nome Trocado").count() == 0


def test_lists_and_search_show_only_own_municipality(app, client, demo):
    with app.app_context():
        foreign = Permit.query.filter_by(municipality_id=muni("paranatinga").id).first()
        plate, holder = foreign.vehicle.plate, foreign.holder_operator.name
    login(client, "backoffice.sapezal")
    for url in (f"/bo/permissoes/?q={plate}", f"/bo/veiculos/?q={plate}", f"/bo/operadores/?q={holder}"):
        html = client.get(url).get_data(as_text=True)
        assert '<table class="list">' not in html  # no result rows at all (the query is echoed back)
        assert "Nenhum alvará de autorização encontrado" in html or "Nada encontrado" in html
    html = client.get("/bo/auditoria").get_data(as_text=True)
    assert "Paranatinga" not in html


def _session_as(app, client, username):
    """A back-office session for a user the login form turns away (fiscais use the field app)."""
    import flask

    from server.modules.accounts.sessions import start_session
    from server.modules.accounts.models import User
    with app.test_request_context():
        start_session(User.query.filter_by(username=username).one())  # the server-side row
        db.session.commit()
        values = dict(flask.session)
    with client.session_transaction() as session:
        session.update(values)


def test_fiscal_gets_403(app, client, demo):
    ident = _first(app, Permit, "sapezal")
    _session_as(app, client, "fiscal.sapezal")
    for url in ("/bo/", "/bo/permissoes/", f"/bo/permissoes/{ident}", "/bo/operadores/novo", "/bo/auditoria",
                "/bo/unidades"):
        assert client.get(url).status_code == 403, url
    token = csrf_token(client, "/login")
    before = _snapshot(app, Permit, ident)
    response = client.post(f"/bo/permissoes/{ident}/acoes/cassar",
                           data={"reason": "Fiscal tentando cassar", "csrf_token": token})
    assert response.status_code == 403
    assert _snapshot(app, Permit, ident) == before


def test_anonymous_is_sent_to_login(app, client, demo):
    ident = _first(app, Permit, "sapezal")
    for url in ("/bo/permissoes/", f"/bo/permissoes/{ident}", "/bo/veiculos/novo", "/bo/auditoria"):
        response = client.get(url)
        assert response.status_code == 302 and "/login" in response.headers["Location"], url
    token = csrf_token(client, "/login")
    response = client.post(f"/bo/permissoes/{ident}/acoes/suspend", data={"reason": "anônimo", "csrf_token": token})
    assert response.status_code == 302 and "/login" in response.headers["Location"]


def test_platform_admin_chooses_a_municipality_and_is_then_scoped(app, client, demo):
    foreign = _first(app, Permit, "paranatinga")
    own = _first(app, Permit, "sapezal")
    login(client, "admin")
    response = client.get("/bo/permissoes/")
    assert response.status_code == 302 and "/bo/municipio" in response.headers["Location"]
    token = csrf_token(client, "/bo/municipio")
    with app.app_context():
        sapezal_id = muni("sapezal").id
    client.post("/bo/municipio", data={"municipality_id": str(sapezal_id), "csrf_token": token})
    assert client.get(f"/bo/permissoes/{own}").status_code == 200
    assert client.get(f"/bo/permissoes/{foreign}").status_code == 404
