"""One authority per document (issue 34, item 2), on the server: a CTB/SNT infraction a fiscal
observed goes to a communication to the traffic authority — numbered per municipality and year,
"a comunicar" until a clerk records the sending, then "comunicada", then "recebida", each audited —
never to the municipal auto, its operator's list, its penalties or the dashboard's counts; unless
the municipality recorded the act integrating it into the SNT. Records are pushed through the real
sync endpoint by a fake phone (tests/fieldsync_device.py)."""
import re
import shutil
import subprocess

import pytest

from fieldsync_device import FakeDevice
from helpers import csrf_token, login

CTB_ID = "fed.inf.ctb244_ix"
CTB_LABEL = "Transporte remunerado em desacordo com as normas do mototaxista"
CTB_CITATION = {"law": "CTB", "art": "244", "inciso": "IX"}


def _evaluation(decided="communicate"):
    """A stop that failed the helmet (a municipal infraction) and the vest (CTB art. 244 IX too),
    as the phone's evaluation reports it, and the fiscal's decisions on its result screen."""
    evaluation = {
        "failed": [{"requirement": "fed.req.colete_retrorrefletivo", "label_pt": "Condutor de colete com dispositivos retrorrefletivos"}],
        "infractions": [
            {"id": "sap.inf.capacete", "label_pt": "Condutor sem capacete", "citation": {"law": "L125", "art": "13"},
             "triggered_by": ["sap.req.capacete"], "jurisdiction": "municipal"},
            {"id": CTB_ID, "label_pt": CTB_LABEL, "citation": CTB_CITATION, "triggered_by": ["fed.req.colete_retrorrefletivo"],
             "jurisdiction": "snt"}]}
    decisions = {"sap.inf.capacete": {"decision": "confirmed", "reason": ""},
                 CTB_ID: {"decision": decided, "reason": ""}}
    return evaluation, decisions


def _municipal():
    return {"id": "sap.inf.capacete", "citation": {"law": "L125", "art": "13"}, "label_pt": "Condutor sem capacete",
            "amount": {"value": 50, "unit": "UFM"}, "amount_brl": 100.0, "decision": "confirmed",
            "removal_reason": None}


def _legacy_ctb():
    return {"id": CTB_ID, "citation": CTB_CITATION, "label_pt": CTB_LABEL, "amount": None, "amount_brl": None,
            "decision": "confirmed", "removal_reason": None}


def _stop(phone, decided="communicate", auto_infractions=None, place="Av. das Palmeiras, 200"):
    evaluation, decisions = _evaluation(decided)
    inspection = phone.body("inspection", evaluation=evaluation, decisions=decisions, plate="QBX1A23")
    number = phone.reserve(1)[0]
    auto = phone.auto(number, inspection_id=inspection["id"], place=place, plate="QBX1A23",
                      infractions=auto_infractions if auto_infractions is not None else [_municipal()])
    records = [phone.record(inspection), auto]
    assert [r["status"] for r in phone.push(records).json["results"]] == ["accepted"] * 2
    return inspection["id"], auto["id"], records


def _reports(app, slug="sapezal"):
    from server.modules.registry.models import Municipality
    from server.modules.traffic.models import TrafficReport
    with app.app_context():
        mid = Municipality.query.filter_by(slug=slug).one().id
        return [(r.number, r.stop_id, [i["id"] for i in r.items], r.state)
                for r in TrafficReport.query.filter_by(municipality_id=mid).order_by(TrafficReport.seq)]


def test_new_phone_stop_opens_one_numbered_communication_and_the_auto_stays_municipal(app, client, demo):
    from server.core.clock import local_today
    phone = FakeDevice(client, "fiscal.sapezal")
    stop, auto_id, records = _stop(phone)
    year = local_today().year
    assert _reports(app) == [(f"0001/{year}", stop, [CTB_ID], "a_comunicar")]
    assert phone.push(records).status_code == 200  # a replay opens nothing twice
    second, _, _ = _stop(phone)
    assert [r[0] for r in _reports(app)] == [f"0001/{year}", f"0002/{year}"]
    assert _reports(app, "paranatinga") == []

    login(client, "backoffice.sapezal")
    page = client.get("/bo/transito/").get_data(as_text=True)
    assert f"0001/{year}" in page and CTB_LABEL in page and "CTB, art. 244, IX" in page
    assert "A comunicar" in page and "comunicadas aguardando" in page
    assert not re.search(r"[Cc]omunicad[ao] em", page)  # nothing sent yet: nowhere "comunicado"
    # The stop's review pages point at it, with its state in words.
    review = client.get(f"/bo/revisao/registros/{auto_id}").get_data(as_text=True)
    assert f"Comunicação ao órgão de trânsito nº 0001/{year}" in review and "A comunicar" in review
    # The dashboard counts it apart, never among the autos' infractions.
    home = client.get("/bo/").get_data(as_text=True)
    assert re.search(r'id="traffic-pending">2<', home)
    assert CTB_LABEL not in home.split('id="por-infracao-title"', 1)[1].split("</section>", 1)[0]


def test_sending_and_acknowledgement_are_recorded_audited_and_checked(app, client, demo):
    from server.core.audit import AuditLog
    from server.core.clock import local_today
    from server.modules.traffic.models import TrafficReport
    phone = FakeDevice(client, "fiscal.sapezal")
    _stop(phone)
    with app.app_context():
        report_id = TrafficReport.query.one().id
    login(client, "backoffice.sapezal")
    token = csrf_token(client, "/bo/transito/")
    today = local_today()
    # Acknowledged before being sent: refused, naming why.
    refused = client.post("/bo/transito/recebimento", data={"csrf_token": token, "comunicacao": str(report_id),
                                                            "acknowledged_on": today.isoformat(),
                                                            "acknowledged_reference": "Protocolo 1"})
    assert refused.status_code == 422 and "registre o envio antes" in refused.get_data(as_text=True)
    # A date in the future and a missing reference are named by field.
    bad = client.post("/bo/transito/envio", data={"csrf_token": token, "comunicacao": str(report_id),
                                                  "sent_on": "2099-12-31", "sent_reference": "Ofício 3/2026"})
    assert bad.status_code == 422 and "não pode ser futura" in bad.get_data(as_text=True)
    bad = client.post("/bo/transito/envio", data={"csrf_token": token, "comunicacao": str(report_id),
                                                  "sent_on": today.isoformat(), "sent_reference": ""})
    assert bad.status_code == 422 and "ofício, protocolo, e-mail" in bad.get_data(as_text=True)
    sent = client.post("/bo/transito/envio", data={"csrf_token": token, "comunicacao": str(report_id),
                                                   "sent_on": today.isoformat(),
                                                   "sent_reference": "Ofício nº 3/2026 ao DETRAN-MT"})
    assert sent.status_code == 302
    page = client.get(f"/bo/transito/{report_id}").get_data(as_text=True)
    assert f"Comunicada em {today:%d/%m/%Y} (Ofício nº 3/2026 ao DETRAN-MT)" in page
    ack = client.post("/bo/transito/recebimento", data={"csrf_token": token, "comunicacao": str(report_id),
                                                        "acknowledged_on": today.isoformat(),
                                                        "acknowledged_reference": "Protocolo DETRAN 555",
                                                        "voltar": "comunicacao"})
    assert ack.status_code == 302 and ack.headers["Location"].endswith(f"/bo/transito/{report_id}")
    page = client.get(f"/bo/transito/{report_id}").get_data(as_text=True)
    assert "Recebida pelo órgão de trânsito em" in page and "Protocolo DETRAN 555" in page
    with app.app_context():
        actions = [a.action for a in AuditLog.query.filter_by(entity="traffic_report").order_by(AuditLog.id)]
    assert actions == ["traffic_report_open", "traffic_report_send", "traffic_report_acknowledge"]
    # Another municipality's clerk sees nothing of it.
    client.get("/logout")
    login(client, "backoffice.paranatinga")
    assert client.get(f"/bo/transito/{report_id}").status_code == 404
    token = csrf_token(client, "/bo/transito/")
    foreign = client.post("/bo/transito/envio", data={"csrf_token": token, "comunicacao": str(report_id),
                                                      "sent_on": today.isoformat(), "sent_reference": "Ofício 9"})
    assert foreign.status_code == 422 and "Nenhuma comunicação" in foreign.get_data(as_text=True)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_period_pdf_and_csv_say_a_comunicar_until_sent(app, client, demo, tmp_path):
    phone = FakeDevice(client, "fiscal.sapezal")
    _stop(phone, place="Rua Goiás, 45")
    login(client, "backoffice.sapezal")
    pdf = client.get("/bo/transito/comunicacao.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    path = tmp_path / "comunicacao.pdf"
    path.write_bytes(pdf.data)
    text = " ".join(subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    assert "COMUNICAÇÃO AO ÓRGÃO EXECUTIVO DE TRÂNSITO" in text and "CTB, art. 244, IX" in text
    assert "A comunicar (envio ainda não registrado)" in text and "Rua Goiás, 45" in text
    assert "QBX1A23" in text and "Condutor de colete com dispositivos retrorrefletivos" in text
    assert "Comunicada em" not in text
    csv = client.get("/bo/transito/?formato=csv").get_data(as_text=True)
    assert "Número;Data e hora;Local" in csv and "A comunicar" in csv and "Rua Goiás, 45" in csv


def test_an_older_phone_that_confirmed_the_ctb_item_into_the_auto(app, client, demo):
    """The auto carries the CTB item as confirmed: the server keeps it out of the auto (operator's
    list, penalties, dashboard) and communicates it once for the stop."""
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.autos.auto_data import auto_data
    from server.modules.autos.models import AutoCase
    from server.modules.autos.operations import decide
    from server.modules.autos.process_models import AutoPenalty
    from server.modules.autos.process_operations import refresh_penalties
    from server.modules.autos.public_auto import operator_autos
    from server.modules.accounts.models import User
    phone = FakeDevice(client, "fiscal.sapezal")
    stop, auto_id, _ = _stop(phone, decided="confirmed", auto_infractions=[_municipal(), _legacy_ctb()])
    assert [r[1:3] for r in _reports(app)] == [(stop, [CTB_ID])]
    with app.app_context():
        case = AutoCase.query.filter_by(record_id=auto_id).one()
        data = auto_data(case)
        assert [i["id"] for i in data["infractions"]] == ["sap.inf.capacete"]
        assert [i["id"] for i in data["traffic"]] == [CTB_ID]
        decide(case, "auto_homologate", "Conferido com as fotos do fiscal.")
        refresh_penalties(db.session.get(AutoCase, case.id), local_today())
        db.session.commit()
        assert [p.infraction_id for p in AutoPenalty.query.filter_by(case_id=case.id)] == ["sap.inf.capacete"]
        operator = User(username="op.teste", name="Operador", role="operator", municipality_id=case.municipality_id,
                        operator_id=case.record.operator_id or _operator_of(case))
        listed = operator_autos(operator)
        assert [[i["id"] for i in a["infractions"]] for a in listed if a["id"] == auto_id] == [["sap.inf.capacete"]]


def _operator_of(case):
    from server.modules.registry.models import Operator
    operator = Operator.query.filter_by(municipality_id=case.municipality_id).first()
    case.record.operator_id = operator.id
    return operator.id


def test_integrated_municipality_keeps_a_confirmed_ctb_item_in_its_auto(app, client, demo):
    from server.extensions import db
    from server.modules.autos import process_operations as ops
    from server.modules.autos.auto_data import auto_data
    from server.modules.autos.models import AutoCase
    from server.modules.registry.models import Municipality
    with app.app_context():
        ops.save_process_settings(Municipality.query.filter_by(slug="sapezal").one(),
                                  {"traffic_authority_act": "Lei Municipal nº 999/2020 (integração ao SNT)"})
        db.session.commit()  # the test plays the request that would have committed it
    phone = FakeDevice(client, "fiscal.sapezal")
    _stop_id, auto_id, _ = _stop(phone, decided="confirmed", auto_infractions=[_municipal(), _legacy_ctb()])
    assert _reports(app) == []  # the municipality is the traffic authority: its own auto holds it
    with app.app_context():
        data = auto_data(AutoCase.query.filter_by(record_id=auto_id).one())
        assert [i["id"] for i in data["infractions"]] == ["sap.inf.capacete", CTB_ID] and data["traffic"] == []
    # A phone that still said "communicate" (data older than the act): communicated as it said.
    _stop(phone, decided="communicate")
    assert [r[2] for r in _reports(app)] == [[CTB_ID]]


def test_a_late_evening_stop_is_counted_on_its_local_day(app, client, demo):
    """23:30 in Cuiabá is 03:30 UTC of the next day: the period's bounds are the municipality's
    days, on SQLite (UTC wall time, no offset kept) as on PostgreSQL."""
    from datetime import datetime, time, timedelta, timezone
    from server.core.clock import local_today
    from server.modules.registry.models import Municipality
    from server.modules.traffic.queries import counts
    day = local_today() - timedelta(days=3)
    late = datetime.combine(day, time(23, 30), timezone(timedelta(hours=-4)))
    phone = FakeDevice(client, "fiscal.sapezal")
    evaluation, decisions = _evaluation()
    record = phone.record(phone.body("inspection", device_at=late, evaluation=evaluation, decisions=decisions))
    assert phone.push([record]).json["results"][0]["status"] == "accepted"
    with app.app_context():
        mid = Municipality.query.filter_by(slug="sapezal").one().id
        assert counts(mid, day, day)["a_comunicar"] == 1
        assert counts(mid, day + timedelta(days=1), day + timedelta(days=1))["a_comunicar"] == 0


def test_dates_out_of_range_are_named_never_a_500(app, client, demo):
    login(client, "backoffice.sapezal")
    page = client.get("/bo/transito/?de=9999-12-31&ate=0001-01-01&situacao=enviada")
    assert page.status_code == 200 and "Filtro ignorado por valor inválido: de, ate, situacao" in page.get_data(as_text=True)
    assert client.get("/bo/transito/comunicacao.pdf?ate=9999-12-31").status_code == 200
    token = csrf_token(client, "/bo/transito/")
    bad = client.post("/bo/transito/envio", data={"csrf_token": token, "comunicacao": "1", "sent_on": "9999-12-31",
                                                  "sent_reference": "Ofício 1/2026"})
    assert bad.status_code == 422 and "Data fora do intervalo aceito" in bad.get_data(as_text=True)
