"""The fiscal's roadside journey in a real browser, end to end: enroll online, lose the network
and the server, reload, scan a crachá through the camera, answer the checklist (with a photo),
survive a killed tab, issue an auto with signatures, come back online and find exactly one copy
of every record and photo on the server. axe-core and a screenshot on every screen."""
from io import BytesIO

import pytest
from PIL import Image
from playwright.sync_api import expect

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from .fiscal_helpers import StoppableServer, check_screen, shot, write_y4m
from .helpers import SCREEN_SCALE, wait_for_service_worker

PASSWORD = "demo-motofiscal"


@pytest.fixture
def crachá(live_app, operator_access):
    """An active Sapezal permit with a crachá signed by the server, and its printed PNG."""
    from server.modules.credentials.models import Credential
    from server.modules.credentials.operations import card_data
    from server.modules.credentials.render import card_png_bytes

    access = operator_access("sapezal")
    with live_app.app_context():
        credential = Credential.query.filter_by(payload=access["payload"]).one()
        access["png"] = card_png_bytes(card_data(credential))
    return access


@pytest.fixture
def camera_browser(tmp_path, crachá, browser):
    """A second Chromium from the session's Playwright, whose camera films the crachá."""
    video = write_y4m(crachá["png"], tmp_path / "cracha.y4m")
    camera = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + [
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={video}"])
    yield camera
    camera.close()


@pytest.fixture
def server(live_app):
    srv = StoppableServer(live_app).start()
    yield srv
    try:
        srv.stop()
    except Exception:  # already stopped by the test
        pass


def _context(browser, server):
    context = browser.new_context(viewport=PHONE, device_scale_factor=SCREEN_SCALE, locale="pt-BR",
                                  timezone_id="America/Cuiaba", service_workers="allow",
                                  permissions=["camera", "geolocation"],
                                  geolocation={"latitude": -13.5436, "longitude": -58.8143, "accuracy": 12},
                                  bypass_csp=True)  # axe-core is injected as a script tag
    return context


def _page(context, errors):
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def _enroll(page, server, username="fiscal.sapezal"):
    page.goto(f"{server.url}/app/")
    check_screen(page, "home")
    page.get_by_role("button", name="Sou fiscal").click()
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.fill("#device-name", "Celular de teste")
    check_screen(page, "enroll")
    page.get_by_role("button", name="Entrar e cadastrar este celular").click()
    page.fill("#pin", "2468")
    page.fill("#pin-again", "2468")
    check_screen(page, "pin-create")
    page.get_by_role("button", name="Salvar PIN").click()
    expect(page.get_by_role("button", name="Começar")).to_be_visible(timeout=20000)
    expect(page.locator("#data-steps li")).to_have_count(5)
    expect(page.locator("#data-steps")).not_to_contain_text("indisponível")
    check_screen(page, "data-download")
    page.get_by_role("button", name="Começar").click()
    expect(page.locator("#go-scan")).to_be_visible()


def _jpeg(color=(200, 30, 30), size=(3000, 2000)):
    buffer = BytesIO()
    Image.new("RGB", size, color).save(buffer, "JPEG", quality=95)
    return buffer.getvalue()


def _sign(page, selector, amplitude=20):
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + box["height"] / 2)
    page.mouse.down()
    for step in range(1, 12):
        page.mouse.move(box["x"] + 20 + step * 25, box["y"] + box["height"] / 2 + (-1) ** step * amplitude)
    page.mouse.up()


def test_roadside_journey_offline_end_to_end(camera_browser, server, live_app, crachá):
    errors = []
    context = _context(camera_browser, server)
    page = _page(context, errors)
    _enroll(page, server)
    wait_for_service_worker(page)
    check_screen(page, "fiscal-home")
    # Thumbnails come in the background after the download: let them arrive before the signal goes.
    for _ in range(60):
        if page.evaluate("""async () => {
            const db = await import('./js/data/db.js');
            const { readKind } = await import('./js/fiscal/field-store.js');
            const missing = [];
            for (const o of (await readKind('operators')).filter((o) => o.photo)) {
                if (!(await db.get('reference', `photo:${o.id}`))) missing.push(o.id);
            }
            return missing.length === 0;
        }"""):
            break
        page.wait_for_timeout(500)

    # The network goes, and so does the server.
    context.set_offline(True)
    server.stop()
    page.reload()
    expect(page.locator("#go-scan")).to_be_visible()
    expect(page.locator("#net-status")).to_be_visible()

    page.locator("#go-scan").click()
    expect(page.locator("#verdict-word")).to_have_text("VÁLIDO", timeout=20000)
    expect(page.locator("#verdict-permit")).to_have_text(crachá["permit_number"])
    # Sapezal's law grants an "alvará de autorização" (issue 18): the verdict names it so.
    expect(page.locator("#verdict-permit-word")).to_have_text("Alvará de autorização")
    expect(page.locator("#verdict-reason")).to_have_text("Credencial autêntica, alvará de autorização ativo.")
    expect(page.locator("#verdict-age")).to_contain_text("Dados do aparelho")
    # The face check: the operator's thumbnail, downloaded with the field data, shown offline.
    expect(page.locator("img.badge-photo")).to_be_visible()
    assert page.locator("img.badge-photo").evaluate("img => img.complete && img.naturalWidth") > 0
    check_screen(page, "verdict")

    page.locator("#start-checklist").click()
    expect(page.locator("#checklist fieldset").first).to_be_visible()
    # Facts the registry knows are not asked again: listed, marked, and fed to the evaluator.
    page.locator("#registry-facts summary").click()
    expect(page.locator("#registry-facts")).to_contain_text("Situação do alvará")
    expect(page.locator("#registry-facts")).to_contain_text("Ativo")
    check_screen(page, "checklist")
    red_plate = page.locator('fieldset[data-fact="vehicle.red_plate"]')
    red_plate.get_by_text("Não conforme", exact=True).click()
    red_plate.locator('input[type="file"]').set_input_files(
        {"name": "placa.jpg", "mimeType": "image/jpeg", "buffer": _jpeg()})
    expect(red_plate.get_by_role("button", name="Fotos: 1 · adicionar")).to_be_visible()
    draft_id = page.evaluate("() => new URLSearchParams(location.hash.split('?')[1]).get('id')")

    # The tab is killed mid-checklist; a new one recovers every answer and the photo.
    page.close()
    page = _page(context, errors)
    page.goto(f"{server.url}/app/#/fiscal")
    page.get_by_role("button", name="Continuar fiscalização").click()
    red_plate = page.locator('fieldset[data-fact="vehicle.red_plate"]')
    expect(red_plate.locator('input[value="false"]')).to_be_checked()
    expect(red_plate.get_by_role("button", name="Fotos: 1 · adicionar")).to_be_visible()
    photo = page.evaluate("""async (id) => {
        const db = await import('./js/data/db.js');
        const draft = await db.get('drafts', id);
        const sha = draft.item_photos['vehicle.red_plate'][0];
        const p = await db.get('photos', sha);
        const bitmap = await createImageBitmap(p.blob);
        return { type: p.blob.type, size: p.blob.size, w: bitmap.width, h: bitmap.height };
    }""", draft_id)
    assert photo["type"] == "image/jpeg" and max(photo["w"], photo["h"]) == 1600

    page.locator("#go-result").click()
    expect(page.locator("#result-summary")).to_be_visible()
    proposals = page.locator("#proposals article")
    assert proposals.count() >= 1
    for index in range(proposals.count()):
        proposals.nth(index).get_by_text("Confirmar", exact=True).click()
    # Only the deadlines this stop opens: Sapezal's defence (art. 28 VI leaves the days open).
    expect(page.locator("#result-deadlines li")).to_have_count(1)
    expect(page.locator("#result-deadlines")).to_contain_text("prazo não fixado na lei")
    assert "null" not in page.locator("#screen").inner_text()
    check_screen(page, "result")
    page.locator("#go-auto").click()
    expect(page.locator("#sign-auto")).to_be_visible()
    expect(page.locator("#auto-deadlines")).to_contain_text("1ª instância (defesa)")
    page.fill("#place", "Av. Tancredo Neves, em frente ao nº 100")
    for field in page.locator('input[id^="af-"]').all():
        if not field.input_value():
            field.fill("Conforme constatado")
    _sign(page, "#sig-fiscal")
    _sign(page, "#sig-operator", amplitude=35)  # another hand, another drawing
    check_screen(page, "auto")
    page.locator("#sign-auto").click()
    expect(page.locator("#auto-qr svg")).to_be_visible()
    expect(page.locator("#auto-sealed")).to_contain_text("não pode mais ser alterado")
    check_screen(page, "auto-issued")
    link = page.locator("#auto-link").inner_text()
    assert "/a/" in link

    page.goto(f"{server.url}/app/#/fiscal/hoje")
    expect(page.locator("#today-list li")).to_have_count(2)
    check_screen(page, "today-offline")

    # Back online: everything reaches the server once.
    server.start()
    context.set_offline(False)
    page.locator("#sync-now").click()
    expect(page.locator('#today-list li[data-state="enviado"]')).to_have_count(2, timeout=30000)
    shot(page, "today-sent")
    page.locator("#sync-now").click()  # a second run sends nothing again
    # Photo Blobs are freed once the server has acknowledged the records citing them.
    for _ in range(30):
        if page.evaluate("""async () => {
            const db = await import('./js/data/db.js');
            return (await db.getAll('photos')).every((p) => p.blob === null && p.uploaded);
        }"""):
            break
        page.wait_for_timeout(500)
    local = page.evaluate("""async () => {
        const db = await import('./js/data/db.js');
        return { outbox: (await db.getAll('outbox')).map((e) => ({ id: e.id, kind: e.kind, state: e.state, photos: e.photos })),
                 photos: (await db.getAll('photos')).filter((p) => p.blob).length };
    }""")
    assert local["photos"] == 0, "photo Blobs are freed once the server has them"
    _assert_server_holds_once(live_app, local["outbox"])
    number = next(e for e in local["outbox"] if e["kind"] == "auto")

    # The operator's copy: the public link from the QR, and "Minhas autuações" on their phone.
    auto_number = page.evaluate("async (id) => (await (await import('./js/data/db.js')).get('outbox', id)).summary.number", number["id"])
    public = context.new_page()
    public.goto(link)
    expect(public.locator("body")).to_contain_text(auto_number)
    public.close()
    operator = camera_browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pt-BR")
    phone = operator.new_page()
    phone.goto(f"{server.url}/app/#/operador/entrar?m=sapezal&c={crachá['code']}")
    expect(phone.locator("#access-code")).to_have_value(crachá["code"])
    phone.get_by_role("button", name="Entrar").click()
    phone.get_by_role("button", name="Minhas autuações").click()
    expect(phone.locator("#autos-list")).to_contain_text(f"Auto nº {auto_number}")
    shot(phone, "operator-autos-from-server")
    operator.close()
    assert not errors, errors
    context.close()


def _assert_server_holds_once(app, entries):
    from server.modules.fieldsync.models import EvidencePhoto, FieldRecord, RecordPhoto

    with app.app_context():
        for entry in entries:
            rows = FieldRecord.query.filter_by(id=entry["id"]).all()
            assert len(rows) == 1, entry
            # Signed by the device key, chained, numbered from the device's block: nothing flagged.
            assert rows[0].flags == [], (entry["kind"], rows[0].flags)
            assert {p.sha256 for p in RecordPhoto.query.filter_by(record_id=entry["id"])} == set(entry["photos"])
        shas = {sha for entry in entries for sha in entry["photos"]}
        assert len(shas) == 3  # the checklist photo and two signatures
        # Once per municipality: other tests on this live app may have sent the same bytes (a
        # signature drawn by the same strokes) from another municipality.
        municipality_id = FieldRecord.query.filter_by(id=entries[0]["id"]).one().municipality_id
        for sha in shas:
            assert EvidencePhoto.query.filter_by(sha256=sha, municipality_id=municipality_id).count() == 1, sha
