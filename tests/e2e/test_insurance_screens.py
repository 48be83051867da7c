"""The insurance policy form of Sapezal, one group of covers per covered person (Lei 125/1999,
art. 4º § 1º "individualmente"; issue 19 point 10), and the permit page naming who is not
covered — at phone and laptop sizes, checked with axe-core, screenshots for a person to look at."""

import pytest

from .helpers import backoffice_login, check_backoffice_screen
from server.extensions import db
from server.modules.issuance.models import InsurancePolicy
from server.modules.registry.models import Municipality, Permit

VIEWPORTS = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 800}}
POLICY_NUMBER = "E2E-SEGURO-{}"


def _permit(live_app):
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id.desc()).first()
        return permit.id, permit.vehicle_id


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_insurance_form_per_person(browser, live_server, live_app, size):
    context = browser.new_context(viewport=VIEWPORTS[size], locale="pt-BR")
    page = context.new_page()
    problems = {}
    number = POLICY_NUMBER.format(size)
    try:
        backoffice_login(page, live_server, "backoffice.sapezal")
        ident, vehicle_id = _permit(live_app)
        page.goto(f"{live_server}/bo/veiculos/{vehicle_id}/seguros/novo?permissao={ident}")
        assert page.locator("fieldset.cover-person").count() == 3
        page.fill("input[name=insurer]", "Seguradora Exemplo S.A.")
        page.fill("input[name=policy_number]", number)
        page.fill("input[name=starts_on]", "2026-01-01")
        page.fill("input[name=ends_on]", "2099-01-01")
        for person in ("third_parties", "driver", "passenger"):
            page.fill(f"input[name={person}_temporary_disability]", "2.000,00")
            page.fill(f"input[name={person}_permanent_disability]", "8.000,00")
            page.fill(f"input[name={person}_death]", "15.000,00")
            page.select_option(f"select[name={person}_personal_accidents]", "sim")
        page.fill("input[name=driver_death]", "quinze mil")
        page.click("form.form-grid button[type=submit]")
        page.wait_for_load_state("load")
        assert page.locator("#f-driver_death-err").inner_text() == "Informe um valor em reais, por exemplo 15.000,00."
        check_backoffice_screen("insurance", page, "policy-form-errors", size, problems)
        page.fill("input[name=driver_death]", "15.000,00")
        page.select_option("select[name=passenger_personal_accidents]", "nao")
        page.click("form.form-grid button[type=submit]")
        page.wait_for_load_state("load")
        assert f"/bo/permissoes/{ident}" in page.url
        assert "sem a cobertura mínima individual: passageiro" in page.content()
        check_backoffice_screen("insurance", page, "permit-passenger-uncovered", size, problems)
    finally:
        context.close()
        with live_app.app_context():  # leave the shared demo data as it was
            InsurancePolicy.query.filter_by(policy_number=number).delete()
            db.session.commit()
    assert not problems, problems
