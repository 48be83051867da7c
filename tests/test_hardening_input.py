"""Client input that used to reach a 500 or an open redirect (issue 8): deep JSON, lone UTF-16
surrogates, 64-bit integers, CRLF and tabs in `next`, NaN and huge fiscal unit values."""
import json

import pytest

from helpers import DEMO_PASSWORD, api_token, csrf_token, login

DEEP_LIST = "[" * 1000 + "]" * 1000
DEEP_FIELD = '{"username": ' + "[" * 1000 + "]" * 1000 + ', "password": "x"}'


@pytest.mark.parametrize("path", ["/api/v1/auth/token", "/api/v1/operator/activate"])
@pytest.mark.parametrize("body", [DEEP_LIST, DEEP_FIELD, '{"a":' * 50 + "1" + "}" * 50])
def test_deeply_nested_json_is_a_400_on_anonymous_endpoints(client, demo, path, body):
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 400, response.get_data(as_text=True)[:200]
    assert response.json["error"]["code"] == "invalid_json"
    assert "aninhado demais" in response.json["error"]["message"]


def test_deeply_nested_json_is_a_400_for_a_logged_in_caller(client, demo):
    headers = api_token(client, "fiscal.sapezal")
    response = client.post("/api/v1/rules/evaluate", data=DEEP_LIST,
                           content_type="application/json", headers=headers)
    assert response.status_code == 400
    assert response.json["error"]["code"] == "invalid_json"


@pytest.mark.parametrize("path,body,field", [
    ("/api/v1/auth/token", {"username": "fiscal.sapezal\ud800", "password": "x"}, "username"),
    ("/api/v1/auth/token", {"username": "fiscal.sapezal", "password": "\ud800"}, "password"),
    ("/api/v1/auth/token", {"username": "fiscal.sapezal", "password": DEMO_PASSWORD,
                            "device_name": "Moto G \udfff"}, "device_name"),
    ("/api/v1/operator/activate", {"municipality": "sapezal\ud800", "code": "ABCD-EFGH"}, "municipality"),
    ("/api/v1/operator/activate", {"municipality": "sapezal", "\udc80code": "ABCD-EFGH"}, "\udc80code"),
])
def test_lone_surrogates_are_a_400_naming_the_field(client, demo, path, body, field):
    # json.dumps escapes the surrogate as \ud800: valid JSON, not valid Unicode text.
    response = client.post(path, data=json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.get_data(as_text=True)[:200]
    assert response.json["error"]["code"] == "invalid_character"
    assert list(response.json["error"]["fields"]) == [field]


def test_surrogates_in_a_form_or_query_never_reach_a_500(client, demo):
    # Werkzeug decodes invalid UTF-8 in forms and URLs with replacement characters.
    token = csrf_token(client)
    response = client.post("/login", data=b"username=%ED%A0%80&password=%ED%A0%80&csrf_token=" + token.encode(),
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 401
    assert client.get("/login?next=%ED%A0%80").status_code == 200


@pytest.mark.parametrize("cursor", ["9223372036854775808", "2147483648", "-1", "1e3", "abc",
                                    "99999999999999999999999"])
def test_trust_cursor_out_of_range_is_a_422(client, demo, cursor):
    headers = api_token(client, "fiscal.sapezal")
    response = client.get(f"/api/v1/trust/sapezal?cursor={cursor}", headers=headers)
    assert response.status_code == 422, response.get_data(as_text=True)[:200]
    assert list(response.json["error"]["fields"]) == ["cursor"]
    assert client.get("/api/v1/trust/sapezal?cursor=2147483647", headers=headers).status_code == 200


def _login_with_next(client, next_value):
    return client.post(f"/login?next={next_value}", data={
        "username": "backoffice.sapezal", "password": DEMO_PASSWORD, "csrf_token": csrf_token(client)})


@pytest.mark.parametrize("next_value", ["/%0d%0aX-Injected:%201", "/%0aSet-Cookie:%20a=b",
                                        "/%09/evil.example", "/%5Cevil.example", "//evil.example",
                                        "https://evil.example/", "/%20/evil.example", "javascript:alert(1)"])
def test_login_next_never_injects_a_header_or_leaves_the_site(client, demo, next_value):
    response = _login_with_next(client, next_value)
    assert response.status_code == 302
    assert response.location == "/bo/"
    assert "X-Injected" not in response.headers and "Set-Cookie: a" not in str(response.headers)
    # The login was committed and works.
    assert client.get("/bo/").status_code == 200


def test_login_next_keeps_a_same_site_path(client, demo):
    response = _login_with_next(client, "/bo/permissoes%3Fq%3D001")
    assert response.location == "/bo/permissoes?q=001"


def test_credential_form_back_link_ignores_foreign_and_tab_referrers(client, app, demo):
    login(client, "backoffice.sapezal")
    token = csrf_token(client, "/bo/")
    with app.app_context():
        from server.modules.registry.models import Municipality, Permit
        muni = Municipality.query.filter_by(slug="sapezal").one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        permit_id = permit.id
    for referrer in ("https://evil.example/x", "http://localhost/\t/evil.example"):
        response = client.post(f"/bo/permits/{permit_id}/credential", data={"csrf_token": token},
                               headers={"Referer": referrer})
        assert response.status_code == 302
        assert response.location == "/bo/", response.location
    response = client.post(f"/bo/permits/{permit_id}/credential", data={"csrf_token": token},
                           headers={"Referer": f"http://localhost/bo/permissoes/{permit_id}"})
    assert response.location == f"/bo/permissoes/{permit_id}"


@pytest.mark.parametrize("value", ["NaN", "nan", "Infinity", "-Infinity", "inf", "1e309",
                                   "18000000000000000000", "1.8e19", "1000000,01", "0", "-1"])
def test_fiscal_unit_value_refuses_nan_infinity_and_out_of_range(client, app, demo, value):
    login(client, "backoffice.sapezal")
    response = client.post("/bo/unidades", data={
        "unit": "UFM", "valid_from": "2026-01-01", "value_brl": value, "source": "Decreto nº 1/2026",
        "csrf_token": csrf_token(client, "/bo/unidades")})
    assert response.status_code == 422, response.get_data(as_text=True)[:300]
    page = response.get_data(as_text=True)
    assert "Valor em reais" in page
    assert ("Informe um número" in page or "O valor deve" in page)
    with app.app_context():
        from server.modules.registry.models import UnitValue
        assert UnitValue.query.filter_by(unit="UFM", source="Decreto nº 1/2026").count() == 0


def test_fiscal_unit_value_accepts_a_real_value(client, app, demo):
    login(client, "backoffice.sapezal")
    response = client.post("/bo/unidades", data={
        "unit": "UFM", "valid_from": "2026-01-01", "value_brl": "1.234,5678", "source": "Decreto nº 1/2026",
        "csrf_token": csrf_token(client, "/bo/unidades")})
    assert response.status_code == 302


@pytest.mark.parametrize("raw", ['{"username": NaN, "password": "x"}', '{"username": "a", "password": Infinity}',
                                 '{"username": "a", "password": "x", "device_name": -1e999}'])
def test_nan_and_infinity_are_not_json_numbers(client, demo, raw):
    response = client.post("/api/v1/auth/token", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json["error"]["code"] == "invalid_number"
    assert len(response.json["error"]["fields"]) == 1


@pytest.mark.parametrize("value", ["9223372036854775808", "99999999999999999999", "-1", "2147483648"])
def test_platform_admin_choosing_a_huge_municipality_id_gets_404(client, demo, value):
    login(client, "admin")
    response = client.post("/bo/municipio", data={"municipality_id": value, "csrf_token": csrf_token(client, "/bo/municipio")})
    assert response.status_code == 404
