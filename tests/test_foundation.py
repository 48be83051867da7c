"""App factory, health, error envelope, security headers, CSRF and login."""
from helpers import api_token, csrf_token, login


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json == {"status": "ok"}


def test_api_404_uses_envelope(client):
    response = client.get("/api/v1/does-not-exist")
    assert response.status_code == 404
    assert response.json["error"]["code"] == "not_found"
    assert response.json["error"]["message"] == "Não encontrado."


def test_security_headers(client):
    response = client.get("/login")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response.headers["X-Frame-Options"] == "DENY"


def test_login_without_csrf_is_rejected(client, demo):
    response = client.post("/login", data={"username": "admin", "password": "demo-motofiscal"})
    assert response.status_code == 400
    # And nobody got logged in.
    assert client.get("/bo/").status_code == 302


def test_login_wrong_password(client, demo):
    response = client.post("/login", data={"username": "admin", "password": "nope",
                                           "csrf_token": csrf_token(client)})
    assert response.status_code == 401
    assert "Usuário ou senha incorretos." in response.get_data(as_text=True)


def test_login_and_logout(client, demo):
    login(client, "backoffice.sapezal")
    page = client.get("/bo/")
    assert page.status_code == 200
    assert "Sapezal" in page.get_data(as_text=True)
    token = csrf_token(client, "/bo/")
    assert client.post("/logout", data={"csrf_token": token}).status_code == 302
    assert client.get("/bo/").status_code == 302


def test_logout_without_csrf_is_rejected(client, demo):
    login(client, "backoffice.sapezal")
    assert client.post("/logout").status_code == 400
    assert client.get("/bo/").status_code == 200


def test_login_is_rate_limited(client, demo):
    statuses = [client.post("/login", data={"username": "admin", "password": "x",
                                            "csrf_token": csrf_token(client)}).status_code
                for _ in range(12)]
    assert statuses[0] == 401
    assert statuses[-1] == 429


def test_api_token_and_unauthenticated(client, demo):
    headers = api_token(client, "fiscal.sapezal")
    assert client.delete("/api/v1/auth/token", headers=headers).json == {"revoked": True}
    # A revoked token no longer works.
    response = client.delete("/api/v1/auth/token", headers=headers)
    assert response.status_code == 401
    assert response.json["error"]["code"] == "unauthorized"


def test_api_login_validation_names_field(client, demo):
    response = client.post("/api/v1/auth/token", json={"username": "admin"})
    assert response.status_code == 422
    assert response.json["error"]["fields"] == {"password": ["Campo obrigatório."]}
    response = client.post("/api/v1/auth/token", data="not json", content_type="application/json")
    assert response.status_code == 400


def test_operator_cannot_use_back_office(client, demo, app):
    from server.extensions import db
    from server.modules.accounts.models import User
    from server.modules.registry.models import Operator
    with app.app_context():
        op = Operator.query.first()
        user = User(username="op1", name=op.name, role="operator", operator_id=op.id,
                    municipality_id=op.municipality_id)
        user.set_password("segredo-123")
        db.session.add(user)
        db.session.commit()
    response = client.post("/login", data={"username": "op1", "password": "segredo-123",
                                           "csrf_token": csrf_token(client)})
    assert response.status_code == 401


def test_platform_admin_is_sent_to_choose_a_municipality_first(client, demo):
    login(client, "admin")
    response = client.get("/bo/usuarios/")
    assert response.status_code == 302 and response.location.endswith("/bo/municipio")
    assert client.get("/bo/").location.endswith("/bo/municipio")


def test_the_calendar_day_is_the_municipality_s_not_utc(app):
    from datetime import timedelta

    from server.core.clock import local_now
    with app.app_context():
        # Mato Grosso: UTC−4 all year (no daylight saving since 2019).
        assert local_now().utcoffset() == timedelta(hours=-4)
