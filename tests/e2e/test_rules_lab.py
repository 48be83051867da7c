"""Laws as data in a real browser (issue 38), on the rules lab server (conftest: the full demo with
the synthetic example municipality, and the amendment TEST FIXTURE published beside the shipped
packs):
- Serra Azul do Norte, a law encoded by the guide and tools only, end to end: crachá, scan,
  checklist, auto, sync, review, notificação — marked as a synthetic example throughout;
- an amendment of a real law applied by date on the phone, which holds the new wording before it
  is in force and switches at the date with no sync (Playwright's clock is the phone's), then on
  the server's review and in the notificação."""
import json
import shutil
import subprocess
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import expect

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from .fiscal_helpers import check_screen, enroll, shot, write_y4m
from .helpers import SCREEN_SCALE, backoffice_login, save_png, save_shot, serious_violations, wait_for_service_worker

EXAMPLE = "serra-azul-do-norte"
CUIABA = timezone(timedelta(hours=-4))


def _context(browser, permissions=("camera", "geolocation")):
    return browser.new_context(viewport=PHONE, device_scale_factor=SCREEN_SCALE, locale="pt-BR", timezone_id="America/Cuiaba",
                               service_workers="allow", permissions=list(permissions),
                               geolocation={"latitude": -13.54, "longitude": -58.81, "accuracy": 12},
                               bypass_csp=True)  # axe-core is injected as a script tag


def _page(context, errors):
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    return page



def _sign(page, selector, amplitude=20):
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + box["height"] / 2)
    page.mouse.down()
    for step in range(1, 12):
        page.mouse.move(box["x"] + 20 + step * 25, box["y"] + box["height"] / 2 + (-1) ** step * amplitude)
    page.mouse.up()


def _answer(page, fact, label):
    page.locator(f'fieldset[data-fact="{fact}"]').get_by_text(label, exact=True).click()


def _issue_auto(page, place):
    """From the result screen: confirm every proposal, fill the auto, sign it."""
    expect(page.locator("#result-summary")).to_be_visible()
    proposals = page.locator("#proposals article")
    for index in range(proposals.count()):
        proposals.nth(index).get_by_text("Confirmar", exact=True).click()
    page.locator("#go-auto").click()
    expect(page.locator("#sign-auto")).to_be_visible()
    page.fill("#place", place)
    for field in page.locator('input[id^="af-"]').all():
        if not field.input_value():
            field.fill("Conforme constatado")
    no_gps = page.get_by_role("combobox", name="Motivo de estar sem GPS")
    if no_gps.count():
        no_gps.select_option(label="Permissão de localização negada")
    _sign(page, "#sig-fiscal")
    _sign(page, "#sig-operator", amplitude=35)
    page.locator("#sign-auto").click()
    expect(page.locator("#auto-qr svg")).to_be_visible()


def _sync(page, url, count):
    page.goto(f"{url}/app/#/fiscal/hoje")
    page.locator("#sync-now").click()
    expect(page.locator('#today-list li[data-state="enviado"]')).to_have_count(count, timeout=60000)


def _pdf_text(pdf_bytes, tmp_path):
    path = tmp_path / "notificacao.pdf"
    path.write_bytes(pdf_bytes)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def _homologate_and_notify(browser, url, username, record_id):
    """The clerk homologates the auto in Revisão and issues its notificação; returns its PDF."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="pt-BR", bypass_csp=True)
    page = context.new_page()
    backoffice_login(page, url, username)
    page.goto(f"{url}/bo/revisao/registros/{record_id}")
    page.fill("#reason", "Fatos conferidos com as fotos e a assinatura do fiscal.")
    page.get_by_role("button", name="Homologar").click()
    page.get_by_role("link", name="Notificação, defesa e penalidades deste auto").click()
    page.get_by_role("button", name="Emitir notificação").click()
    expect(page.get_by_role("link", name="Abrir a notificação (PDF)")).to_be_visible()
    href = page.get_by_role("link", name="Abrir a notificação (PDF)").get_attribute("href")
    pdf = page.request.get(url + href if href.startswith("/") else href)
    assert pdf.ok
    return context, page, pdf.body()


# --- Serra Azul do Norte end to end ------------------------------------------------------------

@pytest.fixture
def example_cracha(lab_app):
    """An active permit of the example, its crachá signed by the server, and the printed card."""
    from server.extensions import db
    from server.modules.credentials.operations import card_data, issue_credential
    from server.modules.credentials.render import card_png_bytes
    from server.modules.registry.models import Municipality, Permit

    with lab_app.app_context():
        muni = Municipality.query.filter_by(slug=EXAMPLE).one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        credential = issue_credential(permit, reason="teste do laboratório de regras")
        db.session.commit()  # as the back office's request
        return {"png": card_png_bytes(card_data(credential)), "permit_number": permit.number, "plate": permit.vehicle.plate}


def test_the_synthetic_example_runs_end_to_end(browser, lab_server, lab_app, example_cracha, tmp_path):
    from server.modules.fieldsync.models import FieldRecord

    video = write_y4m(example_cracha["png"], tmp_path / "cracha.y4m")
    camera = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + [
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
    errors = []
    context = _context(camera)
    page = _page(context, errors)
    enroll(page, lab_server, "2468", "Celular do laboratório", username=f"fiscal.{EXAMPLE}", timeout=60000)
    wait_for_service_worker(page)
    # Marked as an example on the phone, too.
    expect(page.locator("#example-municipality")).to_contain_text("Exemplo fictício")
    check_screen(page, "lab-example-home")

    page.locator("#go-scan").click()
    expect(page.locator("#verdict-word")).to_have_text("VÁLIDO", timeout=30000)
    expect(page.locator("#verdict-permit")).to_have_text(example_cracha["permit_number"])
    check_screen(page, "lab-example-verdict")
    page.locator("#start-checklist").click()
    expect(page.locator("#checklist fieldset").first).to_be_visible()
    # The checklist is the law's: the questions its pack declares, citing Lei 412/2015.
    _answer(page, "driver.vest", "Conforme")
    expect(page.locator('fieldset[data-fact="driver.vest_permit_number"]')).to_be_visible()
    _answer(page, "driver.carries_fare_table", "Não conforme")
    _answer(page, "equipment.passenger_footrests", "Não conforme")
    expect(page.locator("#checklist")).to_contain_text("Lei 412/2015")
    check_screen(page, "lab-example-checklist")

    page.locator("#go-result").click()
    expect(page.locator("#result-summary")).to_be_visible()
    fare = page.locator('#proposals article[data-infraction="saz.inf.art17_i"]')
    footrests = page.locator('#proposals article[data-infraction="saz.inf.art19_i"]')
    expect(fare).to_contain_text("Lei 412/2015, art. 17, inciso I")
    expect(fare).to_contain_text("R$ 25,00")            # 5 UFM at the demo's (fictional) R$ 5,00
    expect(footrests).to_contain_text("R$ 100,00")      # Group C, 20 UFM
    expect(footrests).to_contain_text("Retenção da moto no local")
    check_screen(page, "lab-example-result")
    _issue_auto(page, "Praça da Matriz, em frente à igreja")
    check_screen(page, "lab-example-auto-issued")
    _sync(page, lab_server, 2)
    shot(page, "lab-example-sent")

    from server.modules.registry.models import Municipality
    with lab_app.app_context():
        muni_id = Municipality.query.filter_by(slug=EXAMPLE).one().id
        auto = FieldRecord.query.filter_by(kind="auto", municipality_id=muni_id).one()
        body = json.loads(auto.body)
        assert auto.flags == [] and {i["id"] for i in body["infractions"]} == {"saz.inf.art17_i", "saz.inf.art19_i"}
        record_id = auto.id
    office, office_page, pdf = _homologate_and_notify(camera, lab_server, f"backoffice.{EXAMPLE}", record_id)
    expect(office_page.locator(".example-banner")).to_contain_text("Exemplo fictício")
    save_shot(office_page, "lab-example-process")
    assert not serious_violations(office_page)
    if shutil.which("pdftoppm"):  # the printed notificação, for a person to look at
        (tmp_path / "n.pdf").write_bytes(pdf)
        subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", str(tmp_path / "n.pdf"), str(tmp_path / "n")], check=True)
        save_png("lab-example-notificacao", next(tmp_path.glob("n-*.png")).read_bytes())
        save_png("lab-example-cracha", example_cracha["png"])
    if shutil.which("pdftotext"):
        text = " ".join(_pdf_text(pdf, tmp_path).split())
        assert "EXEMPLO FICTÍCIO" in text and "SERRA AZUL DO NORTE (EXEMPLO FICTÍCIO)" in text
        assert "Lei 412/2015, art. 17, I" in text and "Lei 412/2015, art. 19, I" in text
        assert "Defesa prévia ao Diretor do DEMUTRAN" in text or "Diretor do DEMUTRAN" in text
    office.close()
    context.close()
    camera.close()
    assert not errors, errors


# --- An amendment applied by date on the phone ---------------------------------------------------

def _plate_of_a_paranatinga_permit(lab_app):
    from server.modules.registry.models import Municipality, Permit
    with lab_app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        permit = next(p for p in Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id)
                      if p.valid_from <= datetime(2026, 2, 28).date() and p.main_driver is not None)
        return permit.vehicle.plate


def _enrolled_before_the_amendment(lab_app):
    """The phone was enrolled in January (its clock, set in February and March, is judged
    against that, as a phone in service for months would be)."""
    from server.extensions import db
    from server.modules.accounts.models import Device
    with lab_app.app_context():
        device = Device.query.order_by(Device.id.desc()).first()
        device.registered_at = datetime(2026, 1, 5, 12, tzinfo=timezone.utc)
        db.session.commit()


def _inspect_by_plate(page, url, plate):
    page.goto(f"{url}/app/#/fiscal/buscar")
    page.fill("#search-text", plate)
    page.get_by_role("button", name="Buscar").click()
    page.locator("#start-checklist").click()
    expect(page.locator("#checklist fieldset").first).to_be_visible()


def _unlock(page):
    """After a night, the phone asks for the PIN: the fiscal unlocks it."""
    page.wait_for_function("() => location.hash.includes('/fiscal/pin') || !!document.querySelector('#go-scan')")
    if page.locator("#pin").count():
        page.fill("#pin", "2468")
        page.get_by_role("button", name="Desbloquear").click()


def test_an_amendment_applies_by_date_on_the_phone_without_a_sync(browser, lab_server, lab_app, tmp_path):
    from server.modules.autos.models import AutoCase
    from server.modules.autos.notification_content import build_content
    from server.modules.autos.operations import decide
    from server.modules.fieldsync.models import FieldRecord
    from server.modules.registry.models import Municipality
    from server.modules.review.reevaluation import server_evaluation

    plate = _plate_of_a_paranatinga_permit(lab_app)
    errors = []
    # No GPS: a fix carries the satellites' (real) time, which the phone's moved clock would not
    # match (the server flags that as clock drift, rightly).
    context = _context(browser, permissions=())
    # The phone's clock: the day before the amendment (in force on 01/03/2026).
    context.clock.install(time=datetime(2026, 2, 28, 9, 0, tzinfo=CUIABA))
    page = _page(context, errors)
    enroll(page, lab_server, "2468", "Celular do laboratório", username="fiscal.paranatinga", timeout=60000)
    wait_for_service_worker(page)
    _enrolled_before_the_amendment(lab_app)

    # 28/02: the old wording. No chain-guard question; antennas of 65 cm meet the 60 cm rule.
    _inspect_by_plate(page, lab_server, plate)
    expect(page.locator('fieldset[data-fact="equipment.chain_guard"]')).to_have_count(0)
    page.locator('fieldset[data-fact="equipment.antenna_height_cm"] input[type="text"]').fill("65")
    page.locator('fieldset[data-fact="equipment.antenna_height_cm"] input[type="text"]').press("Tab")
    _answer(page, "equipment.mata_cachorro", "Não conforme")
    page.locator("#go-result").click()
    old = page.locator('#proposals article[data-infraction="par.inf.g2_a"]')
    expect(old).to_contain_text("R$ 38,31")            # 36 UFIR × R$ 1,0641
    expect(old).not_to_contain_text("Lei 999/2026")
    shot(page, "lab-amendment-before")
    _issue_auto(page, "Rua Cuiabá, 10")
    _sync(page, lab_server, 2)

    # The network goes; the night passes (the phone's clock only). Nothing is downloaded again.
    context.set_offline(True)
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.clock.set_system_time(datetime(2026, 3, 1, 9, 0, tzinfo=CUIABA))
    page.goto(f"{lab_server}/app/#/fiscal")
    _unlock(page)
    expect(page.locator("#go-scan")).to_be_visible()

    # 01/03: the new wording. The added item is asked; 65 cm now fail the 70 cm rule.
    _inspect_by_plate(page, lab_server, plate)
    chain = page.locator('fieldset[data-fact="equipment.chain_guard"]')
    expect(chain).to_be_visible()
    expect(chain).to_contain_text("incluído pela Lei 999/2026")
    page.locator('fieldset[data-fact="equipment.antenna_height_cm"] input[type="text"]').fill("65")
    page.locator('fieldset[data-fact="equipment.antenna_height_cm"] input[type="text"]').press("Tab")
    _answer(page, "equipment.chain_guard", "Não conforme")
    check_screen(page, "lab-amendment-after-checklist")
    page.locator("#go-result").click()
    new = page.locator('#proposals article[data-infraction="par.inf.g2_a"]')
    expect(new).to_contain_text("R$ 42,56")            # 40 UFIR, the amended amount
    expect(new).to_contain_text("redação dada pela Lei 999/2026, art. 2")
    shot(page, "lab-amendment-after")
    assert not [u for u in requests if "/api/v1/" in u], "the phone switched with no sync"
    _issue_auto(page, "Rua Cuiabá, 10")

    context.set_offline(False)
    _sync(page, lab_server, 2)  # "Hoje" lists the day's records: the new day's two
    context.close()
    assert not errors, errors

    with lab_app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        autos = FieldRecord.query.filter_by(kind="auto", municipality_id=muni.id).order_by(FieldRecord.device_at).all()[-2:]
        contents = []
        for auto in autos:
            assert auto.flags == [], auto.flags
            body = json.loads(auto.body)
            inspection = FieldRecord.query.filter_by(id=body["inspection_id"]).one()
            server = server_evaluation(muni, inspection, json.loads(inspection.body))["result"]
            g2a = next(i for i in server["infractions"] if i["id"] == "par.inf.g2_a")
            contents.append((g2a, body))
            case = AutoCase.query.filter_by(record_id=auto.id).one()
            decide(case, "auto_homologate", "Fatos conferidos com as fotos do fiscal.")
            contents[-1] += (build_content(case, 1, datetime(2026, 3, 5).date()),)
    (old_server, old_body, old_note), (new_server, new_body, new_note) = contents
    assert old_server["amount"]["value"] == 36 and "amended_by" not in old_server["citation"]
    assert new_server["amount"]["value"] == 40 and new_server["citation"]["amended_by"] == {"law": "L999", "art": "2"}
    def g2a(items):
        return next(i for i in items if i["id"] == "par.inf.g2_a")
    # What the phone signed: the amount and the wording of each day.
    assert g2a(old_body["infractions"])["amount"]["value"] == 36 and "amended_by" not in g2a(old_body["infractions"])["citation"]
    assert g2a(new_body["infractions"])["amount"]["value"] == 40
    assert g2a(new_body["infractions"])["citation"]["amended_by"] == {"law": "L999", "art": "2"}
    # The notificação of each cites the wording it applied.
    assert g2a(old_note["infractions"])["citation"] == "Lei 311/2007, art. 50, II, alínea “a”"
    assert g2a(new_note["infractions"])["citation"].endswith("(redação dada pela Lei 999/2026, art. 2º)")
    assert old_note["instances"][0]["days"] == 3
    assert new_note["instances"][0]["days"] == 10 and "fixado por Decreto nº 50/2026" in new_note["instances"][0]["deadline"]


# --- The back office's preview of a draft pack ----------------------------------------------------

def test_the_draft_preview_as_the_clerk_sees_it(browser, lab_server):
    from .conftest import AMENDMENTS

    for size in ({"width": 1280, "height": 800}, PHONE):
        context = browser.new_context(viewport=size, locale="pt-BR", bypass_csp=True)
        page = context.new_page()
        backoffice_login(page, lab_server, "backoffice.paranatinga")
        page.goto(f"{lab_server}/bo/regras/rascunho")
        page.set_input_files("#pack_file", str(next(AMENDMENTS.glob("*.json"))))
        page.fill("#date", "2026-03-01")
        page.get_by_role("button", name="Conferir e ver a prévia").click()
        expect(page.locator("#draft-problems")).to_contain_text("Nenhum problema encontrado.")
        page.locator('tr[data-fact="equipment.chain_guard"] select').select_option(label="Não conforme")
        page.get_by_role("button", name="Avaliar estas respostas").click()
        expect(page.locator("#draft-infractions")).to_contain_text("40 UFIR = R$ 42,56")
        assert not serious_violations(page), serious_violations(page)
        width, window = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width <= window, f"sideways scroll at {size['width']}px"
        save_shot(page, f"lab-draft-preview-{size['width']}", full_page=True)
        context.close()
