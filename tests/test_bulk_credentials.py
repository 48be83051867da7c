"""Crachás in bulk (issue 36, Build 5): every permit in force without a crachá, or the selected
ones, issued as one click per permit would (signed, audited), one PDF of A4 sheets with ten
crachás a page whose QRs decode to the issued payloads, and a report of what was skipped and why.
Scoped to the municipality."""
import math
import shutil
import subprocess

import pytest
import zxingcpp
from PIL import Image

from autos_process_helpers import ensure_key
from helpers import csrf_token, login

from server.core.audit import AuditLog
from server.modules.credentials.bulk import BATCH_MAX, without_current_credential
from server.modules.credentials.models import Credential
from server.modules.registry.models import Municipality, Permit

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) is not installed")


def _issue(client, **data):
    token = csrf_token(client, "/bo/crachas/lote")
    return client.post("/bo/crachas/lote", data={"csrf_token": token, **data})


def _pages(pdf_bytes, tmp_path):
    path = tmp_path / "lote.pdf"
    path.write_bytes(pdf_bytes)
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:"))), path


def _qr_texts(path, tmp_path, page=1):
    subprocess.run(["pdftoppm", "-r", "300", "-png", "-f", str(page), "-l", str(page), str(path),
                    str(tmp_path / "sheet")], check=True)
    [png] = sorted(tmp_path.glob("sheet*.png"))
    found = zxingcpp.read_barcodes(Image.open(png), formats=zxingcpp.BarcodeFormat.QRCode)
    return {f.text for f in found}


def test_all_without_a_crachá_one_pdf_of_a4_sheets_and_a_report(app, client, demo, tmp_path):
    ensure_key(app, "sapezal")
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        eligible = [p.number for p in without_current_credential(muni.id)]
    assert 0 < len(eligible) <= BATCH_MAX
    login(client, "backoffice.sapezal")
    page = client.get("/bo/crachas/lote").get_data(as_text=True)
    assert f"<strong>{len(eligible)}</strong>" in page
    response = _issue(client, scope="todas")
    assert response.status_code == 303
    report_url = response.headers["Location"]
    report = client.get(report_url).get_data(as_text=True)
    assert f'id="issued-count">{len(eligible)}<' in report
    with app.app_context():
        issued = Credential.query.filter_by(municipality_id=muni.id, status="active").all()
        payloads = {c.payload for c in issued}
        assert sorted(c.permit_number for c in issued) == sorted(eligible)
        # Each one audited as a single issuance is, and the batch once with what it did.
        assert AuditLog.query.filter_by(action="credential_issue", municipality_id=muni.id).count() == len(eligible)
        batch = AuditLog.query.filter_by(action="credential_batch", municipality_id=muni.id).one()
        assert sorted(batch.after["issued"]) == sorted(c.serial for c in issued) and batch.after["skipped"] == []
    pdf = client.get(report_url + "/crachas.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    pages, path = _pages(pdf.data, tmp_path)
    assert pages == math.ceil(len(eligible) / 10)
    texts = _qr_texts(path, tmp_path)
    # Every QR of the first sheet is one of the batch's signed payloads, as the phones read them.
    assert texts and texts <= payloads and len(texts) == min(10, len(eligible))
    assert all(t.startswith("HTTP://LOCALHOST:5000/V/") for t in texts)
    # Nothing left: the page says so, and "todas" issues nothing more.
    assert 'id="issue-all"' not in client.get("/bo/crachas/lote").get_data(as_text=True)


def test_selected_permits_skip_with_reasons_and_stay_in_the_municipality(app, client, demo, tmp_path):
    ensure_key(app, "sapezal")
    with app.app_context():
        sapezal = Municipality.query.filter_by(slug="sapezal").one()
        active = [p.id for p in without_current_credential(sapezal.id)][:2]
        inactive = Permit.query.filter(Permit.municipality_id == sapezal.id, Permit.status != "ativo").first()
        other = Permit.query.join(Municipality).filter(Municipality.slug == "paranatinga",
                                                       Permit.status == "ativo").first()
        inactive_number, inactive_id, other_id = inactive.number, inactive.id, other.id
    login(client, "backoffice.sapezal")
    response = _issue(client, scope="selecionadas", permit_id=[str(active[0]), str(inactive_id), str(other_id)])
    assert response.status_code == 303
    report = client.get(response.headers["Location"]).get_data(as_text=True)
    assert 'id="issued-count">1<' in report and inactive_number in report and "Só se emite crachá para" in report
    # Selected again with one that now has a crachá: skipped, said why; the other issued.
    again = client.get(client.post("/bo/crachas/lote", data={
        "csrf_token": csrf_token(client, "/bo/crachas/lote"), "scope": "selecionadas",
        "permit_id": [str(active[0]), str(active[1])]}).headers["Location"]).get_data(as_text=True)
    assert 'id="issued-count">1<' in again and "Já tem crachá ativo" in again
    with app.app_context():
        assert Credential.query.filter_by(permit_id=other_id).count() == 0  # Paranatinga's permit untouched
        batch_id = AuditLog.query.filter_by(action="credential_batch").order_by(AuditLog.id).first().id
    # Another municipality's staff cannot read the batch or its PDF.
    client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")})
    login(client, "backoffice.paranatinga")
    assert client.get(f"/bo/crachas/lote/{batch_id}").status_code == 404
    assert client.get(f"/bo/crachas/lote/{batch_id}/crachas.pdf").status_code == 404
    # Bad input: a clear answer naming the field, never a 500.
    bad = client.post("/bo/crachas/lote", data={"csrf_token": csrf_token(client, "/bo/crachas/lote"),
                                               "scope": "selecionadas", "permit_id": ["abc"]})
    assert bad.status_code == 422
    empty = client.post("/bo/crachas/lote", data={"csrf_token": csrf_token(client, "/bo/crachas/lote"),
                                                 "scope": "selecionadas"})
    assert empty.status_code == 302
    assert "Selecione ao menos uma" in client.get(empty.headers["Location"]).get_data(as_text=True)


def test_anonymous_is_sent_to_login(app, client, demo):
    for path in ("/bo/crachas/lote", "/bo/operadores/fotos/lote", "/bo/primeiro-dia"):
        response = client.get(path)
        assert response.status_code == 302 and "/login" in response.headers["Location"]


def test_sheets_hold_ten_crachás_a_page_in_order(tmp_path):
    from datetime import date

    from server.modules.credentials.render import CardData, cards_sheet_pdf_bytes
    payloads = [f"HTTPS://MOTOFISCAL.SAPEZAL.MT.GOV.BR/V/{'A' * 60}{chr(65 + i % 26)}{chr(65 + i // 26)}" for i in range(23)]
    cards = [CardData("Sapezal", "MT", f"{i + 1:03d}/2026", "JOÃO DA SILVA", "QBX1A23", "Centro", date(2027, 3, 31),
                      i + 1, payload, date(2026, 12, 5)) for i, payload in enumerate(payloads)]
    pages, path = _pages(cards_sheet_pdf_bytes(cards), tmp_path)
    assert pages == 3
    assert _qr_texts(path, tmp_path, page=3) == set(payloads[20:])  # the last three, on the third sheet


def test_the_lists_link_the_bulk_tools(app, client, demo):
    from flask import url_for
    login(client, "backoffice.sapezal")
    with app.test_request_context():
        permits, operators = url_for("backoffice.permit_list"), url_for("backoffice.operator_list")
    assert 'href="/bo/crachas/lote"' in client.get(permits).get_data(as_text=True)
    assert 'href="/bo/operadores/fotos/lote"' in client.get(operators).get_data(as_text=True)
    assert 'href="/bo/operadores/fotos/lote"' not in client.get("/bo/veiculos/").get_data(as_text=True)
