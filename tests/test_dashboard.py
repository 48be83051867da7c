"""The dashboard's figures, from records pushed through the real sync endpoint by a fake phone
and permits from the demo registry: totals, per infraction (amounts leave out autos declared
insubsistente), per fiscal, per ponto, nonconformities, permits expiring, period choice and
municipality scoping."""
import re
from datetime import datetime, timedelta, timezone

import pytest

from fieldsync_device import FakeDevice
from helpers import login
from server.extensions import db

CUIABA = timezone(timedelta(hours=-4))


def _permit(app, slug):
    from server.modules.registry.models import Municipality, Permit
    with app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        permit = (Permit.query.filter(Permit.municipality_id == muni.id, Permit.ponto_id.isnot(None))
                  .order_by(Permit.id).first())
        return permit.number, permit.ponto.name


def _infraction(code, label, brl, decision="confirmed"):
    return {"id": code, "citation": {"law": "L125", "art": "13"}, "label_pt": label,
            "amount": {"value": 1, "unit": "UFM"}, "amount_brl": brl, "decision": decision, "removal_reason": None}


def _failed(requirement, label):
    return {"failed": [{"requirement": requirement, "pack": "p", "citation": {}, "label_pt": label,
                        "infractions": []}]}


@pytest.fixture
def pushed(app, client, demo):
    """Sapezal: 3 inspections (2 at a permit's ponto), 3 autos; one auto later declared void."""
    phone = FakeDevice(client, "fiscal.sapezal")
    number, ponto = _permit(app, "sapezal")
    now = datetime.now(CUIABA)
    i1 = phone.body("inspection", permit_number=number, evaluation=_failed("sap.req.capacete", "Capacete"))
    i2 = phone.body("inspection", permit_number=number, evaluation={
        "failed": [{"requirement": "sap.req.capacete", "label_pt": "Capacete"},
                   {"requirement": "sap.req.colete", "label_pt": "Colete"}]})
    i3 = phone.body("inspection", evaluation={"failed": []})
    numbers = phone.reserve(3)
    records = [phone.record(i1), phone.record(i2), phone.record(i3),
               phone.auto(numbers[0], inspection_id=i1["id"], infractions=[
                   _infraction("sap.inf.capacete", "Sem capacete", 1234.56),
                   _infraction("sap.inf.colete", "Sem colete", 100.0, decision="removed")]),
               phone.auto(numbers[1], inspection_id=i2["id"], infractions=[
                   _infraction("sap.inf.capacete", "Sem capacete", 1234.56),
                   _infraction("sap.inf.colete", "Sem colete", 200.5)]),
               phone.auto(numbers[2], inspection_id=i3["id"], infractions=[
                   _infraction("sap.inf.capacete", "Sem capacete", 1000)])]
    response = phone.push(records)
    assert [r["status"] for r in response.json["results"]] == ["accepted"] * 6
    assert phone.push(records).status_code == 200  # a replay counts nothing twice
    from server.modules.autos.models import AutoCase
    from server.modules.autos.operations import decide
    with app.app_context():
        case = AutoCase.query.filter_by(record_id=records[5]["id"]).one()
        decide(case, "auto_void", "Placa anotada não confere com o veículo.")
        db.session.commit()  # the test plays the request that would have committed it
    return {"ponto": ponto, "now": now}


def _text(html, ident):
    found = re.search(rf'id="{ident}">([^<]*)<', html)
    assert found, ident
    return found.group(1)


def _table(html, ident):
    """{first cell: [other cells]} of the data table of a chart section."""
    section = html.split(f'id="{ident}-title"', 1)[1].split("</section>", 1)[0]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", section, re.S)[1:]:
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        rows[cells[0]] = cells[1:]
    return rows


def test_dashboard_counts_what_the_phones_sent(app, client, pushed):
    login(client, "backoffice.sapezal")
    html = client.get("/bo/").get_data(as_text=True)
    assert _text(html, "total-inspections") == "3"
    assert _text(html, "total-autos") == "3"
    assert _text(html, "total-void") == "1"
    # 1234.56 + 1234.56 + 200.50 (the removed infraction and the void auto do not count)
    assert _text(html, "total-amount") == "R$ 2.669,62"
    infractions = _table(html, "por-infracao")
    assert infractions["Sem capacete"] == ["3", "R$ 2.469,12"]
    assert infractions["Sem colete"] == ["1", "R$ 200,50"]
    assert _table(html, "nao-conformidades") == {"Capacete": ["2"], "Colete": ["1"]}
    fiscal = _table(html, "por-fiscal")
    assert list(fiscal.values()) == [["3", "3", "R$ 2.669,62"]]
    pontos = _table(html, "por-ponto")
    assert pontos[pushed["ponto"]] == ["2", "2", "R$ 2.669,62"]
    assert pontos["Sem ponto identificado"] == ["1", "1", "R$ 0,00"]
    today = pushed["now"].strftime("%d/%m")
    assert _table(html, "por-periodo")[today][:2] == ["3", "3"]


def test_periods_and_bad_dates(app, client, pushed):
    login(client, "backoffice.sapezal")
    last_year = (pushed["now"] - timedelta(days=400)).date()
    html = client.get(f"/bo/?periodo=outro&de={last_year}&ate={last_year + timedelta(days=10)}").get_data(as_text=True)
    assert _text(html, "total-inspections") == "0"
    assert "Nenhum registro no período." in html
    html = client.get("/bo/?periodo=12m").get_data(as_text=True)
    assert _text(html, "total-autos") == "3"
    assert "Por mês" in html and len(_table(html, "por-periodo")) == 12
    response = client.get("/bo/?periodo=outro&de=2026-02-31&ate=x")
    assert response.status_code == 200
    assert "Informe as datas inicial e final" in response.get_data(as_text=True)


def test_other_municipality_sees_none_of_it(app, client, pushed):
    login(client, "backoffice.paranatinga")
    html = client.get("/bo/").get_data(as_text=True)
    assert _text(html, "total-inspections") == "0"
    assert _text(html, "total-amount") == "R$ 0,00"
    assert "Sem capacete" not in html


def test_permits_expiring_by_horizon(app, client, demo):
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.registry.models import Municipality, Permit
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        today = local_today()
        active = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).all()
        assert len(active) >= 5
        # Validities set by hand, whatever the date: ends today, on day 30 (the last day of the first
        # horizon), on day 31, on day 90, and the rest a year away.
        for permit, days in zip(active, [0, 30, 31, 90] + [365] * len(active)):
            permit.valid_until = today + timedelta(days=days)
        other = Permit.query.filter(Permit.municipality_id == muni.id, Permit.status != "ativo").first()
        other.valid_until = today + timedelta(days=5)  # not active: never counted
        db.session.commit()
    login(client, "backoffice.sapezal")
    html = client.get("/bo/").get_data(as_text=True)
    assert {n: int(_text(html, f"expiring-{n}")) for n in (30, 60, 90)} == {30: 2, 60: 3, 90: 4}


def test_money_and_dates_in_ptbr():
    from datetime import date
    from decimal import Decimal
    from server.core.ptbr import brl, brl_cents, date_br
    assert brl(Decimal("1234.56")) == "R$ 1.234,56"
    assert brl(1234567.891) == "R$ 1.234.567,89"
    assert brl(0) == "R$ 0,00" and brl(None) == "—"
    assert brl_cents(-150) == "-R$ 1,50"
    assert date_br(date(2026, 1, 1)) == "01/01/2026" and date_br("2026-01-01") == "01/01/2026"


UNSET = "a definir (decreto não configurado)"


def _unpriced(code, label):
    """A municipal fine whose amount the municipality has not configured: the phone sends the
    law's amount entry with no value and no reais."""
    return {"id": code, "citation": {"law": "L125", "art": "13"}, "label_pt": label,
            "amount": {"value": None, "unit": None}, "amount_brl": None, "decision": "confirmed",
            "removal_reason": None}


def test_unconfigured_amounts_are_counted_apart_and_no_total_is_shown(app, client, demo):
    """Issue 18, items 4 and 5. Three autos: A1 capacete R$ 1.234,56; A2 capacete with no amount
    configured + colete R$ 200,50; A3 capacete R$ 100,00 + CTB art. 244 IX (traffic authority)
    carrying R$ 293,47 that must never be summed. While A2 counts there is no total; once A2 is
    declared insubsistente the total is 1.234,56 + 100,00 = R$ 1.334,56."""
    phone = FakeDevice(client, "fiscal.sapezal")
    inspection = phone.body("inspection", evaluation={"failed": []})
    numbers = phone.reserve(3)
    ctb = {**_infraction("fed.inf.ctb244_ix", "Passageiro sem capacete (CTB)", 293.47),
           "amount": {"value": 293.47, "unit": "BRL"}}
    records = [phone.record(inspection),
               phone.auto(numbers[0], inspection_id=inspection["id"], infractions=[
                   _infraction("sap.inf.capacete", "Sem capacete", 1234.56)]),
               phone.auto(numbers[1], inspection_id=inspection["id"], infractions=[
                   _unpriced("sap.inf.capacete", "Sem capacete"),
                   _infraction("sap.inf.colete", "Sem colete", 200.5)]),
               phone.auto(numbers[2], inspection_id=inspection["id"], infractions=[
                   _infraction("sap.inf.capacete", "Sem capacete", 100), ctb])]
    assert [r["status"] for r in phone.push(records).json["results"]] == ["accepted"] * 4
    login(client, "backoffice.sapezal")
    html = client.get("/bo/").get_data(as_text=True)
    # Never "R$ 0,00" where autos were counted (a day of the month without autos may say so).
    for name in ("por-periodo", "por-fiscal", "por-ponto", "por-infracao"):
        for label, cells in _table(html, name).items():
            assert not (cells[-2] != "0" and cells[-1] == "R$ 0,00"), (name, label, cells)
    assert _text(html, "total-amount") == "a definir"
    assert "sem total — 1 multa com valor a definir (decreto não configurado)" in html
    infractions = _table(html, "por-infracao")
    assert infractions["Sem capacete"] == ["3", UNSET]
    assert infractions["Sem colete"] == ["1", "R$ 200,50"]  # priced everywhere: its sum stands
    # The CTB infraction is no municipal auto's (issue 34, item 2): not counted among them at all.
    assert "Passageiro sem capacete (CTB)" not in infractions
    assert list(_table(html, "por-fiscal").values()) == [["1", "3", UNSET]]
    assert _table(html, "por-ponto")["Sem ponto identificado"] == ["1", "3", UNSET]
    assert _table(html, "por-periodo")[datetime.now(CUIABA).strftime("%d/%m")] == ["1", "3", UNSET]

    from server.modules.autos.models import AutoCase
    from server.modules.autos.operations import decide
    with app.app_context():
        decide(AutoCase.query.filter_by(record_id=records[2]["id"]).one(), "auto_void",
               "Auto lavrado em duplicidade.")
        db.session.commit()
    html = client.get("/bo/").get_data(as_text=True)
    assert _text(html, "total-amount") == "R$ 1.334,56"  # the CTB R$ 293,47 is not in it
    assert _table(html, "por-infracao")["Sem capacete"] == ["3", "R$ 1.334,56"]
    assert UNSET not in html
