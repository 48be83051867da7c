"""Users and devices administration, and operator first-access codes from the back office."""
import re

from helpers import api_token, csrf_token, login
from server.extensions import db
from server.modules.accounts.models import ApiToken, Device, User
from server.modules.registry.models import Municipality, Operator


def _user(app, username):
    with app.app_context():
        return User.query.filter_by(username=username).one()


def _municipal_admin(app, slug="sapezal"):
    with app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        user = User(username=f"admin.{slug}", name="Admin municipal", role="admin", municipality_id=muni.id)
        user.set_password("senha-segura-123")
        db.session.add(user)
        db.session.commit()
    return f"admin.{slug}", "senha-segura-123"


def test_municipal_admin_creates_a_fiscal_with_validation(client, app, demo):
    login(client, *_municipal_admin(app))
    token = csrf_token(client, "/bo/usuarios/")
    bad = client.post("/bo/usuarios/", data={"csrf_token": token, "username": "X", "name": "ab",
                                             "role": "root", "password": "curta"})
    assert bad.status_code == 422
    html = bad.get_data(as_text=True)
    for message in ("Use 3 a 60 letras", "Informe o nome completo.", "Perfil inválido.",
                    "A senha deve ter ao menos 10 caracteres."):
        assert message in html
    good = client.post("/bo/usuarios/", data={"csrf_token": token, "username": "fiscal.novo",
                                              "name": "Fiscal Novo", "role": "fiscal",
                                              "password": "uma-senha-longa"})
    assert good.status_code == 302
    with app.app_context():
        created = User.query.filter_by(username="fiscal.novo").one()
        assert created.municipality.slug == "sapezal" and created.role == "fiscal"
        assert created.password_hash != "uma-senha-longa"
    # The new fiscal can get an API token with that password.
    api_token(client, "fiscal.novo", "uma-senha-longa")


def test_backoffice_user_cannot_manage_users(client, demo):
    login(client, "backoffice.sapezal")
    assert client.get("/bo/usuarios/").status_code == 403


def test_users_list_is_scoped_and_tampering_gets_404(client, app, demo):
    login(client, *_municipal_admin(app))
    html = client.get("/bo/usuarios/").get_data(as_text=True)
    assert "fiscal.sapezal" in html and "fiscal.paranatinga" not in html
    other = _user(app, "fiscal.paranatinga")
    token = csrf_token(client, "/bo/usuarios/")
    response = client.post(f"/bo/usuarios/{other.id}/ativo", data={"csrf_token": token, "reason": "tentativa"})
    assert response.status_code == 404
    assert _user(app, "fiscal.paranatinga").active is True


def test_deactivation_ends_sessions_and_tokens(client, app, demo):
    headers = api_token(client, "fiscal.sapezal")
    login(client, *_municipal_admin(app))
    fiscal = _user(app, "fiscal.sapezal")
    token = csrf_token(client, "/bo/usuarios/")
    assert client.post(f"/bo/usuarios/{fiscal.id}/ativo", data={"csrf_token": token, "reason": "x"}).status_code == 422
    assert client.post(f"/bo/usuarios/{fiscal.id}/ativo",
                       data={"csrf_token": token, "reason": "Afastado da função"}).status_code == 302
    assert _user(app, "fiscal.sapezal").active is False
    assert client.get("/api/v1/rules/sapezal", headers=headers).status_code == 401
    with app.app_context():
        assert ApiToken.query.filter_by(user_id=fiscal.id, revoked_at=None).count() == 0


def test_revoking_a_device_kills_its_tokens(client, app, demo):
    with app.app_context():
        fiscal = User.query.filter_by(username="fiscal.sapezal").one()
        device = Device(municipality_id=fiscal.municipality_id, user_id=fiscal.id, name="Moto G do fiscal")
        db.session.add(device)
        db.session.flush()
        from server.modules.accounts.identity import issue_api_token
        text, _ = issue_api_token(fiscal, device=device)
        db.session.commit()
        device_id = device.id
    headers = {"Authorization": f"Bearer {text}"}
    assert client.get("/api/v1/rules/sapezal", headers=headers).status_code == 200
    login(client, *_municipal_admin(app))
    token = csrf_token(client, "/bo/usuarios/")
    assert client.post(f"/bo/usuarios/dispositivos/{device_id}/revogar",
                       data={"csrf_token": token, "reason": "Celular roubado"}).status_code == 302
    # Refused, and told why (core.auth.api_auth): the phone wipes its data.
    response = client.get("/api/v1/rules/sapezal", headers=headers)
    assert response.status_code == 403 and response.json["error"]["code"] == "device_revoked"


def test_backoffice_hands_an_operator_a_first_access_code_that_activates(client, app, demo):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        operator_id = Operator.query.filter_by(municipality_id=muni.id).first().id
    login(client, "backoffice.sapezal")
    token = csrf_token(client, "/bo/")
    page = client.post(f"/bo/usuarios/operador/{operator_id}/codigo", data={"csrf_token": token},
                       follow_redirects=True)
    assert page.status_code == 200
    code = re.search(r'class="access-code">([A-Z0-9-]+)<', page.get_data(as_text=True)).group(1)
    activated = client.post("/api/v1/operator/activate", json={"municipality": "sapezal", "code": code})
    assert activated.status_code == 200 and activated.json["token"]
    # Single use.
    again = client.post("/api/v1/operator/activate", json={"municipality": "sapezal", "code": code})
    assert again.status_code == 422


def test_operator_code_for_another_municipality_is_404(client, app, demo):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        operator_id = Operator.query.filter_by(municipality_id=muni.id).first().id
    login(client, "backoffice.sapezal")
    token = csrf_token(client, "/bo/")
    assert client.post(f"/bo/usuarios/operador/{operator_id}/codigo", data={"csrf_token": token}).status_code == 404


def test_a_phone_enrolls_at_login_and_revoking_it_ends_its_token(client, app, demo):
    response = client.post("/api/v1/auth/token", json={"username": "fiscal.sapezal", "password": "demo-motofiscal",
                                                       "device_name": "Galaxy A15 do fiscal"})
    assert response.status_code == 200 and response.json["device_id"]
    headers = {"Authorization": f"Bearer {response.json['token']}"}
    login(client, *_municipal_admin(app))
    assert "Galaxy A15 do fiscal" in client.get("/bo/usuarios/").get_data(as_text=True)
    token = csrf_token(client, "/bo/usuarios/")
    client.post(f"/bo/usuarios/dispositivos/{response.json['device_id']}/revogar",
                data={"csrf_token": token, "reason": "Aparelho perdido"})
    response = client.get("/api/v1/rules/sapezal", headers=headers)
    assert response.status_code == 403 and response.json["error"]["code"] == "device_revoked"
