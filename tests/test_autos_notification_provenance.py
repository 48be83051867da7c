"""The notificação says how the checklist was answered (issue 34 item 1): under each infraction the
answers it rests on with how each was given (item by item, with its time), and for the stop the
counts (item by item, by group declaration after the items were shown, registry, não se aplica),
with the reading that a group declaration only ever states compliance. An auto from a phone on an
earlier app says the form of its answers was not recorded. Read from the PDF with pdftotext."""
import re
import shutil

import pytest

from autos_process_helpers import _auto_fields, ensure_key, first_operator_and_permit
from fieldsync_device import FakeDevice, sha256_hex
from helpers import login
from test_autos_notification_words import _configure_sapezal, _content, _notify, _pdf_text

AT = "2026-11-30T14:03:12.000Z"  # 10:03:12 in Cuiabá
HELMET = {"id": "sap.inf.capacete_condutor", "citation": {"law": "L125", "art": "16", "inciso": "I"}, "amount": None,
          "amount_brl": None, "decision": "confirmed", "removal_reason": None,
          "grounds": [{"fact": "driver.helmet", "value": False, "how": "item", "at": AT}]}
COUNTS = {"item": 2, "quick": 1, "group": 26, "declarations": 3, "registry": 11, "not_checked": 0, "not_applicable": 9}


def _homologated(app, client, infractions, **fields):
    """A Sapezal auto pushed by a phone and homologated (`fields`: more of the signed body)."""
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.operations import decide
    ensure_key(app, "sapezal")
    phone = FakeDevice(client, "fiscal.sapezal")
    operator_id, permit_number, _ = first_operator_and_permit(app, "sapezal")
    item = phone.auto(phone.reserve(1)[0], operator_id=operator_id, permit_number=permit_number, plate="QBX1A23",
                      place="Av. Brasil, 100", auto_fields=_auto_fields(app, "sapezal", permit_number),
                      infractions=infractions, **fields,
                      signatures={"fiscal": sha256_hex("f"), "operator": None, "operator_refused": True})
    assert phone.push([item]).status_code == 200
    with app.app_context():
        case = AutoCase.query.filter_by(record_id=item["id"]).one()
        decide(case, "auto_homologate", "Fatos confirmados pelas fotos do fiscal.")
        db.session.commit()  # the test plays the request that would have committed it
        return case.id


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_the_notification_says_what_each_infraction_rests_on_and_how(app, client, demo, tmp_path):
    case_id = _homologated(app, client, [HELMET], checklist_how=COUNTS)
    _configure_sapezal(app)
    login(client, "backoffice.sapezal")
    _notify(client, case_id)
    flat = re.sub(r"\s+", " ", _pdf_text(client, case_id, tmp_path))
    assert "Constatação: O condutor está de capacete? — Não (item a item, às 10:03:12)." in flat
    assert ("Respostas do checklist: 2 resposta(s) item a item; 1 número(s) conforme(s) sem contar ou medir; 26 por "
            "3 declaração(ões) de grupo após exibir os itens; 11 do cadastro; 9 item(ns) não se aplica(m).") in flat
    assert "só registra conformidade" in flat
    content = _content(app, case_id)
    assert content["infractions"][0]["grounds"] == ["O condutor está de capacete? — Não (item a item, às 10:03:12)"]
    assert content["answers_how"]["recorded"] is True


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_an_auto_of_an_earlier_app_says_the_form_was_not_recorded(app, client, demo, tmp_path):
    old = {k: v for k, v in HELMET.items() if k != "grounds"}
    case_id = _homologated(app, client, [old])
    _configure_sapezal(app)
    login(client, "backoffice.sapezal")
    _notify(client, case_id)
    flat = re.sub(r"\s+", " ", _pdf_text(client, case_id, tmp_path))
    assert "Respostas do checklist: forma de resposta não registrada (aplicativo anterior)." in flat
    assert "Constatação:" not in flat and "só registra conformidade" not in flat
