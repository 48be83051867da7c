"""The newcomer's journey in a real browser, at phone and laptop sizes: log in with a demo login,
find a permit by plate, edit it, see a field error next to the field, and no CSP violation."""
import pytest
from playwright.sync_api import expect

from server.modules.registry.models import Municipality, Permit


def _suspended_permit(live_app):
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="suspenso").one()
        return permit.id, permit.number, permit.vehicle.plate


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}])
def test_find_and_edit_a_permit(browser, live_server, live_app, viewport):
    ident, number, plate = _suspended_permit(live_app)
    context = browser.new_context(viewport=viewport, locale="pt-BR")
    page = context.new_page()
    console = []
    page.on("console", lambda msg: console.append(msg.text))
    try:
        page.goto(f"{live_server}/bo/")
        assert page.url.startswith(f"{live_server}/login")
        page.fill("input[name=username]", "backoffice.paranatinga")
        page.fill("input[name=password]", "demo-motofiscal")
        page.click("button[type=submit]")
        page.wait_for_url(f"{live_server}/bo/")
        assert page.locator("h1").inner_text() == "Painel — Paranatinga"

        page.fill("#q", plate.lower())  # the dashboard search goes to the permit list
        page.click("form[role=search] button")
        rows = page.locator("table.list tbody tr")
        expect(rows).to_have_count(1)  # waits for the list page: count() alone raced its load in CI
        rows.first.locator("a").click()
        page.wait_for_url(f"{live_server}/bo/permissoes/{ident}")
        assert number in page.locator("h1").inner_text()
        assert page.locator("h1 .badge").inner_text() == "Suspensa"  # a permissão (Lei 311/2007)

        page.click("text=Editar dados")
        original_until = page.input_value("#f-valid_until")
        page.fill("#f-valid_until", "2000-01-01")
        page.click("form.form-grid button[type=submit]")
        expect(page.locator("#f-valid_until-err")).to_have_text("A validade deve terminar depois do início.")
        assert page.locator("#f-valid_until").get_attribute("aria-invalid") == "true"

        # Validity changes only through "Renovar" (with a reason), never by editing.
        page.fill("#f-valid_until", "2031-12-31")
        page.click("form.form-grid button[type=submit]")
        expect(page.locator("#f-valid_until-err")).to_contain_text("use a ação Renovar")  # the new page's

        page.fill("#f-valid_until", original_until)
        policy = f"Processo APS-{viewport['width']}"  # insurance has its own records now (issue 11)
        page.fill("#f-notes", policy)
        page.click("form.form-grid button[type=submit]")
        page.wait_for_url(f"{live_server}/bo/permissoes/{ident}")
        assert page.locator(".flash").inner_text() == "Permissão atualizada."
        assert policy in page.locator("section.card").first.inner_text()
        # Nothing overflows sideways on a phone.
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
    assert not [m for m in console if "Content Security Policy" in m], console
