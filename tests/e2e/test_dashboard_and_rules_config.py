"""The dashboard's charts and the rules configuration page in a real browser: charts drawn from
their data tables under the strict CSP, saving a rule in place (the page does not jump, the
result is announced), the filter box, the no-JavaScript fallback, and axe on both pages at
phone and laptop sizes. Screenshots go to $MOTOFISCAL_SCREENSHOTS (`make shots`)."""
from datetime import datetime, timedelta, timezone

import pytest

from .helpers import backoffice_login, save_shot, screen_problems

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
URL = "/bo/regras/configuracao"


@pytest.fixture(scope="module")
def field_data(live_app):
    """Sapezal inspections and autos pushed through the real sync endpoint; returns how many
    Sapezal autos the server then holds (the full demo already synced some: demo.review)."""
    from fieldsync_device import FakeDevice
    from server.modules.fieldsync.models import FieldRecord
    from server.modules.registry.models import Municipality
    client = live_app.test_client()
    phone = FakeDevice(client, "fiscal.sapezal", name="Moto G - painel")
    records, numbers = [], phone.reserve(4)
    for n, (label, brl) in enumerate([("Transportar mais de um passageiro", 250.0), ("Sem capacete", 120.5),
                                      ("Sem capacete", 120.5), ("Colete sem faixa refletiva", 80.0)]):
        moment = datetime.now(timezone(timedelta(hours=-4))) - timedelta(days=n * 35)
        inspection = phone.body("inspection", device_at=moment, evaluation={"failed": [
            {"requirement": f"sap.req.{n % 2}", "label_pt": ["Capacete do passageiro", "Colete"][n % 2]}]})
        records += [phone.record(inspection), phone.auto(numbers[n], inspection_id=inspection["id"], infractions=[
            {"id": f"sap.inf.{label}", "label_pt": label, "amount_brl": brl, "decision": "confirmed"}])]
    assert phone.push(records).status_code == 200
    with live_app.app_context():
        sapezal = Municipality.query.filter_by(slug="sapezal").one()
        return FieldRecord.query.filter_by(municipality_id=sapezal.id, kind="auto").count()


@pytest.mark.parametrize("size", VIEWPORTS)
def test_dashboard_draws_charts_from_its_tables(browser, live_server, field_data, size):
    context = browser.new_context(viewport=VIEWPORTS[size], locale="pt-BR")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        backoffice_login(page, live_server, "backoffice.sapezal")
        page.goto(f"{live_server}/bo/?periodo=12m")
        page.wait_for_selector(".chart-box:not([hidden]) canvas")
        drawn = page.locator(".chart-box:not([hidden])").count()
        assert drawn == page.locator("table[data-chart]").count() == 5
        # Each chart keeps its table, folded: the numbers stay one click (and one screen reader) away.
        assert page.locator("details.chart-data:not([open])").count() == 5
        assert page.locator("#total-autos").inner_text() == str(field_data)  # all within 12 months
        page.locator("#por-infracao-title").scroll_into_view_if_needed()
        assert screen_problems(page) == []
        page.goto(f"{live_server}/bo/?periodo=12m")
        page.wait_for_selector(".chart-box:not([hidden]) canvas")
        save_shot(page, f"dashboard-{size}", full_page=True)
    finally:
        context.close()
    assert errors == []


def _row_far_down(page):
    """The id of a configurable key well below the first screen."""
    return page.evaluate("""() => {
        const rows = [...document.querySelectorAll('form.config-row')].filter(f => f.querySelector('select[name=option]'));
        const far = rows.find(f => f.getBoundingClientRect().top > 2 * window.innerHeight) || rows[rows.length - 1];
        return far.id;
    }""")


def test_configuration_saves_in_place_without_jumping(browser, live_server, live_app):
    context = browser.new_context(viewport=VIEWPORTS["laptop"], locale="pt-BR")
    page = context.new_page()
    try:
        backoffice_login(page, live_server, "backoffice.paranatinga")
        page.goto(live_server + URL)
        row_id = _row_far_down(page)
        row = page.locator(f"#{row_id}")
        row.scroll_into_view_if_needed()
        before = page.evaluate("window.scrollY")
        assert before > 800
        options = row.locator("select[name=option] option").all_inner_texts()
        row.locator("select[name=option]").select_option(index=len(options) - 1)
        row.locator("input[name=source]").fill("Sessão da Câmara de 15/10/2007")
        row.locator("button[type=submit]").click()
        page.wait_for_function("() => document.getElementById('config-status').textContent.includes('salva')")
        assert abs(page.evaluate("window.scrollY") - before) < 50  # the page did not jump
        assert page.locator("#config-status").get_attribute("aria-live") == "polite"
        assert options[-1] in row.locator(".config-current").inner_text()
        assert page.url.endswith(URL)  # no navigation happened
        # A refused save: the field is named, the message announced, nothing stored.
        row.locator("button[type=submit]").click()
        page.wait_for_function("() => document.getElementById('config-status').textContent.includes('Não salvo')")
        assert row.locator("input[name=source]").get_attribute("aria-invalid") == "true"
        assert "Informe o ato" in row.locator(f"#{row_id}-err-source").inner_text()
        save_shot(page, "configuration-saved-laptop")
    finally:
        context.close()
    from server.modules.registry.models import Municipality
    with live_app.app_context():
        settings = Municipality.query.filter_by(slug="paranatinga").one().settings
        assert settings["rules_sources"] and any("Câmara de 15/10/2007" in v for v in settings["rules_sources"].values())


def test_configuration_filter_box(browser, live_server):
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="pt-BR")
    page = context.new_page()
    try:
        backoffice_login(page, live_server, "backoffice.sapezal")
        page.goto(live_server + URL)
        total = page.locator("form.config-row").count()
        label = page.locator("form.config-row .config-label").nth(total - 1).inner_text()
        word = max(label.split(), key=len)
        page.fill("#config-q", word)
        page.wait_for_function("() => document.getElementById('config-filter-count').textContent !== ''")
        shown = page.locator("form.config-row:visible").count()
        assert 0 < shown < total
        assert page.locator("form.config-row:visible .config-label").filter(has_text=label).count() >= 1
        page.fill("#config-q", "")
        page.wait_for_function("() => document.getElementById('config-filter-count').textContent === ''")
        assert page.locator("form.config-row:visible").count() == total
    finally:
        context.close()


def test_configuration_without_javascript_posts_and_returns_to_the_key(browser, live_server):
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="pt-BR", java_script_enabled=False)
    page = context.new_page()
    try:
        backoffice_login(page, live_server, "backoffice.nortelandia")
        page.goto(live_server + URL)
        assert page.locator(".config-filter").is_hidden()
        row_id = _row_far_down(page)
        row = page.locator(f"#{row_id}")
        row.locator("select[name=option]").select_option(index=0)
        row.locator("input[name=source]").fill("Decreto nº 7/2025")
        row.locator("button[type=submit]").click()
        page.wait_for_load_state("load")
        assert page.url.endswith(f"#{row_id}")
        assert "Configuração salva" in page.locator(f"#{row_id}-msg").inner_text()
        assert page.evaluate("window.scrollY") > 300  # the browser went back to the key
    finally:
        context.close()


@pytest.mark.parametrize("size", VIEWPORTS)
def test_configuration_page_passes_axe_and_is_photographed(browser, live_server, size):
    context = browser.new_context(viewport=VIEWPORTS[size], locale="pt-BR")
    page = context.new_page()
    try:
        backoffice_login(page, live_server, "backoffice.sapezal")
        page.goto(live_server + URL)
        assert screen_problems(page) == []
        save_shot(page, f"configuration-{size}", full_page=False)
        page.fill("#config-q", "capacete")
        page.wait_for_timeout(400)
        save_shot(page, f"configuration-filtered-{size}", full_page=False)
    finally:
        context.close()


def test_dashboard_without_a_total_while_an_amount_is_unconfigured(browser, live_server, live_app, field_data):
    """Issue 18, item 5 at 390×844: a Sapezal auto whose fine has no configured amount makes the
    dashboard show no total ("a definir"), the row say "a definir (decreto não configurado)",
    never R$ 0,00; the longer words fit the phone and pass axe. Runs last: it adds an auto."""
    from fieldsync_device import FakeDevice
    phone = FakeDevice(live_app.test_client(), "fiscal.sapezal", name="Moto G - valores")
    inspection = phone.body("inspection", evaluation={"failed": []})
    auto = phone.auto(phone.reserve(1)[0], inspection_id=inspection["id"], infractions=[
        {"id": "sap.inf.um_passageiro", "label_pt": "Mais de um passageiro na garupa", "decision": "confirmed",
         "amount": {"value": None, "unit": None}, "amount_brl": None}])
    assert phone.push([phone.record(inspection), auto]).status_code == 200
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="pt-BR")
    page = context.new_page()
    try:
        backoffice_login(page, live_server, "backoffice.sapezal")
        page.goto(f"{live_server}/bo/?periodo=mes")
        page.wait_for_selector(".chart-box:not([hidden]) canvas")
        assert page.locator("#total-amount").inner_text() == "a definir"
        chart = page.locator("section[aria-labelledby=por-infracao-title]")
        chart.locator("details summary").click()
        # The row of sap.inf.um_passageiro (labelled as max(label) over its items): no sum.
        assert chart.locator("td.unpriced", has_text="a definir (decreto não configurado)").count() >= 1
        assert "R$ 0,00" not in page.locator("section.stats").first.inner_text()
        assert screen_problems(page) == []
        save_shot(page, "dashboard-unpriced-390", full_page=False)
    finally:
        context.close()
