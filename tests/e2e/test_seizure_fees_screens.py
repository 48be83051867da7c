"""The seizure fees screens (issue 11) in headless Chromium at phone and laptop sizes: the process
settings with each fee's act, the auto's process page with the charges of a seizure, a fee paid
and the release refused while fees are open (the municipal setting on), and the ledger's fees —
axe-core without serious violations, no sideways scrolling, screenshots to look at."""
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from .helpers import backoffice_login, save_shot
from .test_backoffice_accessibility import VIEWPORTS, _check, _note, _report



def _seizure_with_fees(live_app):
    """A Sapezal auto with fees configured (CTM acts, as a clerk would type them), the release
    condition on, a seizure recorded three days ago and its removal fee paid."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from autos_process_helpers import first_operator_and_permit, homologated_case
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.autos import process_operations as ops
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_models import SeizureCharge
    from server.modules.registry.models import Municipality

    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        ops.save_process_settings(muni, {
            "authority_pt": "Diretor do Departamento de Tributação", "removal_fee": "85,00",
            "removal_fee_act": "Código Tributário Municipal, art. 120", "storage_fee_daily": "12,50",
            "storage_fee_act": "Código Tributário Municipal, art. 121", "storage_day_count": "dia_ou_fracao",
            "release_requires_fees": "1"})
        db.session.commit()  # the test plays the request that would have committed it
    case_id, _ = homologated_case(live_app, live_app.test_client(), "sapezal", days_ago=5)
    operator_id, _, _ = first_operator_and_permit(live_app, "sapezal")
    today = local_today()
    with live_app.app_context():
        seizure = ops.record_seizure(db.session.get(AutoCase, case_id), "remocao", (today - timedelta(days=3)).isoformat())
        removal = SeizureCharge.query.filter_by(seizure_id=seizure.id, kind="remocao").one()
        ops.record_fee_payment(seizure, removal.id, "GUIA-REM-0007", today.isoformat(), "85,00")
        db.session.commit()
    return {"case": case_id, "operator": operator_id}


@pytest.mark.browser
def test_seizure_fee_screens(browser, live_server, live_app):
    ids = _seizure_with_fees(live_app)
    problems = {}
    for viewport in VIEWPORTS:
        size = f"{viewport['width']}x{viewport['height']}"
        context = browser.new_context(viewport=viewport, locale="pt-BR")
        page = context.new_page()
        try:
            backoffice_login(page, live_server, "backoffice.sapezal")
            _check(page, f"{live_server}/autos/processo/configuracao", problems)
            assert page.locator("#cfg-removal_fee_act").input_value() == "Código Tributário Municipal, art. 120"
            page.locator("#h-fees").scroll_into_view_if_needed()
            save_shot(page, f"sapezal-taxas-configuracao-{size}", full_page=True)

            _check(page, f"{live_server}/autos/{ids['case']}/processo", problems)
            fees = page.locator("#form-apreensao")
            assert "4 diárias até" in fees.inner_text() and "GUIA-REM-0007" in fees.inner_text()
            save_shot(page, f"sapezal-taxas-processo-{size}", full_page=True)
            save_shot(fees, f"sapezal-taxas-apreensao-{size}")

            from server.core.clock import local_today
            page.fill("#liberacao-released_on", local_today().isoformat())
            page.locator("#form-apreensao form[action$='/liberacao'] button[type=submit]").click()
            page.wait_for_load_state("load")
            alert = page.locator("#form-apreensao p.field-error").first
            assert "Taxas em aberto" in alert.inner_text() and "R$ 50,00" in alert.inner_text()
            _note(page, f"release refused {size}", problems)
            save_shot(page.locator("#form-apreensao"), f"sapezal-liberacao-taxas-recusada-{size}")

            _check(page, f"{live_server}/autos/ficha/operador/{ids['operator']}", problems)
            page.locator("#h-taxas").scroll_into_view_if_needed()
            save_shot(page, f"sapezal-taxas-ficha-{size}", full_page=True)
        finally:
            context.close()
    assert not problems, _report(problems)


@pytest.mark.browser
def test_paranatinga_release_refused_while_the_art45_fine_is_not_paid_in_full(browser, live_server, live_app):
    """Art. 45 § único: a payment for less than the auto's art. 45 fine (132 UFIR) does not
    release the moto; the clerk sees what was paid and what the fine is, beside the field."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from autos_process_helpers import homologated_case
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.autos import process_operations as ops
    from server.modules.autos.models import AutoCase

    art45 = ("par.inf.art45_sem_alvara", {"law": "L311", "art": "45"}, {"value": 132, "unit": "UFIR"}, 140.46)
    case_id, _ = homologated_case(live_app, live_app.test_client(), "paranatinga", days_ago=2, infraction=art45)
    today = local_today().isoformat()
    with live_app.app_context():
        case = db.session.get(AutoCase, case_id)
        ops.record_seizure(case, "apreensao", today)
        payment = ops.record_payment(case, "GUIA-045", today, "100,00")
        db.session.commit()  # the test plays the request that would have committed it
        payment_id = payment.id
    problems = {}
    for viewport in VIEWPORTS:
        size = f"{viewport['width']}x{viewport['height']}"
        context = browser.new_context(viewport=viewport, locale="pt-BR")
        page = context.new_page()
        try:
            backoffice_login(page, live_server, "backoffice.paranatinga")
            _check(page, f"{live_server}/autos/{case_id}/processo", problems)
            form = page.locator("form[action$='/liberacao']")
            form.locator("#liberacao-released_on").fill(today)
            form.locator("#liberacao-alvara").fill("012/2026")
            form.locator("#liberacao-payment_id").select_option(str(payment_id))
            form.locator("button[type=submit]").click()
            page.wait_for_load_state("load")
            error = page.locator("#liberacao-payment_id-err")
            assert "R$ 100,00" in error.inner_text() and "R$ 140,46" in error.inner_text()
            _note(page, f"art45 release refused {size}", problems)
            save_shot(page.locator("form[action$='/liberacao']"), f"paranatinga-liberacao-art45-recusada-{size}")
        finally:
            context.close()
    assert not problems, _report(problems)
