"""The operator's signed copy says how the checklist was answered (issue 34 item 1): decoded with
zxing-cpp from the fiscal's 390×844 screen (network cut), the copy opens in a fresh browser and
shows, signed with the rest, under each infraction what it rests on ("constatada em resposta dada
item a item") and the counts (item by item, by group declaration after the items were shown, não
se aplica); the PDF made on the phone says the same. A copy from an earlier app (no such text)
says the form was not recorded."""
import subprocess
from io import BytesIO

from PIL import Image
from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import check_screen, enroll
from .helpers import wait_for_service_worker
from .test_operator_copy import ISSUE, _decode

HOW = {"item": 2, "quick": 1, "group": 26, "declarations": 3, "registry": 11, "not_checked": 0, "not_applicable": 9}
# The same auto as test_operator_copy's, with what the auto screen adds since issue 34: each
# confirmed infraction's grounds and the counts.
ISSUE_WITH_HOW = ISSUE.replace(
    "removal_reason: decision === 'removed' ? 'Não se aplica' : null })",
    "removal_reason: decision === 'removed' ? 'Não se aplica' : null, grounds: [{ fact: 'driver.helmet', value: false, how: 'item', at: new Date().toISOString() }] })",
).replace("public_token: randomToken(32),", f"public_token: randomToken(32), checklist_how: {HOW},".replace("'", '"'))


def _issue_and_read(browser, live_server, script, tag):
    phone = browser.new_context(viewport=PHONE, device_scale_factor=1, locale="pt-BR",
                                timezone_id="America/Cuiaba", service_workers="allow", bypass_csp=True)
    page = phone.new_page()
    enroll(page, live_server, "2468", f"Celular {tag}")
    wait_for_service_worker(page)
    phone.set_offline(True)
    auto = page.evaluate(script, {"operatorId": None, "permitNumber": "001/2026"})
    page.goto(f"{live_server}/app/#/fiscal/auto-emitido?id={auto['id']}")
    qr = page.locator("#auto-qr svg")
    expect(qr).to_be_visible()
    version = (int(qr.get_attribute("data-modules")) - 17) // 4
    qr.scroll_into_view_if_needed()
    url = _decode(page.screenshot()).text
    return phone, page, auto, url, version


def test_the_copy_carries_how_the_answers_were_given(browser, live_server, live_app, tmp_path):
    assert "grounds" in ISSUE_WITH_HOW and "checklist_how" in ISSUE_WITH_HOW  # the test's own auto changed
    phone, page, auto, url, version = _issue_and_read(browser, live_server, ISSUE_WITH_HOW, "com respostas")
    print(f"\nQR version {version} with the answers' text, {len(url)} characters")
    assert version <= 15, version
    with page.expect_download() as download:
        page.locator("#share-copy").click()
    pdf = tmp_path / "copy.pdf"
    download.value.save_as(pdf)
    text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout.split())
    assert "(constatada em resposta dada item a item)" in text
    assert "Respostas do checklist: 2 resposta(s) dada(s) item a item" in text
    phone.close()

    operator = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pt-BR", timezone_id="America/Cuiaba",
                                   bypass_csp=True)  # axe-core is injected as a script tag
    copy_page = operator.new_page()
    copy_page.goto(url)
    expect(copy_page.locator("#copy-verdict")).to_contain_text("Cópia assinada")
    grounds = copy_page.locator("#copy-infractions .copy-ground")
    expect(grounds).to_have_count(3)  # one per confirmed infraction of the test's auto
    expect(grounds.first).to_have_text(" (constatada em resposta dada item a item)")
    how = copy_page.locator("#copy-answers-how")
    expect(how).to_contain_text("2 resposta(s) dada(s) item a item; 1 número(s) declarado(s) conforme(s) sem contar; "
                                "26 declarada(s) conforme(s) em 3 grupo(s), depois de exibidos os itens; 11 do cadastro; "
                                "9 item(ns) que não se aplica(m)")
    expect(how).to_contain_text("Uma declaração de grupo só registra conformidade")
    how.scroll_into_view_if_needed()
    check_screen(copy_page, "operator-copy-answers-how")
    operator.close()


def test_a_copy_of_an_earlier_app_says_the_form_was_not_recorded(browser, live_server, live_app):
    phone, _page, _auto, url, _version = _issue_and_read(browser, live_server, ISSUE, "sem respostas")
    phone.close()
    operator = browser.new_context(viewport=PHONE, locale="pt-BR", timezone_id="America/Cuiaba")
    copy_page = operator.new_page()
    copy_page.goto(url)
    expect(copy_page.locator("#copy-verdict")).to_contain_text("Cópia assinada")
    expect(copy_page.locator("#copy-answers-how")).to_have_text("Forma das respostas do checklist não registrada nesta cópia.")
    expect(copy_page.locator("#copy-infractions .copy-ground")).to_have_count(0)
    assert Image.open(BytesIO(copy_page.screenshot())).size[0] == PHONE["width"]
    operator.close()
