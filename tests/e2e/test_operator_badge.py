"""The operator's digital crachá in a real browser: first access, offline reload, updates."""
import re
from io import BytesIO

import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from .helpers import save_shot, shell_version, wait_for_service_worker


def _decode_qr(page):
    """Read the crachá's QR from a screenshot with a real decoder, as a fiscal's phone would."""
    image = Image.open(BytesIO(page.locator("#badge-qr").screenshot()))
    results = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)  # no 1-D false positives
    assert len(results) == 1, "no readable QR on the crachá"
    return results[0].text


def _first_access(page, live_server, access):
    page.goto(f"{live_server}/app/")
    page.get_by_role("button", name="Sou mototaxista").click()
    page.wait_for_selector("#access-code")
    page.select_option("#municipality", access["slug"])
    page.fill("#access-code", access["code"])
    save_shot(page, "operator-login")
    page.get_by_role("button", name="Entrar").click()
    expect(page.locator("#badge-name")).to_have_text(access["name"])


def test_badge_shows_offline_after_reload(page, context, live_server, operator_access):
    access = operator_access("sapezal")
    _first_access(page, live_server, access)
    expect(page.locator("#badge-permit")).to_have_text(access["permit_number"])
    expect(page.locator("#badge-status")).to_have_text("Ativo")
    expect(page.locator("#badge-sync")).to_contain_text("Atualizado agora")
    wait_for_service_worker(page)
    save_shot(page, "operator-badge")
    assert _decode_qr(page) == access["payload"]

    context.set_offline(True)
    page.reload()
    expect(page.locator("#badge-name")).to_have_text(access["name"])
    expect(page.locator("#badge-permit")).to_have_text(access["permit_number"])
    expect(page.locator("#net-status")).to_be_visible()
    expect(page.locator("#badge-sync")).to_contain_text("Sem conexão")
    # The photo comes from IndexedDB, not from the network.
    photo = page.locator("img.badge-photo")
    expect(photo).to_be_visible()
    assert photo.evaluate("img => img.complete && img.naturalWidth") == 240
    assert _decode_qr(page) == access["payload"]  # the QR is drawn on the phone, offline
    save_shot(page, "operator-badge-offline")

    page.get_by_role("button", name="Minhas autuações").click()
    expect(page.locator("#autos-empty")).to_be_visible()
    save_shot(page, "operator-autos")

    # API answers (personal data) never land in a cache. The one API answer kept is public: the
    # municipality's device keys, which the copy worker (scope /a/) keeps to verify a fiscal's
    # signed copy offline (issue 34, item 5).
    cached = page.evaluate("""async () => {
        const urls = {};
        for (const name of await caches.keys()) {
            urls[name] = [];
            for (const request of await (await caches.open(name)).keys()) urls[name].push(request.url);
        }
        return urls;
    }""")
    shell = [u for name, urls in cached.items() if name.startswith("shell-") for u in urls]
    assert shell and not [u for u in shell if "/api/" in u]
    assert all(re.fullmatch(r"http://[^/]+/api/v1/public/municipalities/\d{7}/device-keys", u) for u in cached.get("copy-keys", []))
    assert not [u for name, urls in cached.items() if name.startswith("copy-page-") for u in urls if "/api/" in u]


def test_suspended_permit_shows_its_status_and_no_valid_badge(page, live_server, operator_access):
    access = operator_access("sapezal", status="suspenso")
    _first_access(page, live_server, access)
    status = page.locator("#badge-status")
    expect(status).to_have_text("Suspenso")
    expect(status).to_have_class("status status-suspenso")
    expect(page.locator("#badge-qr")).to_have_count(0)
    expect(page.locator("#badge-no-qr")).to_contain_text("Situação: suspenso — sem crachá válido")
    save_shot(page, "operator-badge-suspended")


def test_spent_code_with_a_failed_download_retries_with_the_token(page, live_server, operator_access):
    # The /me downloads after activation are lost (signal drops): the code is already spent, so
    # the app must keep the token and retry, never send the operator back to the code form.
    access = operator_access("sapezal")
    failures = []

    def drop_first(route):
        if len(failures) < 2:  # the one right after activation, and the crachá screen's own try
            failures.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/api/v1/operator/me", drop_first)
    page.goto(f"{live_server}/app/#/operador/entrar?m={access['slug']}&c={access['code']}")
    expect(page.locator("#access-code")).to_have_value(access["code"])
    page.get_by_role("button", name="Entrar").click()
    expect(page.get_by_role("alert").first).to_contain_text("Não foi possível baixar o crachá")
    assert len(failures) == 2
    save_shot(page, "operator-badge-download-failed")
    page.get_by_role("button", name="Tentar novamente").click()
    expect(page.locator("#badge-name")).to_have_text(access["name"])


def test_a_used_code_is_refused_in_the_form(page, live_server, operator_access, browser):
    access = operator_access("paranatinga")
    _first_access(page, live_server, access)
    other = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        second = other.new_page()
        second.goto(f"{live_server}/app/#/operador/entrar?m={access['slug']}&c={access['code']}")
        expect(second.locator("#access-code")).to_have_value(access["code"])
        second.get_by_role("button", name="Entrar").click()
        expect(second.get_by_role("alert").first).to_contain_text("Código inválido")
        save_shot(second, "operator-login-error")
    finally:
        other.close()


def test_new_version_prompts_and_never_reloads_by_itself(page, live_server, pwa_root):
    page.goto(f"{live_server}/app/")
    wait_for_service_worker(page)
    first = shell_version(page)
    save_shot(page, "home")
    page.evaluate("() => { window.__sameDocument = true; }")

    css = pwa_root / "css" / "app.css"
    original = css.read_text()
    css.write_text(original + "\n/* next release */\n")
    try:
        page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
        prompt = page.locator("#update-prompt")
        expect(prompt).to_be_visible()
        expect(prompt).to_contain_text("Nova versão disponível")
        save_shot(page, "update-prompt")

        # Installed but waiting: same document, same controlling version, until the user agrees.
        page.wait_for_timeout(1000)
        assert page.evaluate("() => window.__sameDocument === true")
        assert page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.waiting !== null)")
        assert shell_version(page) == first

        # A screen holding a draft hides the prompt until it is done.
        page.evaluate("() => import('./js/sw-bridge.js').then((m) => m.setBusy(true))")
        expect(prompt).to_be_hidden()
        page.evaluate("() => import('./js/sw-bridge.js').then((m) => m.setBusy(false))")
        expect(prompt).to_be_visible()

        with page.expect_navigation():
            page.get_by_role("button", name="Atualizar").click()
        wait_for_service_worker(page)
        assert page.evaluate("() => window.__sameDocument === undefined")
        second = shell_version(page)
        assert second != first
        expect(page.locator("#shell-version")).to_have_text(f"Versão do app: {second}")
        assert page.evaluate("() => caches.keys()") == [f"shell-{second}"]
    finally:
        css.write_text(original)
