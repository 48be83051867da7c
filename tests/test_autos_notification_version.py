"""The notificação prints the auto as it stands (issue 34, item 3): a place corrected in review
reaches the auto's field "Local, data e hora" (which the phone had joined with the old place), the
PDF says the auto was corrected (version and date) and what the signed original said, the signed
original stays version 0; once notified, the auto is no longer corrected (the operator holds that
version). Each law's step is named as the law names it: Paranatinga grants a "recurso"."""
import json
import re
import shutil
import subprocess

import pytest

from autos_process_helpers import INFRACTION, ensure_key, first_operator_and_permit
from fieldsync_device import FakeDevice, sha256_hex
from helpers import csrf_token, login

SIGNED_PLACE = "Av. Brasil, em frente ao nº 100"
CORRECTED_PLACE = "Rua Goiás, 45, esquina com a Av. Brasil"


def _phone_auto(app, client, slug):
    """An auto as the phone writes one: the source texts (auto_sources) and every field's joined
    value (auto_fields), the place among them."""
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.operations import decide
    from server.rules import auto_form, load_municipality
    ensure_key(app, slug)
    phone = FakeDevice(client, f"fiscal.{slug}")
    operator_id, permit_number, _ = first_operator_and_permit(app, slug)
    inf_id, citation, amount, brl = INFRACTION[slug]
    atoms = {"place": SIGNED_PLACE, "date_time": local_today().strftime("%d/%m/%Y 10:00"),
             "subject_name": "Condutor do cadastro", "permit_number": f"nº {permit_number}", "plate": "placa QBX1A23",
             "infractions_typification": "Infração da lei municipal", "infractions_description": "Infração da lei municipal",
             "infractions_provision": "Lei municipal", "infractions_remedy": "Sanar: infração da lei municipal",
             "agency": "Prefeitura Municipal", "agent": "Fiscal de teste", "agent_signature": "Assinado pelo autuante no aparelho",
             "operator_signature": "O autuado recusou-se a assinar", "defence_deadline": "", "observations": ""}
    groups = auto_form(load_municipality(slug), local_today().isoformat(), atoms)
    item = phone.auto(phone.reserve(1)[0], operator_id=operator_id, permit_number=permit_number, plate="QBX1A23",
                      place=SIGNED_PLACE, auto_sources=atoms,
                      auto_fields={i: g["value"] for g in groups for i in g["ids"]},
                      infractions=[{"id": inf_id, "citation": citation, "amount": amount, "amount_brl": brl,
                                    "decision": "confirmed", "removal_reason": None, "label_pt": "Infração da lei municipal"}],
                      signatures={"fiscal": sha256_hex("f"), "operator": None, "operator_refused": True})
    assert phone.push([item]).status_code == 200
    with app.app_context():
        case = AutoCase.query.filter_by(record_id=item["id"]).one()
        assert any(SIGNED_PLACE in v for v in json.loads(case.record.body)["auto_fields"].values())
        decide(case, "auto_homologate", "Conferido com as fotos do fiscal.")
        db.session.commit()
        return case.id, item["id"]


def _pdf_text(client, case_id, tmp_path):
    response = client.get(f"/autos/{case_id}/notificacao.pdf")
    assert response.status_code == 200
    path = tmp_path / f"notificacao-{case_id}.pdf"
    path.write_bytes(response.data)
    return " ".join(subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True,
                                   text=True).stdout.split())


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_a_corrected_place_reaches_the_notificacao_with_its_version_note(app, client, demo, tmp_path):
    case_id, record_id = _phone_auto(app, client, "paranatinga")
    login(client, "backoffice.paranatinga")
    page = f"/bo/revisao/registros/{record_id}"
    corrected = client.post(f"{page}/correcao", data={"csrf_token": csrf_token(client, page), "place": CORRECTED_PLACE,
                                                      "reason": "Local transcrito errado; confere com o GPS e a foto."})
    assert corrected.status_code == 302, corrected.get_data(as_text=True)[:300]
    process = f"/autos/{case_id}/processo"
    issued = client.post(f"{process}/notificar", data={"csrf_token": csrf_token(client, process)})
    assert issued.status_code == 303, issued.get_data(as_text=True)[:300]
    text = _pdf_text(client, case_id, tmp_path)
    assert re.search(r"Auto corrigido na revisão — versão 1, de \d\d/\d\d/\d{4}", text), text
    assert f"Original: {SIGNED_PLACE} Corrigido: {CORRECTED_PLACE}" in text
    # The auto's own field prints the corrected place; the signed one only in the version note.
    fields = text.split("Dados do auto de infração", 1)[1]
    assert CORRECTED_PLACE in fields and SIGNED_PLACE not in fields
    assert text.count(SIGNED_PLACE) == 1
    # Paranatinga's law grants a recurso (art. 48): the section is named so, never "defesa".
    assert "Recurso 1ª instância" in text and "Defesa e recurso" not in text
    # The process page and the public check say which version the notificação prints.
    assert "Corrigido na revisão: versão 1" in client.get(process).get_data(as_text=True)
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_models import AutoNotification
    from server.modules.autos import versions
    with app.app_context():
        note = AutoNotification.query.filter_by(case_id=case_id).one()
        code = note.payload.rsplit("/N/", 1)[1]
        history = versions.history(db.session.get(AutoCase, case_id))
        assert [h["n"] for h in history] == [0, 1] and history[0]["data"]["place"] == SIGNED_PLACE
    public = client.get(f"/N/{code}").get_data(as_text=True)
    assert "Auto corrigido na revisão — versão 1" in public and "Recurso: prazos" in public
    # Notified: a further correction would leave the operator with an auto the municipality no
    # longer holds. Refused, saying why; the review page offers no correction form.
    again = client.post(f"{page}/correcao", data={"csrf_token": csrf_token(client, page), "place": "Outro lugar",
                                                  "reason": "Mais uma correção depois da notificação."})
    assert again.status_code == 409 and "já foi notificado" in again.get_data(as_text=True)
    review = client.get(page).get_data(as_text=True)
    assert 'id="correction-closed"' in review and "Registrar correção" not in review


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_an_uncorrected_auto_prints_as_signed_without_a_version_note(app, client, demo, tmp_path):
    case_id, _ = _phone_auto(app, client, "nortelandia")
    login(client, "backoffice.nortelandia")
    process = f"/autos/{case_id}/processo"
    assert client.post(f"{process}/notificar", data={"csrf_token": csrf_token(client, process)}).status_code == 303
    text = _pdf_text(client, case_id, tmp_path)
    assert "corrigido" not in text.lower() and text.count(SIGNED_PLACE) == 1
    assert "Recurso 1ª instância" in text  # Nortelândia art. 16: recurso ao Prefeito
