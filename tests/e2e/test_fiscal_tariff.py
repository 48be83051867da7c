"""The tariff table in force on the fiscal's phone: downloaded with the field data, shown
collapsed ("Tarifa oficial") on the verdict screen after a real scan, with the act, validity and
lines the clerk recorded (Sapezal Lei 125/1999 art. 19: the amounts come from a decree)."""
from datetime import timedelta

from playwright.sync_api import expect

from .fiscal_helpers import check_screen
from .helpers import save_shot
from .test_fiscal_journey import _context, _enroll, _page, camera_browser, crachá, server  # noqa: F401
from server.core.clock import local_today
from server.extensions import db



def test_verdict_shows_the_tariff_in_force(camera_browser, server, live_app, crachá):  # noqa: F811
    from server.modules.registry.models import Municipality
    from server.modules.tariffs.operations import current_tariff, record_tariff_table

    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        if current_tariff(muni) is None:
            record_tariff_table(muni, {"act": "Decreto nº 7/2026", "valid_from": local_today() - timedelta(days=3),
                                       "items": [{"description": "Corrida na área urbana", "amount": "9.00"},
                                                 {"description": "Corrida até a zona rural", "amount": "30.00"}]})
            db.session.commit()  # the test plays the request that would have committed it
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
    save_shot(page, "verdict-tariff-390")
    check_screen(page, "verdict-tariff")
    assert not errors, errors
    context.close()


def test_checklist_asks_the_fare_question_with_the_table_next_to_it(browser, server, live_app):  # noqa: F811
    """Paranatinga art. 11 XXII / art. 50, Grupo VI, c: with a passenger on board the checklist asks
    whether the fare charged differs from the table, and shows the table in force under the question;
    "Sim" proposes the infraction on the result screen, with its citation."""
    from server.modules.registry.models import Municipality
    from server.modules.tariffs.operations import current_tariff, record_tariff_table

    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        if current_tariff(muni) is None:
            record_tariff_table(muni, {"act": "Decreto nº 31/2026", "valid_from": local_today() - timedelta(days=3),
                                       "items": [{"description": "Corrida no perímetro urbano", "amount": "8.00"}]})
            db.session.commit()  # the test plays the request that would have committed it
        act = current_tariff(muni).act

    errors = []
    context = _context(browser, server)
    page = _page(context, errors)
    _enroll(page, server, username="fiscal.paranatinga")
    page.get_by_role("button", name="Pessoa sem crachá").click()
    page.fill("#plate", "QBA1C23")
    page.get_by_role("button", name="Iniciar fiscalização").click()
    fare = page.locator('fieldset[data-fact="conduct.fare_off_table"]')
    expect(page.locator("#checklist fieldset").first).to_be_visible()
    passenger = page.locator('fieldset[data-fact="passenger.present"]')
    passenger.get_by_text("Não", exact=True).click()
    expect(fare).to_have_count(0)  # no passenger on board: not asked
    passenger.get_by_text("Sim", exact=True).click()
    expect(fare).to_contain_text("A tarifa cobrada do passageiro difere da tabela oficial")
    expect(fare).to_contain_text("Não se aplica")
    fare.locator("details.tariff summary").click()
    expect(fare).to_contain_text(act)
    expect(fare).to_contain_text("art. 50, Grupo VI, c")
    fare.scroll_into_view_if_needed()
    save_shot(page, "checklist-fare-390")
    check_screen(page, "checklist-fare-question")
    fare.get_by_text("Não conforme", exact=True).click()  # charged off the table
    page.locator("#go-result").click()
    expect(page.locator("body")).to_contain_text("Cobrar tarifa superior ou inferior", timeout=20000)
    assert not errors, errors
    context.close()
