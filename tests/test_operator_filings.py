"""Defence and appeal filed from the operator's app (issue 37): attachments with the evidence
photos' checks (or a PDF without active content), a filing protocolled once per phone id with a
receipt (protocol, time, tempestiva or not by the legal calendar), a late filing received and
marked intempestiva, a resend answered with the same receipt, other content a conflict; the back
office sees it in the process; the decision goes back to the operator."""
import hashlib
import io
import uuid
from datetime import timedelta

import pytest
from PIL import Image

from autos_process_helpers import art48_due, backdate_notification, homologated_case
from helpers import csrf_token, login
from operator_helpers import operator_headers


def _jpeg(colour=(40, 90, 200), size=(64, 48)):
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG")
    return out.getvalue()


def _sha(data):
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def world(app, client, demo):
    """A homologated Paranatinga auto, notified, and its operator's phone."""
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_operations import issue_notification
    case_id, _phone = homologated_case(app, client, "paranatinga")
    with app.app_context():
        case = db.session.get(AutoCase, case_id)
        issue_notification(case)
        db.session.commit()  # the test plays the request that would have committed it
        operator_id, record_id = case.record.operator_id, case.record_id
    return {"case_id": case_id, "record_id": record_id, "headers": operator_headers(app, client, operator_id)}


def _put(client, headers, data, content_type="image/jpeg", sha=None):
    return client.put(f"/api/v1/operator/attachments/{sha or _sha(data)}", data=data, content_type=content_type,
                      headers=headers)


def _filing(world, text="Recorro: a moto estava parada, sem passageiro.", attachments=(), ident=None):
    return {"id": ident or str(uuid.uuid4()), "auto_id": world["record_id"], "text": text,
            "attachments": list(attachments)}


def _push(client, world, *filings):
    response = client.post("/api/v1/operator/filings", json={"records": list(filings)}, headers=world["headers"])
    assert response.status_code == 200, response.json
    return response.json["results"]


def _serve(app, case_id, served):
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_operations import record_service
    backdate_notification(app, case_id, served - timedelta(days=1))
    with app.app_context():
        record_service(db.session.get(AutoCase, case_id), "postal_ar", served.isoformat(), "AR JT123456789BR")
        db.session.commit()


def test_attachments_are_checked_like_evidence_photos(app, client, world):
    headers = world["headers"]
    photo = _jpeg()
    assert _put(client, headers, photo).status_code == 201
    assert _put(client, headers, photo).status_code == 200  # the same bytes again: nothing new
    assert client.head(f"/api/v1/operator/attachments/{_sha(photo)}", headers=headers).status_code == 200
    wrong = _put(client, headers, photo, sha="0" * 64)
    assert wrong.status_code == 422 and "hash" in wrong.json["error"]["fields"]["attachment"][0]
    png_declared_as_jpeg = io.BytesIO()
    Image.new("RGB", (8, 8)).save(png_declared_as_jpeg, "PNG")
    refused = _put(client, headers, png_declared_as_jpeg.getvalue())
    assert refused.status_code == 422 and "JPEG" in refused.json["error"]["fields"]["photo"][0]
    # A small file that declares a huge canvas is refused before decoding (the evidence photos' limit).
    bomb = io.BytesIO()
    Image.new("1", (9000, 9000)).save(bomb, "PNG")
    assert _put(client, headers, bomb.getvalue(), "image/png").status_code == 413
    assert _put(client, headers, b"GIF89a....", "image/gif").status_code == 415
    assert _put(client, headers, b"x" * (6 * 1024 * 1024), "application/pdf").status_code == 413


def _pdf(extra=b""):
    body = (b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R " + extra + b">> endobj\n"
            b"2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
    return body


def test_a_pdf_is_taken_without_active_content(app, client, world):
    import zlib
    headers = world["headers"]
    assert _put(client, headers, _pdf(), "application/pdf").status_code == 201
    for active in (b"/OpenAction << /S /JavaScript /JS (app.alert(1)) >>", b"/Names << /#4AavaScript 3 0 R >>"):
        refused = _put(client, headers, _pdf(active), "application/pdf")
        assert refused.status_code == 422 and "conteúdo ativo" in refused.json["error"]["fields"]["attachment"][0]
    hidden = zlib.compress(b"<< /S /Launch /F (cmd.exe) >>")
    in_stream = _pdf() .replace(b"trailer", b"3 0 obj << /Filter /FlateDecode >> stream\n" + hidden + b"\nendstream\ntrailer")
    assert _put(client, headers, in_stream, "application/pdf").status_code == 422
    assert _put(client, headers, b"not a pdf at all", "application/pdf").status_code == 422


def test_a_timely_filing_gets_a_receipt_once_and_a_resend_is_the_same(app, client, world):
    from server.core.clock import local_today
    served = local_today()
    _serve(app, world["case_id"], served)
    photo = _jpeg()
    assert _put(client, world["headers"], photo).status_code == 201
    filing = _filing(world, attachments=[_sha(photo)])
    [first] = _push(client, world, filing)
    assert first["status"] == "accepted" and first["missing_photos"] == []
    receipt = first["receipt"]
    assert receipt["protocol"].endswith("/000001") and receipt["late"] is False
    assert receipt["label_pt"] and receipt["instance_pt"] and receipt["attachments"] == 1
    assert receipt["due_on"] == art48_due(app, served).isoformat()  # the legal calendar's last day
    assert receipt["timeliness_pt"].startswith("Tempestiva")
    [again] = _push(client, world, filing)
    assert again["status"] == "duplicate" and again["receipt"]["protocol"] == receipt["protocol"]
    [other] = _push(client, world, {**filing, "text": "Outro texto, mandado com o mesmo identificador."})
    assert other["status"] == "conflict" and other["receipt"] is None
    from server.modules.autos.process_models import AutoAppeal
    with app.app_context():
        [appeal] = AutoAppeal.query.all()
        assert appeal.summary == filing["text"] and appeal.source == "app" and appeal.received_at

    # The operator's list carries the receipt (kept on the phone for reading offline)…
    [auto] = client.get("/api/v1/operator/autos", headers=world["headers"]).json["autos"]
    [kept] = auto["process"]["filings"]
    assert kept["protocol"] == receipt["protocol"] and kept["text"] == filing["text"]
    assert auto["process"]["filing"]["open"] is False  # one request at a time, awaiting decision
    assert any(n["kind"] == "recibo" for n in auto["notices"])  # and the receipt notice
    # …and the back office sees it in the process, with its attachment.
    clerk = app.test_client()
    login(clerk, "backoffice.paranatinga")
    page = clerk.get(f"/autos/{world['case_id']}/processo").get_data(as_text=True)
    assert receipt["protocol"] in page and "pelo aplicativo" in page and "tempestiva" in page.lower()
    attachment = clerk.get(f"/autos/{world['case_id']}/anexos/{_sha(photo)}")
    assert attachment.status_code == 200 and attachment.data == photo
    assert attachment.headers["Content-Disposition"].startswith("attachment")


def test_a_late_filing_is_received_and_marked_intempestiva(app, client, world):
    from server.core.clock import local_today
    served = local_today() - timedelta(days=30)
    _serve(app, world["case_id"], served)
    [result] = _push(client, world, _filing(world))
    assert result["status"] == "accepted"
    receipt = result["receipt"]
    assert receipt["late"] is True and receipt["timeliness_pt"].startswith("Intempestiva")
    assert receipt["due_on"] == art48_due(app, served).isoformat()


def test_missing_attachments_are_listed_and_the_filing_is_kept(app, client, world):
    photo = _jpeg((200, 10, 10))
    filing = _filing(world, attachments=[_sha(photo)])
    [result] = _push(client, world, filing)
    assert result["status"] == "accepted" and result["missing_photos"] == [_sha(photo)]
    assert _put(client, world["headers"], photo).status_code == 201
    [again] = _push(client, world, filing)
    assert again["status"] == "duplicate" and again["missing_photos"] == []


def test_bad_items_are_rejected_alone_and_another_operator_s_auto_is_not_found(app, client, world):
    bad = {"id": "not-a-uuid", "auto_id": world["record_id"], "text": "curto"}
    good = _filing(world)
    stranger = _filing(world, ident=str(uuid.uuid4()))
    stranger["auto_id"] = str(uuid.uuid4())
    results = _push(client, world, bad, good, stranger)
    assert [r["status"] for r in results] == ["rejected", "accepted", "rejected"]
    assert set(results[0]["errors"]) == {"id", "text"}
    assert "Auto não encontrado" in results[2]["errors"]["auto_id"][0]


def test_the_decision_goes_back_to_the_operator(app, client, world):
    from server.core.clock import local_today
    _serve(app, world["case_id"], local_today())
    [result] = _push(client, world, _filing(world))
    clerk = app.test_client()
    login(clerk, "backoffice.paranatinga")
    path = f"/autos/{world['case_id']}/processo"
    from server.modules.autos.process_models import AutoAppeal
    with app.app_context():
        appeal_id = AutoAppeal.query.one().id
    decided = clerk.post(f"{path}/decisao", data={
        "csrf_token": csrf_token(clerk, path), "appeal_id": appeal_id, "decision": "indeferido",
        "decided_on": local_today().isoformat(), "decision_text": "As fotos do fiscal mostram o passageiro."})
    assert decided.status_code == 303
    [auto] = client.get("/api/v1/operator/autos", headers=world["headers"]).json["autos"]
    [filing] = auto["process"]["filings"]
    assert filing["decision"] == "indeferido" and filing["decision_text"].startswith("As fotos")
    decision = [n for n in auto["notices"] if n["kind"] == "decisao"]
    assert decision and "Indeferido" in decision[0]["body"] and decision[0]["nature"] == "aviso"
    # Paranatinga art. 48: the second instance (Prefeito) is open now.
    assert auto["process"]["filing"]["open"] is True and auto["process"]["filing"]["level"] == 2
    assert result["receipt"]["protocol"] in [f["protocol"] for f in auto["process"]["filings"]]
