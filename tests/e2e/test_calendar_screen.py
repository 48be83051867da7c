"""The back-office Calendário screen (issue 19) in headless Chromium at phone and laptop sizes: a
suggested Carnival date prefills the form, the closure is recorded and listed with its act —
axe-core without serious violations, no sideways scrolling, screenshots to look at."""

import pytest

from .helpers import backoffice_login, save_shot
from .test_backoffice_accessibility import VIEWPORTS, _check, _note, _report


@pytest.mark.browser
def test_calendar_screen(browser, live_server, live_app):
    problems = {}
    for n, viewport in enumerate(VIEWPORTS):
        size = f"{viewport['width']}x{viewport['height']}"
        context = browser.new_context(viewport=viewport, locale="pt-BR")
        page = context.new_page()
        try:
            backoffice_login(page, live_server, "backoffice.nortelandia")
            # 2027: Easter on 28 March, Carnival Monday 8 February, Tuesday 9 February (by hand).
            _check(page, f"{live_server}/bo/calendario?ano=2027", problems)
            assert "08/02/2027" in page.inner_text("main") and "09/02/2027" in page.inner_text("main")
            page.locator("main a", has_text="preencher o formulário").nth(n).click()
            page.wait_for_load_state("load")
            assert page.locator("#f-day").input_value() == ["2027-02-08", "2027-02-09"][n]
            page.fill("#f-act", "Decreto municipal nº 3/2027")
            page.locator("main form.form-grid button[type=submit]").click()
            page.wait_for_load_state("load")
            assert "Decreto municipal nº 3/2027" in page.inner_text("main")
            _note(page, f"after add {size}", problems)
            save_shot(page, f"nortelandia-calendario-{size}", full_page=True)
        finally:
            context.close()
    assert not problems, _report(problems)
