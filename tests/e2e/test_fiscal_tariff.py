"""The tariff table in force on the fiscal's phone: downloaded with the field data, shown
collapsed ("Tarifa oficial") on the verdict screen after a real scan, with the act, validity and
lines the clerk recorded (Sapezal Lei 125/1999 art. 19: the amounts come from a decree)."""
from datetime import date, timedelta
from pathlib import Path

from playwright.sync_api import expect

from .fiscal_helpers import check_screen
from .test_fiscal_journey import _context, _enroll, _page, camera_browser, crachá, server  # noqa: F401

SHOTS = Path("/tmp/shots-field2")


def test_verdict_shows_the_tariff_in_force(camera_browser, server, live_app, crachá):  # noqa: F811
    from server.modules.registry.models import Municipality
    from server.modules.tariffs.operations import current_tariff, record_tariff_table

    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        if current_tariff(muni) is None:
            record_tariff_table(muni, {"act": "Decreto nº 7/2026", "valid_from": date.today() - timedelta(days=3),
                                       "items": [{"description": "Corrida na área urbana", "amount": "9.00"},
                                                 {"description": "Corrida até a zona rural", "amount": "30.00"}]})
        table = current_tariff(muni)
        act, lines = table.act, [(i["description"], i["amount"]) for i in table.items]

    errors = []
    context = _context(camera_browser, server)
    page = _page(context, errors)
    _enroll(page, server)
    page.locator("#go-scan").click()
    expect(page.locator("#verdict-word")).to_have_text("VÁLIDO", timeout=20000)
    tariff = page.locator("#tariff")
    expect(tariff).to_be_visible()
    expect(tariff.locator("summary")).to_have_text("Tarifa oficial")
    tariff.locator("summary").click()
    expect(tariff).to_contain_text(act)
    for description, amount in lines:
        whole, cents = amount.split(".")
        expect(tariff).to_contain_text(description)
        expect(tariff).to_contain_text(f"R$ {whole},{cents[:2]}")
    tariff.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "verdict-tariff-390.png"))
    check_screen(page, "verdict-tariff")
    assert not errors, errors
    context.close()


def test_checklist_puts_the_table_under_the_overcharge_infraction(browser, server, live_app):  # noqa: F811
    """Paranatinga art. 50, Grupo VI, c: the table (or "não cadastrada") at the checklist's end."""
    from server.modules.registry.models import Municipality
    from server.modules.tariffs.operations import current_tariff

    with live_app.app_context():
        table = current_tariff(Municipality.query.filter_by(slug="paranatinga").one())
        act = table.act if table else None

    errors = []
    context = _context(browser, server)
    page = _page(context, errors)
    _enroll(page, server, username="fiscal.paranatinga")
    page.get_by_role("button", name="Pessoa sem crachá").click()
    page.fill("#plate", "QBA1C23")
    page.get_by_role("button", name="Iniciar fiscalização").click()
    fare = page.locator("#fare-check")
    expect(fare).to_contain_text("Cobrar tarifa superior ou inferior")
    expect(fare).to_contain_text("art. 50")
    if act:
        fare.locator("summary").click()
        expect(fare).to_contain_text(act)
    else:
        expect(fare).to_contain_text("tarifa não cadastrada")
    fare.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "checklist-fare-390.png"))
    assert not errors, errors
    context.close()
