"""Issue 18 item 7 in headless Chromium at 390x844 and 1280x800: Sapezal's notificação refused
until its law's open deadline is configured, with a link to Prazos e autoridades; that page lists
what the law fixes and what it leaves open (with the act once configured); the process page reads
what was configured — axe-core without serious violations, no sideways scrolling, screenshots."""
import json
import sys
from pathlib import Path

import pytest

from .helpers import backoffice_login, save_shot
from .test_backoffice_accessibility import VIEWPORTS, _check, _note, _report


@pytest.mark.browser
def test_refusal_links_to_the_one_place_and_the_process_page_reads_the_configuration(browser, live_server, live_app):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from autos_process_helpers import homologated_case
    from server.modules.autos import process_operations as ops
    from server.modules.registry.models import Municipality
    from server.modules.rules.settings import save_value

    case_id, _ = homologated_case(live_app, live_app.test_client(), "sapezal", days_ago=1)
    problems = {}
    # The live app is shared by every browser test of this worker: put Sapezal's settings back
    # (its defence deadline and authority stay unconfigured, as the journey tests expect).
    from server.extensions import db
    with live_app.app_context():
        saved = json.loads(json.dumps(Municipality.query.filter_by(slug="sapezal").one().settings or {}))
    try:
        for n, viewport in enumerate(VIEWPORTS):
            size = f"{viewport['width']}x{viewport['height']}"
            context = browser.new_context(viewport=viewport, locale="pt-BR")
            page = context.new_page()
            try:
                backoffice_login(page, live_server, "backoffice.sapezal")
                if n == 0:
                    _check(page, f"{live_server}/autos/{case_id}/processo", problems)
                    page.locator("#form-notificar button[type=submit]").click()
                    page.wait_for_load_state("load")
                    refusal = page.locator("#form-notificar")
                    # The setting by its label, never its key (issue 34, item 4).
                    assert "Prazo de defesa (a lei manda constar no auto" in refusal.inner_text()
                    assert "sapezal.prazo_defesa" not in refusal.inner_text()
                    _note(page, f"refusal {size}", problems)
                    save_shot(refusal, f"sapezal-notificacao-recusada-{size}")
                    page.click("#notificar-config-link a")
                    page.wait_for_load_state("load")
                    assert page.url.endswith("/autos/processo/configuracao")
                    steps = page.locator("#law-steps").inner_text()
                    assert "a lei não fixa (Lei 125/1999, art. 28, VI)" in steps and "não configurado" in steps
                    _note(page, f"settings unconfigured {size}", problems)
                    save_shot(page, f"sapezal-prazos-nao-configurados-{size}", full_page=True)
                    page.click("#law-steps a")
                    page.wait_for_load_state("load")
                    assert "/bo/regras/configuracao#cfg-deadlines-sapezal-prazo-defesa" in page.url
                    with live_app.app_context():
                        save_value(Municipality.query.filter_by(slug="sapezal").one(), "deadlines",
                                   "sapezal.prazo_defesa", 15, "Decreto nº 40/2026")
                        ops.save_process_settings(Municipality.query.filter_by(slug="sapezal").one(),
                                                  {"authority_pt": "Diretor de Trânsito"})
                        db.session.commit()  # the test plays the request that would have committed it
                _check(page, f"{live_server}/autos/processo/configuracao", problems)
                steps = page.locator("#law-steps").inner_text()
                assert "15 dias" in steps and "fixado por Decreto nº 40/2026" in steps
                assert "Diretor de Trânsito (configuração municipal" in steps
                save_shot(page, f"sapezal-prazos-configurados-{size}", full_page=True)
                _check(page, f"{live_server}/autos/{case_id}/processo", problems)
                table = page.locator("#h-prazos").locator("xpath=..").inner_text()
                assert "Diretor de Trânsito" in table and "fixado por Decreto nº 40/2026" in table
                assert "configure" not in table.lower().replace("configuração", "")
                save_shot(page.locator("#h-prazos").locator("xpath=.."), f"sapezal-processo-prazos-{size}")
            finally:
                context.close()
    finally:
        with live_app.app_context():
            Municipality.query.filter_by(slug="sapezal").one().settings = saved
            db.session.commit()
    assert not problems, _report(problems)
