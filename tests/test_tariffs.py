"""Tariff tables set by decree (Paranatinga Lei 311/2007 art. 35; Sapezal Lei 125/1999 art. 19):
recorded with their act and validity, shown to the passenger on the public crachá page and to
the fiscal in the field data; the pack has the infraction for charging off the table."""
import json
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from helpers import api_token, csrf_token, login
from server.core.audit import AuditLog
from server.core.clock import local_today
from server.modules.credentials import operations as ops
from server.modules.registry.models import Municipality, Permit

ROOT = Path(__file__).resolve().parent.parent


def _record(client, act, valid_from, items, valid_until=""):
    return client.post("/bo/tarifas/", data={"act": act, "valid_from": valid_from, "valid_until": valid_until,
                                             "items_text": items, "csrf_token": csrf_token(client, "/bo/tarifas/")})


def test_tariff_recorded_and_shown_on_the_public_page(app, client, runner, demo):
    login(client, "backoffice.paranatinga")
    with app.app_context():
        today = local_today()
    page = client.get("/bo/tarifas/").get_data(as_text=True)
    assert "Lei 311/2007, art. 35" in page and "não definida" in page
    bad = _record(client, "Decreto nº 45/2026", today.isoformat(), "Corrida urbana 8,00")
    assert bad.status_code == 422 and "descrição | valor" in bad.get_data(as_text=True)
    ok = _record(client, "Decreto nº 45/2026", (today - timedelta(days=10)).isoformat(),
                 "Corrida na área urbana | 8,50\nCorrida até o distrito | 25,00")
    assert ok.status_code == 302
    # A table that starts tomorrow is recorded but not yet in force.
    assert _record(client, "Decreto nº 60/2026", (today + timedelta(days=1)).isoformat(),
                   "Corrida na área urbana | 9,75").status_code == 302
    with app.app_context():
        assert AuditLog.query.filter_by(entity="tariff_table", action="create").count() == 2
    page = client.get("/bo/tarifas/").get_data(as_text=True)
    assert "R$ 8,50" in page and "R$ 25,00" in page

    runner.invoke(args=["keys", "create", "--municipality", "paranatinga"])
    with app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        payload = ops.issue_credential(permit).payload
    public = client.get(urlsplit(payload).path).get_data(as_text=True)
    assert "Tarifa oficial" in public and "Corrida na área urbana: <strong>R$ 8,50</strong>" in public
    assert "R$ 9,75" not in public  # not in force yet
    assert "Decreto nº 45/2026" in public and "Grupo VI, c" in public


def test_tariff_in_the_field_data_for_the_fiscal(app, client, demo):
    headers = api_token(client, "fiscal.paranatinga")
    first = client.get("/api/v1/field/data?cursor=0", headers=headers)
    assert first.json["tariff"] is None
    login(client, "backoffice.paranatinga")
    with app.app_context():
        today = local_today()
    _record(client, "Decreto nº 45/2026", today.isoformat(), "Corrida na área urbana | 8,50")
    # The phone polling with its ETag gets the new tariff, not a 304.
    again = client.get("/api/v1/field/data?cursor=0", headers={**headers, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200
    tariff = again.json["tariff"]
    assert tariff["act"] == "Decreto nº 45/2026" and tariff["items"] == [
        {"description": "Corrida na área urbana", "amount": "8.50"}]
    assert tariff["basis"] == "Lei 311/2007, art. 35"


def test_the_pack_has_the_overcharge_infraction():
    pack = json.loads((ROOT / "shared_rules/packs/paranatinga-lei-311-2007.json").read_text())
    text = json.dumps(pack, ensure_ascii=False)
    assert "Cobrar tarifa superior ou inferior ao estabelecido em lei" in text


def test_tariffs_are_scoped_and_need_csrf(app, client, demo):
    login(client, "backoffice.paranatinga")
    with app.app_context():
        today = local_today()
    _record(client, "Decreto nº 777/2026", today.isoformat(), "Corrida | 8,00")
    client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")})
    login(client, "backoffice.sapezal")
    page = client.get("/bo/tarifas/").get_data(as_text=True)
    assert "Decreto nº 777/2026" not in page and "Lei 125/1999, art. 19" in page
    assert client.post("/bo/tarifas/", data={"act": "x"}).status_code == 400
    client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")})


def test_a_table_coming_into_force_reaches_phones_through_the_daily_job(app, client, runner, demo):
    """Nothing is edited on the day a recorded table starts: the daily job bumps the field-data
    version once (a phone holding the old ETag gets the new tariff), and twice changes nothing."""
    login(client, "backoffice.paranatinga")
    with app.app_context():
        today = local_today()
    _record(client, "Decreto nº 45/2026", today.isoformat(), "Corrida na área urbana | 8,50")
    _record(client, "Decreto nº 60/2026", (today + timedelta(days=1)).isoformat(), "Corrida na área urbana | 9,75")
    headers = api_token(client, "fiscal.paranatinga")
    before = client.get("/api/v1/field/data?cursor=0", headers=headers)
    assert before.json["tariff"]["act"] == "Decreto nº 45/2026"
    first = runner.invoke(args=["jobs", "run-daily", "--date", today.isoformat(), "--task", "tariffs.in_force"])
    assert "celulares: 0" in first.output, first.output  # today's table was told when recorded
    tomorrow = (today + timedelta(days=1)).isoformat()
    second = runner.invoke(args=["jobs", "run-daily", "--date", tomorrow, "--task", "tariffs.in_force"])
    assert "celulares: 1" in second.output, second.output
    assert "celulares: 0" in runner.invoke(args=["jobs", "run-daily", "--date", tomorrow,
                                                 "--task", "tariffs.in_force"]).output
    after = client.get("/api/v1/field/data?cursor=0", headers={**headers, "If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.json["cursor"] > before.json["cursor"]


def test_fare_question_in_the_paranatinga_checklist_only_and_proposes_group_vi_c():
    """Lei 311/2007 art. 11 XXII (cobrar somente o preço da tabela) → art. 50, Grupo VI, c; asked only
    with a passenger on board; Sapezal (art. 19) and Nortelândia fine no such conduct."""
    from server.rules import checklist, evaluate, load_municipality

    def fare(slug, facts):
        items = checklist(load_municipality(slug), "2026-06-10", facts)
        return next((i for i in items if i["fact"] == "conduct.fare_off_table"), None)

    item = fare("paranatinga", {"passenger.present": True})
    assert item["input"] == "yes_no_na" and item["applicable"] is True
    assert [(c["art"], c.get("inciso")) for c in item["citations"]] == [("11", "XXII")]
    assert fare("paranatinga", {"passenger.present": False})["applicable"] is False
    assert fare("sapezal", {"passenger.present": True}) is None
    assert fare("nortelandia", {"passenger.present": True}) is None
    out = evaluate(load_municipality("paranatinga"), "2026-06-10",
                   {"passenger.present": True, "conduct.fare_off_table": True})
    g6c = next(i for i in out["infractions"] if i["id"] == "par.inf.g6_c")
    assert (g6c["citation"]["art"], g6c["citation"]["inciso"], g6c["citation"]["alinea"]) == ("50", "VI", "c")
    assert g6c["triggered_by"] == ["par.req.tarifa_tabela"] and g6c["amount"]["value"] == 65
    na = evaluate(load_municipality("paranatinga"), "2026-06-10",
                  {"passenger.present": True, "conduct.fare_off_table": "na"})
    assert "par.req.tarifa_tabela" in na["not_applicable"] and not na["infractions"]
