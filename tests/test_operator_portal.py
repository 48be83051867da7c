"""Operator API: first access with a single-use code, the operator's crachá without personal data."""
from datetime import timedelta

import pytest

from server.core.auth import utcnow
from server.core.tenancy import crossing_municipalities
from server.extensions import db
from server.modules.accounts.models import FirstAccessCode, User
from server.modules.operator_portal.operations import create_operator_access, permit_for
from server.modules.registry.models import Municipality, Permit


@pytest.fixture(autouse=True)
def _context(app):
    # The app fixture's context does not reach the test body (as in test_foundation.py).
    with app.app_context():
        yield


def _operator_with_permit(slug, status="ativo"):
    muni = Municipality.query.filter_by(slug=slug).one()
    permit = Permit.query.filter_by(municipality_id=muni.id, status=status).order_by(Permit.id).first()
    return permit.main_driver, permit


def _activate(client, slug, code):
    return client.post("/api/v1/operator/activate", json={"municipality": slug, "code": code})


def test_activate_then_me_shows_the_badge_without_personal_data(client, demo):
    operator, permit = _operator_with_permit("sapezal")
    code = create_operator_access(operator)
    db.session.commit()

    response = _activate(client, "sapezal", code.lower().replace("-", " "))  # typed sloppily
    assert response.status_code == 200, response.json
    token = response.json["token"]
    me = client.get("/api/v1/operator/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 200, me.json
    body = me.json
    assert body["name"] == operator.name
    assert body["permit_number"] == permit.number
    assert body["plate"] == permit.vehicle.plate
    assert body["status"] == "ativo" and body["status_label"] == "Ativo"
    assert body["valid_until"] == permit.valid_until.isoformat()
    # The IBGE code: the phone keeps this municipality's device keys to verify a copy offline.
    assert body["municipality"] == {"slug": "sapezal", "name": "Sapezal", "uf": "MT", "ibge": "5107875"}
    assert body["autos"] == []
    text = me.get_data(as_text=True)
    for secret in (operator.cpf, operator.cnh_number, operator.address, operator.birth_date.isoformat()):
        assert secret not in text
    assert not {"cpf", "cnh_number", "address", "birth_date", "blood_type", "phone"} & set(body)


def test_code_is_single_use_and_stored_hashed(client, demo):
    operator, _ = _operator_with_permit("paranatinga")
    code = create_operator_access(operator)
    db.session.commit()
    stored = FirstAccessCode.query.one()
    assert code.replace("-", "") not in stored.code_hash
    assert _activate(client, "paranatinga", code).status_code == 200
    again = _activate(client, "paranatinga", code)
    assert again.status_code == 422
    assert again.json["error"]["code"] == "invalid_code"
    assert "code" in again.json["error"]["fields"]


def test_code_of_another_municipality_or_expired_is_refused(client, demo):
    operator, _ = _operator_with_permit("sapezal")
    code = create_operator_access(operator)
    db.session.commit()
    assert _activate(client, "nortelandia", code).status_code == 422

    # The request ran in this test's app context, whose municipality scope it left on Nortelândia:
    # as the application's role (row-level security) the test would see none of Sapezal's rows.
    with crossing_municipalities("test: expire the code it created"):
        FirstAccessCode.query.one().expires_at = utcnow() - timedelta(minutes=1)
        db.session.commit()
    assert _activate(client, "sapezal", code).status_code == 422


def test_new_code_replaces_the_unused_one(client, demo):
    operator, _ = _operator_with_permit("sapezal")
    first = create_operator_access(operator)
    second = create_operator_access(operator)
    db.session.commit()
    assert User.query.filter_by(operator_id=operator.id).count() == 1
    assert _activate(client, "sapezal", first).status_code == 422
    assert _activate(client, "sapezal", second).status_code == 200


def test_me_requires_an_operator_token(client, demo):
    assert client.get("/api/v1/operator/me").status_code == 401
    staff = client.post("/api/v1/auth/token", json={"username": "fiscal.sapezal",
                                                    "password": "demo-motofiscal"})
    headers = {"Authorization": f"Bearer {staff.json['token']}"}
    response = client.get("/api/v1/operator/me", headers=headers)
    assert response.status_code == 403
    assert response.json["error"]["code"] == "forbidden"


def test_bad_request_uses_the_envelope(client, demo):
    response = client.post("/api/v1/operator/activate", json={"municipality": "sapezal"})
    assert response.status_code == 422
    assert response.json["error"]["fields"]["code"]


def test_company_permit_shows_the_driver_and_company(client, demo):
    # Nortelândia: the company holds the permit, the operator drives it.
    operator, permit = _operator_with_permit("nortelandia")
    assert permit.holder_company is not None and permit_for(operator) == permit
    code = create_operator_access(operator)
    db.session.commit()
    token = _activate(client, "nortelandia", code).json["token"]
    body = client.get("/api/v1/operator/me", headers={"Authorization": f"Bearer {token}"}).json
    assert body["name"] == operator.name
    assert body["permit_number"] == permit.number
    assert body["holder_company"] == permit.holder_company.trade_name


@pytest.mark.usefixtures("storage_backend")
def test_photo_is_served_only_to_its_operator(client, demo, app):
    from server.core.storage import storage
    operator, _ = _operator_with_permit("sapezal")
    storage("photos").write("op.jpg", b"\xff\xd8\xff fake jpeg")
    operator.photo_path = "op.jpg"
    code = create_operator_access(operator)
    db.session.commit()
    assert client.get("/api/v1/operator/photo").status_code == 401
    token = _activate(client, "sapezal", code).json["token"]
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/operator/me", headers=headers).json["photo_url"] == "/api/v1/operator/photo"
    photo = client.get("/api/v1/operator/photo", headers=headers)
    assert photo.status_code == 200 and photo.data.startswith(b"\xff\xd8\xff")
    assert "no-store" in photo.headers["Cache-Control"]


def test_municipalities_list_is_public(client, demo):
    names = [m["slug"] for m in client.get("/api/v1/operator/municipalities").json]
    assert sorted(names) == ["nortelandia", "paranatinga", "sapezal"]


def test_me_carries_the_active_credential_payload(client, demo):
    from server.modules.credentials import operations as credentials

    operator, permit = _operator_with_permit("sapezal")
    code = create_operator_access(operator)
    db.session.commit()
    token = _activate(client, "sapezal", code).json["token"]
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/operator/me", headers=headers).json["credential_payload"] is None

    muni = Municipality.query.filter_by(slug="sapezal").one()
    credentials.create_key(muni)
    issued = credentials.issue_credential(permit)
    body = client.get("/api/v1/operator/me", headers=headers).json
    assert body["credential_payload"] == issued.payload
    assert body["credential_serial"] == issued.serial

    credentials.revoke_credential(issued, "crachá extraviado")
    assert client.get("/api/v1/operator/me", headers=headers).json["credential_payload"] is None


def test_cli_prints_a_code_that_activates(app, client, demo):
    operator, permit = _operator_with_permit("sapezal")
    result = app.test_cli_runner().invoke(
        args=["operator", "code", "--municipality", "sapezal", "--permit", permit.number])
    assert result.exit_code == 0, result.output
    assert operator.name in result.output
    code = result.output.split("código ")[1].split(" ")[0]
    assert _activate(client, "sapezal", code).status_code == 200


def test_cli_refuses_an_unknown_permit(app, demo):
    result = app.test_cli_runner().invoke(
        args=["operator", "code", "--municipality", "sapezal", "--permit", "999/1999"])
    assert result.exit_code != 0
    assert "999/1999" in result.output
