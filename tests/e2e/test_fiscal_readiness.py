"""'Pronto para uso sem internet' is said only when it is true (issue 18, item 8): in fresh
enrolments, the moment the data screen says it the service worker controls the page and the field
data is in IndexedDB, and the app then opens without network."""
from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import PASSWORD, check_screen
from .test_fiscal_journey import server  # noqa: F401 (fixture)

STATE = """async () => {
    const db = await import('./js/data/db.js');
    const stored = {};
    for (const key of ['trust', 'rules', 'field', 'numbers']) stored[key] = Boolean(await db.get('reference', key));
    return { controlled: navigator.serviceWorker.controller !== null,
             shell: (await caches.keys()).some((k) => k.startsWith('shell-')), stored };
}"""


def test_ready_offline_only_once_the_worker_controls_the_page_and_the_data_is_stored(browser, server):  # noqa: F811
    for attempt in range(3):
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pt-BR",
                                      timezone_id="America/Cuiaba", service_workers="allow", bypass_csp=True)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.url}/app/#/fiscal/entrar")
        page.fill("#username", "fiscal.sapezal")
        page.fill("#password", PASSWORD)
        page.fill("#device-name", f"Celular {attempt}")
        page.get_by_role("button", name="Entrar e cadastrar este celular").click()
        page.fill("#pin", "2468")
        page.fill("#pin-again", "2468")
        page.get_by_role("button", name="Salvar PIN").click()
        ready = page.locator('#offline-ready[data-ready="yes"]')
        expect(ready).to_have_text("Pronto para uso sem internet.", timeout=30000)
        state = page.evaluate(STATE)
        assert state == {"controlled": True, "shell": True,
                         "stored": {"trust": True, "rules": True, "field": True, "numbers": True}}, state
        if attempt == 0:
            check_screen(page, "data-ready")
        context.set_offline(True)
        page.goto(f"{server.url}/app/#/fiscal")
        expect(page.locator("#go-scan")).to_be_visible()
        assert not errors, errors
        context.close()
