"""Issuance screens in headless Chromium (issue 11): the permit page's requirements checklist,
the vistoria form with the packs' vehicle items (filled and submitted), the ISSQN page — at
phone and laptop sizes, checked with axe-core, screenshots for a person to look at."""

import pytest

from .helpers import backoffice_login, check_backoffice_screen
from server.modules.registry.models import Municipality, Permit

VIEWPORTS = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 800}}


def _permit(live_app, slug):
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        return permit.id, permit.vehicle_id


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_issuance_screens(browser, live_server, live_app, size):
    context = browser.new_context(viewport=VIEWPORTS[size], locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        backoffice_login(page, live_server, "backoffice.sapezal")
        ident, vehicle_id = _permit(live_app, "sapezal")
        page.goto(f"{live_server}/bo/permissoes/{ident}#requisitos")
        assert page.locator("#requisitos li").count() > 5
        assert page.locator("#requisitos .req-ok").count() > 0
        check_backoffice_screen("issuance", page, "permit-requirements", size, problems)
        page.goto(f"{live_server}/bo/veiculos/{vehicle_id}/vistorias/nova?permissao={ident}")
        items = page.locator("fieldset.checklist .check-item")
        assert items.count() > 5  # the packs' vehicle and equipment questions
        page.select_option("select[name=result]", "reprovada")
        page.fill("input[name='item:equipment.mirrors_count']", "1")
        page.click("form.form-grid button[type=submit]")
        page.wait_for_load_state("load")
        assert page.locator(".field-error").count() > 0  # items to fix and return date are required
        check_backoffice_screen("issuance", page, "vistoria-form-errors", size, problems)
        page.fill("input[name=inspector_name]", "Fiscal Tributário")
        page.fill("textarea[name=items_to_fix]", "Instalar o segundo retrovisor")
        page.fill("input[name=return_on]", "2099-01-01")
        page.fill("input[name='item:equipment.mirrors_count']", "1")
        page.click("form.form-grid button[type=submit]")
        page.wait_for_load_state("load")
        assert f"/bo/permissoes/{ident}" in page.url
        assert page.locator("#requisitos .req-missing").count() > 0  # the rejection blocks renewal
        check_backoffice_screen("issuance", page, "permit-after-rejected-vistoria", size, problems)
        page.goto(f"{live_server}/bo/vistorias/periodo")
        assert "não definido em lei" in page.content()
        check_backoffice_screen("issuance", page, "vistoria-period", size, problems)
        context.clear_cookies()
        backoffice_login(page, live_server, "backoffice.nortelandia")
        page.goto(f"{live_server}/bo/issqn/")
        assert page.locator("table.list tbody tr").count() > 0
        check_backoffice_screen("issuance", page, "issqn", size, problems)
        page.goto(f"{live_server}/bo/")
        check_backoffice_screen("issuance", page, "dashboard", size, problems)
    finally:
        context.close()
    assert not problems, problems
