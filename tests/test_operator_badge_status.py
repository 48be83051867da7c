"""The operator's phone gets a scannable QR only while the permit is ativo."""
from server.extensions import db
from server.modules.credentials.models import Credential
from server.modules.operator_portal.operations import create_operator_access
from server.modules.demo.dataset import load_demo
from server.modules.registry.models import Municipality, Permit


def _activate(client, app, status):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status=status).order_by(Permit.id).first()
        has_credential = Credential.query.filter_by(permit_id=permit.id).count() > 0
        code = create_operator_access(permit.main_driver)
        db.session.commit()
    token = client.post("/api/v1/operator/activate", json={"municipality": "sapezal", "code": code}).json["token"]
    me = client.get("/api/v1/operator/me", headers={"Authorization": f"Bearer {token}"}).json
    return me, has_credential


def test_qr_payload_only_while_permit_is_ativo(client, app):
    with app.app_context():
        load_demo()  # the full demo: crachás were issued before suspensions and cassações
        db.session.commit()  # as `flask demo load`'s command does
    active, _ = _activate(client, app, "ativo")
    assert active["status"] == "ativo" and active["credential_payload"].startswith("HTTP://LOCALHOST:5000/V/")
    suspended, had_credential = _activate(client, app, "suspenso")
    assert had_credential, "the suspended permit's crachá was issued while it was ativo"
    assert suspended["status"] == "suspenso" and suspended["credential_payload"] is None
