"""Tokens that really end: a revoked phone takes every token of its fiscal with it, a new
operator code ends the old phone's token, and expiry times carry their time zone."""
import re
from datetime import datetime, timedelta, timezone

from helpers import DEMO_PASSWORD, csrf_token, login
from server.extensions import db
from server.modules.accounts.models import ApiToken, User
from server.modules.registry.models import Municipality, Operator


def _municipal_admin(app):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        user = User(username="admin.sapezal", name="Admin municipal", role="admin", municipality_id=muni.id)
        user.set_password("senha-segura-123")
        db.session.add(user)
        db.session.commit()
    return "admin.sapezal", "senha-segura-123"


def _fiscal_login(client, **extra):
    response = client.post("/api/v1/auth/token", json={"username": "fiscal.sapezal", "password": DEMO_PASSWORD,
                                                       **extra})
    assert response.status_code == 200, response.json
    return response.json


def test_revoking_a_phone_ends_the_fiscal_s_device_less_tokens_too(client, app, demo):
    phone = _fiscal_login(client, device_name="Moto G do fiscal")
    bare = _fiscal_login(client)  # no device: must not survive the revocation
    assert bare["device_id"] is None
    for answer in (phone, bare):
        assert client.get("/api/v1/rules/sapezal", headers={"Authorization": f"Bearer {answer['token']}"}).status_code == 200
    other_fiscal = client.post("/api/v1/auth/token", json={"username": "fiscal.nortelandia",
                                                           "password": DEMO_PASSWORD}).json
    login(client, *_municipal_admin(app))
    assert client.post(f"/bo/usuarios/dispositivos/{phone['device_id']}/revogar", data={
        "csrf_token": csrf_token(client, "/bo/usuarios/"), "reason": "Celular roubado"}).status_code == 302
    for answer, status in ((phone, 403), (bare, 401)):  # the phone is told it was revoked: it wipes
        response = client.get("/api/v1/rules/sapezal", headers={"Authorization": f"Bearer {answer['token']}"})
        assert response.status_code == status
    # Someone else's token is untouched.
    assert client.get("/api/v1/rules/nortelandia",
                      headers={"Authorization": f"Bearer {other_fiscal['token']}"}).status_code == 200
    with app.app_context():
        from server.core.audit import AuditLog
        entry = AuditLog.query.filter_by(action="revoke", entity="device").one()
        assert entry.after["tokens_revoked"] == 2
    # The fiscal signs in again (e.g. on a new phone) and works.
    again = _fiscal_login(client, device_name="Celular novo")
    assert client.get("/api/v1/rules/sapezal", headers={"Authorization": f"Bearer {again['token']}"}).status_code == 200


def _new_code(client, operator_id):
    page = client.post(f"/bo/usuarios/operador/{operator_id}/codigo", data={"csrf_token": csrf_token(client, "/bo/")},
                       follow_redirects=True)  # the code is shown on the page the POST redirects to
    return re.search(r'class="access-code">([A-Z0-9-]+)<', page.get_data(as_text=True)).group(1)


def test_a_new_first_access_code_ends_the_old_phone_s_token(client, app, demo):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        operator_id = Operator.query.filter_by(municipality_id=muni.id).first().id
    login(client, "backoffice.sapezal")
    old_phone = client.post("/api/v1/operator/activate", json={"municipality": "sapezal",
                                                               "code": _new_code(client, operator_id)}).json
    old_headers = {"Authorization": f"Bearer {old_phone['token']}"}
    assert client.get("/api/v1/operator/me", headers=old_headers).status_code == 200
    code = _new_code(client, operator_id)  # the phone was lost: the back office hands a new code
    assert client.get("/api/v1/operator/me", headers=old_headers).status_code == 401
    new_phone = client.post("/api/v1/operator/activate", json={"municipality": "sapezal", "code": code}).json
    assert client.get("/api/v1/operator/me", headers={"Authorization": f"Bearer {new_phone['token']}"}).status_code == 200


def _assert_aware_and_right(text, hours):
    moment = datetime.fromisoformat(text)
    assert moment.utcoffset() == timedelta(0), text
    expected = datetime.now(timezone.utc) + timedelta(hours=hours)
    assert abs(moment - expected) < timedelta(minutes=5)


def test_token_expiry_times_carry_their_time_zone(client, app, demo):
    _assert_aware_and_right(_fiscal_login(client)["expires_at"], app.config["API_TOKEN_TTL_HOURS"])
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        operator_id = Operator.query.filter_by(municipality_id=muni.id).first().id
    login(client, "backoffice.sapezal")
    answer = client.post("/api/v1/operator/activate", json={"municipality": "sapezal",
                                                            "code": _new_code(client, operator_id)}).json
    _assert_aware_and_right(answer["expires_at"], app.config["API_TOKEN_TTL_HOURS"])
    with app.app_context():
        assert ApiToken.query.count() == 2
