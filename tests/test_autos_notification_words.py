"""The notificação never misleads (issue 18, items 4 and 5): the PDF's text, read with pdftotext,
has no R$ 0,00 for an amount nobody configured and no total over an unknown amount; a CTB
infraction (jurisdiction "snt") is no part of it at all (issue 34, item 2: it goes to the
communication to the traffic authority, "a comunicar") and never summed with the municipal amounts; a deadline a decree sets names the decree, not the
article that only asks for a deadline; one CNH line and one signature statement."""
import json
import re
import shutil
import subprocess

import pytest

from autos_process_helpers import _auto_fields, ensure_key, first_operator_and_permit
from fieldsync_device import FakeDevice, sha256_hex
from helpers import csrf_token, login

CTB = {"id": "fed.inf.ctb244_ix", "citation": {"law": "CTB", "art": "244", "inciso": "IX"}, "amount": None,
       "amount_brl": None, "decision": "confirmed", "removal_reason": None}


def _homologated(app, client, slug, infractions):
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.operations import decide
    ensure_key(app, slug)
    phone = FakeDevice(client, f"fiscal.{slug}")
    operator_id, permit_number, _ = first_operator_and_permit(app, slug)
    item = phone.auto(phone.reserve(1)[0], operator_id=operator_id, permit_number=permit_number, plate="QBX1A23",
                      place="Av. Brasil, 100", auto_fields=_auto_fields(app, slug, permit_number),
                      infractions=infractions,
                      signatures={"fiscal": sha256_hex("f"), "operator": None, "operator_refused": True})
    assert phone.push([item]).status_code == 200
    with app.app_context():
        case = AutoCase.query.filter_by(record_id=item["id"]).one()
        decide(case, "auto_homologate", "Fatos confirmados pelas fotos do fiscal.")
        db.session.commit()  # the test plays the request that would have committed it
        return case.id


def _configure_sapezal(app):
    from server.extensions import db
    from server.modules.autos import process_operations as ops
    from server.modules.registry.models import Municipality
    from server.modules.rules.settings import save_value
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        save_value(muni, "deadlines", "sapezal.prazo_defesa", 15, "Decreto nº 40/2026")
        ops.save_process_settings(Municipality.query.filter_by(slug="sapezal").one(),
                                  {"authority_pt": "Diretor de Trânsito"})
        db.session.commit()


def _content(app, case_id):
    from server.modules.autos.process_models import AutoNotification
    with app.app_context():
        return json.loads(AutoNotification.query.filter_by(case_id=case_id).one().content)


def _notify(client, case_id):
    token = csrf_token(client, f"/autos/{case_id}/processo")
    response = client.post(f"/autos/{case_id}/processo/notificar", data={"csrf_token": token})
    assert response.status_code == 303, response.get_data(as_text=True)[:400]


def _pdf_text(client, case_id, tmp_path):
    pdf = client.get(f"/autos/{case_id}/notificacao.pdf")
    assert pdf.status_code == 200
    path = tmp_path / f"notificacao-{case_id}.pdf"
    path.write_bytes(pdf.data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_sapezal_notification_with_unconfigured_amount_and_a_ctb_infraction(app, client, demo, tmp_path):
    unconfigured = {"id": "sap.inf.um_passageiro", "citation": {"law": "L125", "art": "13"}, "amount": None,
                    "amount_brl": None, "decision": "confirmed", "removal_reason": None}
    case_id = _homologated(app, client, "sapezal", [unconfigured, CTB])
    _configure_sapezal(app)
    login(client, "backoffice.sapezal")
    _notify(client, case_id)
    text = _pdf_text(client, case_id, tmp_path)
    flat = re.sub(r"\s+", " ", text)
    # Amounts: never R$ 0,00 for what nobody configured, no total over an unknown amount.
    assert "a definir (decreto não configurado)" in flat
    assert "R$ 0,00" not in flat and not re.search(r"Total: R\$", flat)
    assert "Total: não calculado enquanto houver valor a definir" in flat
    # The CTB infraction is nowhere in the municipal notificação, and nothing says "comunicado".
    assert "Mais de um passageiro" in flat.split("Infrações", 1)[1]
    assert "CTB, art. 244" not in flat and "normas do mototaxista" not in flat
    assert "comunicad" not in flat.lower()
    # The defence deadline set by decree names the decree, not art. 28 VI as its source.
    assert "15 dias corridos" in flat and "fixado por Decreto nº 40/2026" in flat
    assert not re.search(r"15 dias corridos, contados [^()]*\(Lei 125/1999, art\. 28", flat)
    # One CNH line, one signature statement.
    assert flat.count("CNH (prontuário)") == 1 and "Prontuário (CNH)" not in flat
    assert "Assinatura do infrator" not in flat
    assert ("recusou-se a assinar" in flat) != ("Assinado pelo autuado" in flat)
    content = _content(app, case_id)
    assert content["total_cents"] is None
    # The ledger and its CSV say the same as the PDF; the CTB infraction gets no municipal penalty.
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_models import AutoPenalty
    from server.modules.autos.process_operations import refresh_penalties
    with app.app_context():
        refresh_penalties(db.session.get(AutoCase, case_id), local_today())
        db.session.commit()
        assert [p.infraction_id for p in AutoPenalty.query.filter_by(case_id=case_id)] == ["sap.inf.um_passageiro"]
    operator_id, _, _ = first_operator_and_permit(app, "sapezal")
    ledger = client.get(f"/autos/ficha/operador/{operator_id}").get_data(as_text=True)
    assert "a definir (decreto não configurado)" in ledger and "R$ 0,00" not in ledger
    csv = client.get(f"/autos/ficha/operador/{operator_id}/penalidades.csv").get_data(as_text=True)
    assert "a definir (decreto não configurado)" in csv
    assert "traffic" not in content
    assert [i["id"] for i in content["infractions"]] == ["sap.inf.um_passageiro"]
    # It is in the communication to the traffic authority instead, still "a comunicar".
    from server.modules.traffic.models import TrafficReport
    with app.app_context():
        record_id = db.session.get(AutoCase, case_id).record_id
        report = TrafficReport.query.filter_by(record_id=record_id).one()
        assert [i["id"] for i in report.items] == ["fed.inf.ctb244_ix"] and report.state == "a_comunicar"


def test_ctb_amounts_never_enter_the_municipal_total(app, client, demo):
    """Even if a phone stated an amount for the CTB infraction, the municipal total is the
    municipal fines only."""
    known = {"id": "sap.inf.um_passageiro", "citation": {"law": "L125", "art": "13"},
             "amount": {"value": 50, "unit": "UFM"}, "amount_brl": 123.45, "decision": "confirmed",
             "removal_reason": None}
    case_id = _homologated(app, client, "sapezal", [known, dict(CTB, amount_brl=195.23)])
    _configure_sapezal(app)
    login(client, "backoffice.sapezal")
    _notify(client, case_id)
    content = _content(app, case_id)
    assert content["total_cents"] == 12345
    assert [i["id"] for i in content["infractions"]] == ["sap.inf.um_passageiro"]


def test_integrated_traffic_authority_holds_ctb_infractions_in_its_auto(app, client, demo):
    from server.extensions import db
    from server.modules.autos import process_operations as ops
    from server.modules.registry.models import Municipality
    case_id = _homologated(app, client, "sapezal", [CTB])
    _configure_sapezal(app)
    with app.app_context():
        ops.save_process_settings(Municipality.query.filter_by(slug="sapezal").one(),
                                  {"authority_pt": "Diretor de Trânsito",
                                   "traffic_authority_act": "Lei Municipal nº 999/2020 (integração ao SNT)"})
        db.session.commit()
    login(client, "backoffice.sapezal")
    _notify(client, case_id)
    content = _content(app, case_id)
    assert "traffic" not in content and [i["id"] for i in content["infractions"]] == ["fed.inf.ctb244_ix"]
    assert content["traffic_authority_act"].startswith("Lei Municipal nº 999/2020")
