"""Changes during a permit's life: vehicle substitution (Sapezal art. 15: 15 days and a new
vistoria; Paranatinga art. 32: one vehicle per permit), transfer only where the law allows it
(Paranatinga art. 30, I; refused in Sapezal art. 3º and Nortelândia art. 6º § 1º), desistência
(Paranatinga art. 27) freeing the vacancy for the next suplente, loss for absence (§ 2º)."""
from datetime import date, timedelta

from helpers import csrf_token, login
from selection_data import create_edital, post_population, register
from server.core.audit import AuditLog
from server.core.clock import local_today
from server.extensions import db
from server.modules.registry.life_models import VehicleSubstitution
from server.modules.registry.models import Municipality, Operator, Permit, PermitStatusChange, Vehicle
from server.modules.selection.models import Candidate


def _permit(app, slug):
    with app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        permit = (Permit.query.filter_by(municipality_id=muni.id, status="ativo")
                  .filter(Permit.holder_operator_id.isnot(None)).order_by(Permit.id).first())
        return permit.id, muni.id


def _vehicle(app, mid, plate):
    with app.app_context():
        v = Vehicle(municipality_id=mid, plate=plate, renavam="00000000191", chassis="9BWZZZ377VT004251",
                    make="Honda", model="CG 160", year_manufacture=local_today().year - 1, engine_cc=160)
        db.session.add(v)
        db.session.commit()
        return v.id


def _post(client, permit_id, path, data):
    data = {**data, "csrf_token": csrf_token(client, f"/bo/permissoes/{permit_id}")}
    return client.post(f"/bo/permissoes/{permit_id}/{path}", data=data)


def test_sapezal_substitution_within_15_days_leaves_a_vistoria_pending(app, client, demo):
    permit_id, mid = _permit(app, "sapezal")
    new_id = _vehicle(app, mid, "QBX1A23")
    login(client, "backoffice.sapezal")
    with app.app_context():
        today = local_today()
    late = _post(client, permit_id, "substituir-veiculo", {
        "new_vehicle_id": new_id, "replaced_on": (today - timedelta(days=16)).isoformat(), "reason": "Requerimento 12/2026"})
    assert late.status_code == 422
    page = late.get_data(as_text=True)
    assert "em até 15 dias da troca (Lei 125/1999, art. 15)" in page
    with app.app_context():
        assert db.session.get(Permit, permit_id).vehicle_id != new_id
    ok = _post(client, permit_id, "substituir-veiculo", {
        "new_vehicle_id": new_id, "replaced_on": (today - timedelta(days=15)).isoformat(), "reason": "Requerimento 12/2026"})
    assert ok.status_code == 302
    with app.app_context():
        permit = db.session.get(Permit, permit_id)
        assert permit.vehicle_id == new_id
        sub = VehicleSubstitution.query.filter_by(permit_id=permit_id).one()
        assert sub.vistoria_required and sub.vistoria_done_on is None and sub.basis == "Lei 125/1999, art. 15"
        assert AuditLog.query.filter_by(action="substitute_vehicle", entity_id=str(permit_id)).count() == 1
    page = client.get(f"/bo/permissoes/{permit_id}").get_data(as_text=True)
    assert "Vistoria pendente" in page and "QBX1A23" in page and "Substituição de veículo" in page
    # An approved vistoria of the new vehicle, recorded on the vistoria form, clears the pending one.
    html = client.get(f"/bo/permissoes/{permit_id}").get_data(as_text=True)
    form_url = f"/bo/veiculos/{new_id}/vistorias/nova?permissao={permit_id}"
    assert f"/bo/veiculos/{new_id}/vistorias/nova" in html
    done = client.post(form_url, data={"csrf_token": csrf_token(client, form_url), "kind": "inicial",
                                       "inspected_on": today.isoformat(), "inspector_name": "Fiscal Teste",
                                       "result": "aprovada"})
    assert done.status_code == 302
    page = client.get(f"/bo/permissoes/{permit_id}").get_data(as_text=True)
    assert "Vistoria pendente" not in page and f"vistoria aprovada em {today:%d/%m/%Y}" in page


def test_one_vehicle_per_permit(app, client, demo):
    permit_id, mid = _permit(app, "paranatinga")
    with app.app_context():
        other = (Permit.query.filter(Permit.municipality_id == mid, Permit.status == "ativo", Permit.id != permit_id)
                 .first())
        busy_vehicle = other.vehicle_id
    login(client, "backoffice.paranatinga")
    response = _post(client, permit_id, "substituir-veiculo", {
        "new_vehicle_id": busy_vehicle, "replaced_on": local_today().isoformat(), "reason": "Troca de moto"})
    assert response.status_code == 422
    assert "um único veículo por permissão" in response.get_data(as_text=True)


def test_transfer_refused_where_the_law_forbids_it(app, client, demo):
    for slug, article in (("sapezal", "Lei 125/1999, art. 3º"), ("nortelandia", "Lei 030/1998, art. 6º, § 1º")):
        with app.app_context():
            muni = Municipality.query.filter_by(slug=slug).one()
            permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
            before = (permit.id, permit.holder_operator_id, permit.holder_company_id)
            someone = Operator.query.filter_by(municipality_id=muni.id).order_by(Operator.id.desc()).first()
        client.get("/logout")
        login(client, f"backoffice.{slug}")
        page = client.get(f"/bo/permissoes/{before[0]}").get_data(as_text=True)
        assert f"Intransferível: {article}" in page
        response = _post(client, before[0], "transferir", {"heir_id": someone.id, "cause": "falecimento",
                                                            "reason": "Certidão de óbito"})
        assert response.status_code == 409 and article in response.get_data(as_text=True)
        with app.app_context():
            permit = db.session.get(Permit, before[0])
            assert (permit.id, permit.holder_operator_id, permit.holder_company_id) == before


def _heir(app, mid):
    with app.app_context():
        heir = Operator(municipality_id=mid, name="Joana Herdeira", cpf="52998224725", cnh_number="02650306461",
                        cnh_category="A", cnh_first_issue_date=date(2015, 1, 1),
                        cnh_expiry=local_today() + timedelta(days=900), birth_date=date(1990, 5, 5),
                        address="Rua A, 1", residence_since=date(2010, 1, 1))
        db.session.add(heir)
        db.session.commit()
        return heir.id


def test_transfer_to_a_paranatinga_heir(app, client, demo):
    permit_id, mid = _permit(app, "paranatinga")
    heir_id = _heir(app, mid)
    login(client, "backoffice.paranatinga")
    no_cause = _post(client, permit_id, "transferir", {"heir_id": heir_id, "reason": "Certidão de óbito nº 123"})
    assert no_cause.status_code == 422
    response = _post(client, permit_id, "transferir", {"heir_id": heir_id, "cause": "falecimento",
                                                        "reason": "Certidão de óbito nº 123, filha"})
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    with app.app_context():
        permit = db.session.get(Permit, permit_id)
        assert permit.holder_operator_id == heir_id
        change = PermitStatusChange.query.filter_by(permit_id=permit_id, action="transfer").one()
        assert "Lei 311/2007, art. 30, I" in change.reason
    page = client.get(f"/bo/permissoes/{permit_id}").get_data(as_text=True)
    assert "Transferência a herdeiro" in page and "Joana Herdeira" in page


def test_transfer_refused_to_an_heir_who_holds_another_permit(app, client, demo):
    permit_id, mid = _permit(app, "paranatinga")
    with app.app_context():
        other = (Permit.query.filter(Permit.municipality_id == mid, Permit.status == "ativo", Permit.id != permit_id,
                                     Permit.holder_operator_id.isnot(None)).first())
        holder = other.holder_operator_id
    login(client, "backoffice.paranatinga")
    response = _post(client, permit_id, "transferir", {"heir_id": holder, "cause": "invalidez",
                                                        "reason": "Laudo de invalidez permanente"})
    assert response.status_code == 422 and "art. 7º, VII" in response.get_data(as_text=True)


def test_desistencia_frees_the_vacancy_for_the_next_suplente(app, client, demo):
    permit_id, _ = _permit(app, "paranatinga")
    login(client, "backoffice.paranatinga")
    post_population(client, 30_000, "2025-07-01")
    edital_id = create_edital(client, 1)
    register(client, edital_id, 31, "Lia Campos", "2001-01-01")
    register(client, edital_id, 32, "Mauro Lins", "2003-01-01")
    client.post(f"/bo/selecao/editais/{edital_id}/publicar",
                data={"csrf_token": csrf_token(client, f"/bo/selecao/editais/{edital_id}")})
    future = _post(client, permit_id, "desistencia", {"term_number": "7/2026", "reason": "Pedido do permissionário",
                                                      "signed_on": (local_today() + timedelta(days=3)).isoformat()})
    assert future.status_code == 422
    response = _post(client, permit_id, "desistencia", {"term_number": "7/2026", "reason": "Pedido do permissionário",
                                                        "signed_on": local_today().isoformat()})
    assert response.status_code == 302
    with app.app_context():
        permit = db.session.get(Permit, permit_id)
        assert permit.status == "extinto"
        assert "Termo de Desistência e Devolução da Permissão nº 7/2026" in permit.history[-1].reason
        mauro = Candidate.query.filter_by(name="Mauro Lins").one()
        assert mauro.status == "convocado" and "desistência" in mauro.status_reason


def test_desistencia_is_paranatinga_only(app, client, demo):
    permit_id, _ = _permit(app, "sapezal")
    login(client, "backoffice.sapezal")
    assert "Registrar desistência" not in client.get(f"/bo/permissoes/{permit_id}").get_data(as_text=True)
    response = _post(client, permit_id, "desistencia", {"term_number": "1", "signed_on": local_today().isoformat(),
                                                        "reason": "Pedido do titular"})
    assert response.status_code == 409
    with app.app_context():
        assert db.session.get(Permit, permit_id).status == "ativo"


def test_absence_over_30_days_loses_the_permit(app, client, demo):
    permit_id, _ = _permit(app, "paranatinga")
    login(client, "backoffice.paranatinga")
    with app.app_context():
        today = local_today()
    early = _post(client, permit_id, "afastamento", {"absent_since": (today - timedelta(days=30)).isoformat(),
                                                     "reason": "Constatação da fiscalização"})
    assert early.status_code == 422 and "mais de 30 dias" in early.get_data(as_text=True)
    done = _post(client, permit_id, "afastamento", {"absent_since": (today - timedelta(days=31)).isoformat(),
                                                    "reason": "Constatação da fiscalização"})
    assert done.status_code == 302
    with app.app_context():
        permit = db.session.get(Permit, permit_id)
        assert permit.status == "extinto" and "art. 27, § 2º" in permit.history[-1].reason


def test_other_municipality_permit_is_not_found(app, client, demo):
    permit_id, _ = _permit(app, "paranatinga")
    login(client, "backoffice.sapezal")
    token = csrf_token(client, "/bo/")
    for path in ("substituir-veiculo", "transferir", "desistencia", "afastamento"):
        assert client.post(f"/bo/permissoes/{permit_id}/{path}", data={"csrf_token": token}).status_code == 404
    assert client.post(f"/bo/permissoes/{permit_id}/transferir", data={}).status_code == 400  # no CSRF token
