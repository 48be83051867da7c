"""Renewal documents, the "moto substituída sem vistoria" filter and Paranatinga's demo selection
in headless Chromium (issue 11), at phone and laptop sizes, checked with axe-core; screenshots
for a person to look at."""
from datetime import timedelta
from functools import partial

import pytest

from .helpers import VIEWPORTS, backoffice_login, check_backoffice_screen
from server.core.clock import local_today
from server.modules.registry.models import Municipality, Permit

_login = backoffice_login
_shot = partial(check_backoffice_screen, "renewal")


def _sapezal_permit_without_renewal_documents(live_app, skip):
    """An active Sapezal permit whose renewal documents are all missing (the demo leaves two)."""
    from server.modules.issuance.requirements import checklist
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        for permit in Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id.desc()):
            states = {i.state for i in checklist(muni, permit) if i.key.startswith("renewal.")}
            if permit.id not in skip and states == {"missing"}:
                return permit.id
    return None


def _substituted_paranatinga_permit(live_app, size):
    """The last active Paranatinga permit gets a new motorcycle, not yet inspected."""
    from server.extensions import db
    from server.modules.permits.changes_of_life import substitute_vehicle
    from server.modules.registry.models import Vehicle
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        permit = (Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id.desc()).first())
        plate = f"QTE{size[:1]}E{size[-2:]}"
        new = Vehicle(municipality_id=muni.id, plate=plate, renavam="00000000191", chassis="9BWZZZ377VT004251",
                      make="Honda", model="CG 160", year_manufacture=local_today().year, engine_cc=160)
        db.session.add(new)
        db.session.commit()
        substitute_vehicle(permit, muni, new.id, local_today() - timedelta(days=2), "Troca de moto (teste)")
        db.session.commit()  # as the back office's request would
        return permit.number


USED = set()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_renewal_documents_and_substitution_filter(browser, live_server, live_app, size):
    context = browser.new_context(viewport=VIEWPORTS[size], locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        _login(page, live_server, "backoffice.sapezal")
        ident = _sapezal_permit_without_renewal_documents(live_app, USED)
        assert ident is not None
        USED.add(ident)
        page.goto(f"{live_server}/bo/permissoes/{ident}#requisitos")
        assert page.locator("#requisitos .req-missing", has_text="para esta renovação").count() == 4
        _shot(page, "permit-missing-documents", size, problems)
        page.click("#requisitos a:has-text('Documentos da renovação')")
        page.wait_for_load_state("load")
        assert page.locator(".renewal-doc").count() == 4
        until = (local_today() + timedelta(days=30)).isoformat()
        page.select_option("select[name='doc:operator.criminal_certificate_ok']", "sim")
        page.fill("input[name='valid:operator.criminal_certificate_ok']", until)
        page.check("input[name='noval:operator.criminal_certificate_ok']")
        page.click("form.form-grid button[type=submit]")
        page.wait_for_load_state("load")
        assert "não os dois" in page.content()  # refused next to the certidão
        _shot(page, "documents-form-error", size, problems)
        page.uncheck("input[name='noval:operator.criminal_certificate_ok']")
        page.select_option("select[name='doc:operator.electoral_ok']", "sim")
        page.check("input[name='noval:operator.electoral_ok']")
        page.select_option("select[name='doc:vehicle.ownership_certificate_copy']", "sim")
        page.select_option("select[name='doc:operator.municipal_debt_certificate']", "sim")
        page.click("form.form-grid button[type=submit]")
        page.wait_for_load_state("load")
        assert f"/bo/permissoes/{ident}" in page.url
        # The CND's validity was not recorded: unknown, never "em dia".
        assert page.locator("#requisitos .req-unknown", has_text="Certidão Negativa de Débitos").count() == 1
        assert page.locator("#requisitos .req-ok", has_text="para esta renovação").count() == 3
        _shot(page, "permit-after-documents", size, problems)
        context.clear_cookies()
        number = _substituted_paranatinga_permit(live_app, size)
        _login(page, live_server, "backoffice.paranatinga")
        page.goto(f"{live_server}/bo/permissoes/?alerta=substituicao")
        assert page.locator("table.list tbody a", has_text=number).count() == 1
        _shot(page, "list-substituted-without-vistoria", size, problems)
        page.goto(f"{live_server}/bo/")
        assert page.locator("a.stat", has_text="Moto substituída sem vistoria").locator(".n").inner_text() != "0"
        _shot(page, "dashboard", size, problems)
        page.goto(f"{live_server}/bo/selecao/")
        page.locator("a", has_text="SINFRA").first.click()
        page.wait_for_load_state("load")
        assert "Sorteio público" in page.content()
        _shot(page, "paranatinga-demo-edital", size, problems)
    finally:
        context.close()
    assert not problems, problems
