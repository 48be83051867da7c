"""After the stop, in headless Chromium (issue 37): the operator files a recurso with a photo while
offline; it is kept on the phone through a reload and protocolled once when the signal returns;
the clerk sees it in the process, tempestiva by the legal calendar, and decides it; the operator
is told in the app and by e-mail (a real SMTP server on loopback). The fine's PIX code on the
operator's page is read by zxing-cpp and accepted by pix-utils. Every new screen is looked at at
390×844 (operator) or 1280×800 (back office) with axe-core: no serious or critical violation."""
import hashlib
import io
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from playwright.sync_api import expect

from .helpers import backoffice_login, save_shot, screen_problems, wait_for_service_worker

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LAPTOP = {"width": 1280, "height": 800}


def _photo_bytes():
    image = Image.new("RGB", (1200, 900), (200, 200, 190))
    draw = ImageDraw.Draw(image)
    draw.rectangle((300, 300, 900, 600), fill=(40, 40, 40))
    draw.text((420, 430), "QBX1A23", fill=(255, 255, 255))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


def _case(live_app, served_days_ago):
    """A homologated Paranatinga auto against the first active permit's driver, notified and
    served `served_days_ago` days ago (Lei 311/2007 art. 48: 3 days to appeal)."""
    from autos_process_helpers import backdate_notification, homologated_case
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_operations import issue_notification, record_service
    case_id, _ = homologated_case(live_app, live_app.test_client(), "paranatinga")
    with live_app.app_context():
        issue_notification(db.session.get(AutoCase, case_id))
        db.session.commit()  # the test plays the request that would have committed it
    served = local_today() - timedelta(days=served_days_ago)
    backdate_notification(live_app, case_id, served - timedelta(days=1))
    with live_app.app_context():
        case = db.session.get(AutoCase, case_id)
        record_service(case, "postal_ar", served.isoformat(), "AR JT123456789BR")
        db.session.commit()
        return {"case_id": case_id, "record_id": case.record_id, "number": case.number,
                "operator_id": case.record.operator_id}


def _access(live_app, operator_id):
    from server.extensions import db
    from server.modules.operator_portal.operations import create_operator_access
    from server.modules.registry.models import Operator
    with live_app.app_context():
        code = create_operator_access(db.session.get(Operator, operator_id))
        db.session.commit()
        return code


def _contact(live_app, operator_id, email):
    from server.extensions import db
    from server.modules.notices.operations import save_contact
    from server.modules.registry.models import Operator
    with live_app.app_context():
        save_contact(db.session.get(Operator, operator_id), {"email": email})
        db.session.commit()  # the back office's request would commit it


def _look(page, name, problems):
    save_shot(page, name, full_page=True)
    found = screen_problems(page)
    if found:
        problems[name] = found


def _first_access(page, live_server, code):
    page.goto(f"{live_server}/app/#/operador/entrar?m=paranatinga&c={code}")
    expect(page.locator("#access-code")).to_have_value(code)
    page.get_by_role("button", name="Entrar").click()
    expect(page.locator("#badge-name")).to_be_visible()
    wait_for_service_worker(page)


@pytest.fixture
def smtp(live_app):
    from smtp_server import SmtpServer
    server = SmtpServer().start()
    saved = {k: live_app.config.get(k) for k in server.config()}
    live_app.config.update(server.config())
    yield server
    live_app.config.update(saved)  # the live app is shared by every browser test of this worker
    server.stop()


def test_an_offline_recurso_with_a_photo_arrives_once_is_decided_and_the_operator_is_told(
        page, context, browser, live_server, live_app, smtp):
    from server.modules.autos.process_models import AutoAppeal, FilingAttachment
    from server.modules.notices.jobs import send_due
    auto = _case(live_app, served_days_ago=0)  # served today: the recurso is timely
    _contact(live_app, auto["operator_id"], "mototaxista@exemplo.test")
    problems = {}

    _first_access(page, live_server, _access(live_app, auto["operator_id"]))
    page.get_by_role("button", name="Minhas autuações").click()
    expect(page.locator("#autos-list")).to_be_visible()
    _look(page, "operator-autos-list", problems)
    page.get_by_role("button", name=f"Abrir o auto nº {auto['number']}").click()
    expect(page.locator("#file-step")).to_be_visible()
    _look(page, "operator-auto", problems)

    # No signal from here: the recurso is written, a photo attached, and sent into the outbox.
    context.set_offline(True)
    page.locator("#file-step").click()
    expect(page.locator("#filing-text")).to_be_visible()
    page.fill("#filing-text", "Recorro do auto: a placa anotada não é a da minha moto, como mostra a foto.")
    page.set_input_files("#filing-file", files=[{"name": "placa.jpg", "mimeType": "image/jpeg", "buffer": _photo_bytes()}])
    expect(page.locator("#filing-files li")).to_have_count(1)
    expect(page.locator("#filing-status")).to_contain_text("Rascunho salvo")
    _look(page, "operator-filing-offline", problems)
    page.locator("#filing-send").click()
    expect(page.get_by_text("Pedido guardado neste celular")).to_be_visible()
    page.reload()  # the phone keeps it (IndexedDB), the page comes from the service worker
    expect(page.get_by_text("Pedido guardado neste celular")).to_be_visible()
    _look(page, "operator-auto-filing-waiting", problems)
    with live_app.app_context():
        assert AutoAppeal.query.filter_by(case_id=auto["case_id"]).count() == 0

    # Signal back: sent by itself, protocolled once, with its receipt on the screen.
    context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".receipt").filter(has_text="protocolo nº")).to_be_visible(timeout=30000)
    page.evaluate("() => import('./js/data/operator-outbox.js').then((m) => m.syncFilings('again'))")
    with live_app.app_context():
        [appeal] = AutoAppeal.query.filter_by(case_id=auto["case_id"]).all()
        assert appeal.source == "app" and not appeal.late and appeal.drafted_at is not None
        [attached] = appeal.attachments
        stored = FilingAttachment.query.filter_by(municipality_id=appeal.municipality_id,
                                                  sha256=attached["sha256"]).one()
        assert stored.content_type == "image/jpeg"
        protocol, appeal_id = appeal.protocol, appeal.id
    expect(page.locator("#h-filings ~ .receipt").first).to_contain_text(protocol)
    expect(page.locator("#h-filings ~ .receipt").first).to_contain_text("Tempestiva")
    _look(page, "operator-auto-receipt", problems)

    # The clerk sees it in the process at 1280×800, tempestiva by the calendar, and decides it.
    clerk_context = browser.new_context(viewport=LAPTOP, locale="pt-BR", timezone_id="America/Cuiaba")
    clerk = clerk_context.new_page()
    try:
        backoffice_login(clerk, live_server, "backoffice.paranatinga")
        clerk.goto(f"{live_server}/autos/{auto['case_id']}/processo")
        filing = clerk.locator(f"#form-decisao-{appeal_id}")
        expect(filing).to_contain_text(f"Protocolo nº {protocol}, recebido pelo aplicativo")
        expect(filing).to_contain_text("Tempestiva")
        expect(filing.locator(".badge").first).to_have_text("tempestiva")
        with clerk.expect_download() as download:
            filing.get_by_role("link", name="anexo 1").click()
        assert hashlib.sha256(Path(download.value.path()).read_bytes()).hexdigest() == attached["sha256"]
        _look(clerk, "backoffice-process-filing-1280", problems)
        filing.locator("select[name=decision]").select_option("indeferido")
        from server.core.clock import local_today
        filing.locator("input[name=decided_on]").fill(local_today().isoformat())
        filing.locator("textarea[name=decision_text]").fill("As fotos do fiscal mostram a placa QBX1A23 na moto.")
        filing.get_by_role("button", name="Registrar decisão").click()
        clerk.wait_for_load_state("load")
        expect(clerk.locator(f"#form-decisao-{appeal_id}")).to_contain_text("Indeferido")
        clerk.goto(f"{live_server}/bo/avisos/")
        expect(clerk.locator("#notices")).to_contain_text("Decisão de defesa ou recurso")
        _look(clerk, "backoffice-notices-1280", problems)
    finally:
        clerk_context.close()

    # The operator is told: by e-mail (receipt, then decision) and in the app.
    with live_app.app_context():
        send_due()
    subjects = [m["message"]["Subject"] for m in smtp.mailbox.messages]
    assert any(s.startswith(f"Recibo de protocolo nº {protocol}") for s in subjects), subjects
    assert any(s.startswith("Decisão: indeferido") for s in subjects), subjects
    assert all(m["to"] == ["mototaxista@exemplo.test"] for m in smtp.mailbox.messages)
    page.reload()
    expect(page.locator(f'[id="decision-{protocol}"]')).to_contain_text("Indeferido")
    decision = page.locator(".notice-item", has=page.locator("summary", has_text="Decisão de defesa ou recurso"))
    expect(decision).to_be_visible()
    decision.locator("summary").click()
    expect(decision.locator(".notice-text")).to_contain_text("As fotos do fiscal mostram a placa")
    _look(page, "operator-auto-decided", problems)
    assert not problems, problems


def _configure_pix(live_app):
    from server.extensions import db
    from server.modules.collection.settings import save_settings
    from server.modules.registry.models import Municipality
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        before = dict(muni.settings or {})
        save_settings(muni, {"pix_key_type": "cnpj", "pix_key": "11.222.333/0001-81",
                             "pix_receiver_name": "PREF MUN PARANATINGA", "pix_city": "PARANATINGA",
                             "pix_act": "Decreto 31/2026, art. 2º"})
        db.session.commit()  # the test plays the request that would have committed it
        return before


def _restore_settings(live_app, before):
    from server.extensions import db
    from server.modules.registry.models import Municipality
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        muni.settings = before
        db.session.commit()


def test_the_pix_code_on_the_operator_s_page_and_the_back_office_screens(page, browser, live_server, live_app):
    import zxingcpp
    from pix_check import crc_ok, pix_utils_parse
    from server.extensions import db
    from server.modules.collection.reconcile import import_statement
    from server.modules.registry.models import Municipality
    before = _configure_pix(live_app)
    problems = {}
    try:
        auto = _case(live_app, served_days_ago=20)  # the deadline passed: the fine is applied
        from server.modules.collection.models import PixCharge
        with live_app.app_context():
            charge = PixCharge.query.filter_by(case_id=auto["case_id"]).one()
            txid = charge.txid
            muni = Municipality.query.filter_by(slug="paranatinga").one()
            import_statement(muni, f"extrato-{txid}.csv",
                             f"data;valor;historico\n01/02/2026;77,00;PIX RECEBIDO {txid[:6]} SEM TXID\n".encode())
            db.session.commit()  # the test plays the request that would have committed it

        _first_access(page, live_server, _access(live_app, auto["operator_id"]))
        page.goto(f"{live_server}/app/#/operador/auto?id={auto['record_id']}")
        qr = page.locator(f"#pix-{txid} .pix-qr")
        expect(qr).to_be_visible()
        _look(page, "operator-auto-pix", problems)
        [read] = zxingcpp.read_barcodes(Image.open(io.BytesIO(qr.screenshot())), formats=zxingcpp.BarcodeFormat.QRCode)
        copy = page.locator(f"#pix-copy-{txid}").input_value()
        assert read.text == copy and crc_ok(copy)
        parsed = pix_utils_parse(read.text)
        assert parsed.get("txid") == txid and parsed["pixKey"] == "11222333000181", parsed
        page.goto(f"{live_server}/app/#/operador/avisos")
        expect(page.locator("#lgpd")).to_contain_text("LGPD")
        _look(page, "operator-notices-preferences", problems)

        context = browser.new_context(viewport=LAPTOP, locale="pt-BR", timezone_id="America/Cuiaba")
        clerk = context.new_page()
        try:
            backoffice_login(clerk, live_server, "backoffice.paranatinga")
            for path, name in (("/bo/arrecadacao/", "collection-overview"),
                               ("/bo/arrecadacao/configuracao", "collection-settings"),
                               ("/bo/arrecadacao/extratos", "collection-statements"),
                               ("/bo/arrecadacao/pendencias", "collection-queue"),
                               (f"/bo/avisos/operador/{auto['operator_id']}", "notices-contact"),
                               ("/bo/avisos/?situacao=problemas", "notices-problems")):
                clerk.goto(f"{live_server}{path}")
                _look(clerk, f"backoffice-{name}-1280", problems)
            clerk.goto(f"{live_server}/bo/arrecadacao/")
            expect(clerk.locator("#charges")).to_contain_text(txid)
            clerk.goto(f"{live_server}/bo/arrecadacao/pendencias")
            expect(clerk.locator("#pending-lines")).to_contain_text("Crédito sem txid")
            clerk.goto(f"{live_server}/bo/avisos/")
            clerk.locator("#notices a").first.click()
            clerk.wait_for_load_state("load")
            _look(clerk, "backoffice-notice-detail-1280", problems)
        finally:
            context.close()
    finally:
        _restore_settings(live_app, before)
    assert not problems, problems
