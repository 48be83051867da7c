"""The permit form naming the selected candidate (Paranatinga, Lei 311/2007, arts. 21 e 33) and the
permit page with a substitution's pending vistoria linking to the vistoria form (Sapezal art. 15),
in headless Chromium at phone and laptop sizes, checked with axe-core; screenshots to look at."""
from datetime import timedelta
from functools import partial

import pytest

from .helpers import VIEWPORTS, backoffice_login, check_backoffice_screen
from server.core.clock import local_today
from server.extensions import db
from server.modules.registry.models import Municipality, Permit, Vehicle
from server.core import ptbr

_login = backoffice_login
_shot = partial(check_backoffice_screen, "issuance-links")


def _setup(live_app, size):
    """A Paranatinga operator with a selected candidacy; a Sapezal permit whose motorcycle was
    substituted (vistoria pending). Per viewport, so each run has its own rows."""
    from backoffice_data import free_operator_and_vehicle, selected_candidate_id
    from server.modules.permits.changes_of_life import substitute_vehicle

    n = 500 + int(size)
    op_id, _ = free_operator_and_vehicle(live_app, "paranatinga", n)
    _, new_vehicle_id = free_operator_and_vehicle(live_app, "sapezal", n)
    with live_app.app_context():
        cand_id = selected_candidate_id(op_id)
        muni = Municipality.query.filter_by(slug="sapezal").one()
        permit = (Permit.query.filter_by(municipality_id=muni.id, status="ativo")
                  .filter(Permit.holder_operator_id.isnot(None)).order_by(Permit.id.desc()).first())
        substitute_vehicle(permit, muni, new_vehicle_id, local_today() - timedelta(days=1), "Requerimento 3/2026")
        db.session.commit()  # as the back office's request would
        # As every page writes it (core.ptbr.plate: one plate format, issue 34).
        plate = ptbr.plate(db.session.get(Vehicle, new_vehicle_id).plate)
        return cand_id, permit.id, plate


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_candidate_field_and_pending_substitution_vistoria(browser, live_server, live_app, size):
    cand_id, permit_id, plate = _setup(live_app, size)
    context = browser.new_context(viewport=VIEWPORTS[size], locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        _login(page, live_server, "backoffice.paranatinga")
        page.goto(f"{live_server}/bo/permissoes/nova")
        select = page.locator("select[name=candidate_id]")
        assert select.locator(f"option[value='{cand_id}']").count() == 1
        select.select_option(str(cand_id))
        _shot(page, "permit-form-candidate", size, problems)
        context.clear_cookies()
        _login(page, live_server, "backoffice.sapezal")
        page.goto(f"{live_server}/bo/permissoes/{permit_id}#alteracoes")
        alert = page.locator("#alteracoes .alert", has_text=plate)
        assert "Vistoria pendente" in alert.inner_text()
        link = alert.locator("a")
        assert "/vistorias/nova" in link.get_attribute("href")
        _shot(page, "permit-pending-substitution", size, problems)
        assert page.locator("#requisitos li", has_text=f"Vistoria do veículo substituto {plate}").count() == 1
    finally:
        context.close()
    assert not problems, problems
