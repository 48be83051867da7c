"""The LGPD screens (issue 21, point 3) in headless Chromium at phone and laptop sizes, as the
platform administrator in Sapezal: Retenção de dados (the reading of each period, refused field
by field), the titular's request page (trail, retention) and the operator form refusing a
correction without its reason — axe-core without serious violations, no sideways scrolling,
screenshots to look at. Nothing is saved: the live app is shared."""
import pytest

from .helpers import SHOTS, check_backoffice_screen
from .helpers import backoffice_login
from .test_backoffice_accessibility import VIEWPORTS, _report
from server.modules.registry.models import Municipality, Operator


@pytest.mark.browser
def test_lgpd_screens(browser, live_server, live_app):
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        ident = Operator.query.filter_by(municipality_id=muni.id).order_by(Operator.id).first().id
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = {}
    for viewport in VIEWPORTS:
        size = f"{viewport['width']}x{viewport['height']}"
        context = browser.new_context(viewport=viewport, locale="pt-BR")
        page = context.new_page()
        try:
            backoffice_login(page, live_server, "admin")
            page.select_option("select[name=municipality_id]", label="Sapezal/MT")
            page.click("main button[type=submit]")
            page.wait_for_url(f"{live_server}/bo/")
            page.goto(f"{live_server}/bo/lgpd/retencao")
            assert "Lei 9.873/1999, art. 1º" in page.inner_text("main")
            check_backoffice_screen("sapezal", page, "lgpd-retencao", size, problems)
            page.fill("#ret-autos_years", "cinco")
            page.locator("main form.form-grid button[type=submit]").click()
            page.wait_for_load_state("load")
            assert page.locator(".field-error").count() >= 3  # the years and both acts, each by its field
            check_backoffice_screen("sapezal", page, "lgpd-retencao-erros", size, problems)
            page.goto(f"{live_server}/bo/lgpd/operadores/{ident}")
            assert page.locator("#h-retention").count() == 1
            check_backoffice_screen("sapezal", page, "lgpd-pedido", size, problems)
            page.goto(f"{live_server}/bo/operadores/{ident}/editar")
            page.fill("input[name=phone]", "(65) 97777-0000")
            page.locator("main form.form-grid button[type=submit]").click()
            page.wait_for_load_state("load")
            assert "Informe o motivo da correção" in page.inner_text("main")
            check_backoffice_screen("sapezal", page, "operador-correcao-sem-motivo", size, problems)
        finally:
            context.close()
    assert not problems, _report(problems)
