"""Issue 7 (legal review) through the product's doors: the configuration page and `flask rules
configure` refuse a decree value above the law's cap or in another unit, naming the article;
`flask rules evaluate` and POST /api/v1/rules/evaluate refuse NaN, Infinity, 1e400 and negative
numbers naming the fact, its type and range; the "125" reading is shown with its default."""
import json

import pytest

from helpers import api_token, csrf_token, login
from server.modules.registry.models import Municipality

LUVAS = "nortelandia.multa.luvas"


def _muni(slug):
    return Municipality.query.filter_by(slug=slug).one()


def _post_amount(client, token, value, unit, amount_kind="value"):
    return client.post("/bo/regras/configuracao", data={
        "csrf_token": token, "kind": "decree_amounts", "key": LUVAS, "value": value, "unit": unit,
        "amount_kind": amount_kind, "valid_from": "2025-01-01", "source": "Decreto nº 10/2025"})


def test_configuration_page_refuses_amounts_above_the_cap_or_in_another_unit(client, app, demo):
    login(client, "backoffice.nortelandia")
    page = client.get("/bo/regras/configuracao").get_data(as_text=True)
    assert "Teto legal: até 10 UFM (Lei 030/1998, art. 16, II)" in page
    token = csrf_token(client, "/bo/regras/configuracao")
    above = _post_amount(client, token, "10,5", "UFM")
    assert above.status_code == 422
    assert "Acima do teto legal de 10 UFM (Lei 030/1998, art. 16, II)." in above.get_data(as_text=True)
    ceiling_above = _post_amount(client, token, "11", "UFM", amount_kind="max")
    assert ceiling_above.status_code == 422
    in_reais = _post_amount(client, token, "5", "BRL")
    assert in_reais.status_code == 422
    assert "A lei fixa esta multa em UFM (Lei 030/1998, art. 16, II)" in in_reais.get_data(as_text=True)
    with app.app_context():
        assert "rules" not in (_muni("nortelandia").settings or {})
    at_cap = _post_amount(client, token, "10", "UFM")
    assert at_cap.status_code == 302
    with app.app_context():
        rows = _muni("nortelandia").settings["rules"]["decree_amounts"][LUVAS]
    assert rows == [{"valid_from": "2025-01-01", "unit": "UFM", "value": 10.0, "decree": "Decreto nº 10/2025"}]


def test_cli_configure_applies_the_same_cap_and_unit_checks(runner, app, demo):
    base = ["rules", "configure", "--municipality", "nortelandia", "--kind", "decree_amounts",
            "--key", LUVAS, "--valid-from", "2025-01-01", "--source", "Decreto nº 11/2025"]
    above = runner.invoke(args=base + ["--value", "12", "--unit", "UFM"])
    assert above.exit_code == 1
    assert "Acima do teto legal de 10 UFM (Lei 030/1998, art. 16, II)." in above.output
    reais = runner.invoke(args=base + ["--value", "5", "--unit", "BRL"])
    assert reais.exit_code == 1 and "informe o valor em UFM" in reais.output
    with app.app_context():
        assert "rules" not in (_muni("nortelandia").settings or {})
    ok = runner.invoke(args=base + ["--value", "7,5", "--unit", "UFM"])
    assert ok.exit_code == 0, ok.output
    with app.app_context():
        from server.core.audit import AuditLog
        assert _muni("nortelandia").settings["rules"]["decree_amounts"][LUVAS][0]["value"] == 7.5
        assert AuditLog.query.filter_by(action="configure_rules").count() == 1


def test_evaluator_never_outputs_an_amount_above_the_cap_even_if_stored(client, app, demo):
    """A row written behind the page's back (older data, a script) still cannot exceed art. 16 II."""
    from server.extensions import db
    with app.app_context():
        muni = _muni("nortelandia")
        muni.settings = {**(muni.settings or {}), "rules": {"decree_amounts": {LUVAS: [
            {"valid_from": "2025-01-01", "unit": "UFM", "value": 50, "decree": "Decreto antigo"}]}}}
        db.session.commit()
    headers = api_token(client, "fiscal.nortelandia")
    response = client.post("/api/v1/rules/evaluate", headers=headers, json={
        "municipality": "nortelandia", "date": "2025-06-10", "facts": {"driver.gloves": False}})
    assert response.status_code == 200
    luvas = next(i for i in response.json["infractions"] if i["id"] == "nl.inf.luvas")
    assert luvas["amount"]["value"] is None and luvas["amount"]["max"] == 10
    assert {"kind": "infraction", "id": "nl.inf.luvas", "reason": "decree_above_cap",
            "config_key": LUVAS} in response.json["undecided"]


@pytest.mark.parametrize("raw, reason", [("NaN", "not_finite"), ("Infinity", "not_finite"),
                                         ("-Infinity", "not_finite"), ("1e400", "not_finite"),
                                         ("-125", "out_of_range")])
def test_api_refuses_impossible_numbers_naming_fact_type_and_range(client, demo, raw, reason):
    headers = api_token(client, "fiscal.sapezal")
    body = ('{"municipality": "sapezal", "date": "2025-06-10", "facts": {"vehicle.engine_cc": %s}}' % raw)
    response = client.post("/api/v1/rules/evaluate", headers={**headers, "Content-Type": "application/json"},
                           data=body)
    assert response.status_code == 400
    error = response.json["error"]
    assert error["fact"] == "vehicle.engine_cc" and error["reason"] == reason
    assert error["expected"] == {"type": "number", "min": 0, "max": None, "integer": False, "unit": "cc"}
    message = error["fields"]["facts.vehicle.engine_cc"][0]
    assert "vehicle.engine_cc" in message and "Esperado: número maior ou igual a 0 (cc)." in message


def test_api_refuses_a_negative_age_and_names_choices_for_an_enum(client, demo):
    headers = api_token(client, "fiscal.sapezal")
    age = client.post("/api/v1/rules/evaluate", headers=headers, json={
        "municipality": "sapezal", "date": "2025-06-10", "facts": {"passenger.age_years": -3}})
    assert age.status_code == 400 and age.json["error"]["reason"] == "out_of_range"
    choice = client.post("/api/v1/rules/evaluate", headers=headers, json={
        "municipality": "sapezal", "date": "2025-06-10", "facts": {"passenger.baggage_kind": "mala"}})
    assert choice.status_code == 400
    assert "Esperado: um destes valores: nenhuma, mochila, sacola_tiracolo" in choice.json["error"]["message"]


@pytest.mark.parametrize("raw", ["NaN", "Infinity", "1e400", "-1"])
def test_cli_evaluate_refuses_impossible_numbers(runner, demo, tmp_path, raw):
    facts = tmp_path / "facts.json"
    facts.write_text('{"passenger.age_years": %s}' % raw)
    result = runner.invoke(args=["rules", "evaluate", "--municipality", "sapezal", "--date",
                                 "2025-06-10", "--facts", str(facts)])
    assert result.exit_code == 2, result.output
    error = json.loads(result.output)["error"]
    assert error["fact"] == "passenger.age_years"
    assert error["reason"] == ("out_of_range" if raw == "-1" else "not_finite")
    assert error["expected"]["unit"] == "anos" and error["expected"]["min"] == 0


def test_configuration_page_shows_the_125_reading_with_its_declared_default(client, app, demo):
    login(client, "backoffice.sapezal")
    html = client.get("/bo/regras/configuracao").get_data(as_text=True)
    assert "sapezal.cc_125_reading" in html
    assert "padrão declarado" in html
    assert "uma CG 125 com 124,9 cc é 125" in html
    token = csrf_token(client, "/bo/regras/configuracao")
    saved = client.post("/bo/regras/configuracao", data={
        "csrf_token": token, "kind": "options", "key": "sapezal.cc_125_reading", "option": "medida",
        "source": "Decreto nº 3/2025"})
    assert saved.status_code == 302
    headers = api_token(client, "fiscal.sapezal")
    result = client.post("/api/v1/rules/evaluate", headers=headers, json={
        "municipality": "sapezal", "date": "2025-06-10", "facts": {"vehicle.engine_cc": 124.9}}).json
    assert [f["requirement"] for f in result["failed"]] == ["sap.req.cilindrada"]
