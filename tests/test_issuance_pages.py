"""Issuance settings and permit-page offers in the back office (split from test_issuance.py):
the vistoria period the law leaves to the municipality, and the crachá re-issue after a renewal."""
from backoffice_data import muni, record_renewal_documents
from helpers import csrf_token, login

from server.core.audit import AuditLog
from server.extensions import db
from server.modules.registry.models import Permit
from server.modules.permits.operations import change_permit_status


def test_vistoria_period_is_not_in_the_law_and_is_configured_with_its_act(app, client, demo):
    from server.modules.issuance.requirements import checklist
    with app.app_context():
        m = muni("sapezal")
        m.settings = {k: v for k, v in m.settings.items() if not k.startswith("vistoria_validity")}
        db.session.commit()
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        item = {i.key: i for i in checklist(m, permit)}["sap.req.vistoria"]
        assert item.state == "unknown" and "não definido em lei — configure" in item.hint
    login(client, "backoffice.sapezal")
    token = csrf_token(client, "/bo/vistorias/periodo")
    assert client.post("/bo/vistorias/periodo", data={"csrf_token": token, "months": "0", "source": "x"}).status_code == 422
    response = client.post("/bo/vistorias/periodo", data={"csrf_token": token, "months": "12",
                                                          "source": "Decreto 10/2026"})
    assert response.status_code == 302
    with app.app_context():
        m = muni("sapezal")
        assert m.setting("vistoria_validity_months") == 12
        assert AuditLog.query.filter_by(action="configure_vistoria").one().after["vistoria_validity_source"] == "Decreto 10/2026"
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        assert {i.key: i for i in checklist(m, permit)}["sap.req.vistoria"].state == "ok"


def test_permit_page_offers_the_cracha_reissue_after_renewal(app, client, demo):
    from server.modules.credentials.operations import create_key, issue_credential
    with app.app_context():
        m = muni("sapezal")
        create_key(m)
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        issue_credential(permit)
        db.session.commit()  # as the requests that made them
        record_renewal_documents(app, permit.id)
        change_permit_status(permit, "renew", "Renovação anual")
        ident = permit.id
        db.session.commit()
    login(client, "backoffice.sapezal")
    assert "reemita-o abaixo com o motivo “Renovação”" in client.get(f"/bo/permissoes/{ident}").get_data(as_text=True)
