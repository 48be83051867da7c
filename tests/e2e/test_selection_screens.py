"""The selection, permit-life and tariff screens in Chromium: axe-core (no serious or critical
violation, no sideways scrolling) at phone and laptop sizes, with screenshots to look at
($MOTOFISCAL_SCREENSHOTS, `make shots`)."""
from datetime import date, timedelta

import pytest

from .helpers import backoffice_login, save_shot, screen_problems
from .test_backoffice_accessibility import VIEWPORTS
from server.core.clock import local_today



def _seed(live_app):
    """A Paranatinga edital with a tie and an inapto, a tariff table, a crachá (idempotent)."""
    from server.core.validation import cpf_check_digits
    from server.extensions import db
    from server.modules.credentials import operations as credentials
    from server.modules.registry.models import Municipality, Permit
    from server.modules.selection import operations as sel
    from server.modules.selection.models import Edital
    from server.modules.selection.rules import CHECKED_CONDITIONS
    from server.modules.tariffs.operations import current_tariff, record_tariff_table

    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        edital = Edital.query.filter_by(municipality_id=muni.id, number="001/2026").first()
        if edital is None:
            if sel.current_population(muni) is None:
                sel.record_population(muni, {"population": 21_000, "reference_date": date(2025, 7, 1),
                                             "source": "IBGE, estimativa populacional 2025"})
            edital = sel.create_edital(muni, {"number": "001/2026", "published_on": date(2026, 1, 5),
                                              "registration_until": date(2026, 2, 5), "vacancies_offered": 1,
                                              "extra_criteria": [{"key": "c1", "label": "Cursos de direção defensiva",
                                                                  "higher_first": True}]})
            every = {c.key: True for c in CHECKED_CONDITIONS}
            people = [("Ana Lima", date(2005, 3, 1), 2022, every), ("Bruno Souza", date(2008, 3, 1), 2021, every),
                      ("Carla Dias", date(2008, 3, 1), 2021, every), ("Davi Rocha", date(2012, 3, 1), None, every),
                      ("Elisa Prado", date(2001, 3, 1), 2020, {**every, "art7_iv": False})]
            for n, (name, since, year, conditions) in enumerate(people, start=1):
                sel.register_candidate(edital, {"name": name, "cpf": cpf_check_digits(f"{381200000 + n:09d}"),
                                                "profession_since": since, "cnh_first_issue_date": date(2010, 1, 1),
                                                "vehicle_year": year, "schooling": 4,
                                                "extra_values": {"c1": 1}, **conditions})
        if current_tariff(muni) is None:
            record_tariff_table(muni, {"act": "Decreto nº 45/2026", "valid_from": local_today() - timedelta(days=5),
                                       "items": [{"description": "Corrida na área urbana", "amount": "8.50"},
                                                 {"description": "Corrida até o distrito", "amount": "25.00"}]})
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        if credentials.active_key(muni) is None:
            credentials.create_key(muni)
        payload = credentials.issue_credential(permit).payload
        db.session.commit()
        return {"edital": edital.id, "permit": permit.id, "payload": payload}


def _look(page, name, viewport, problems):
    found = screen_problems(page)
    if found:
        problems[name] = found
    save_shot(page, f"{name}-{viewport['width']}", full_page=True)


@pytest.mark.browser
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["phone", "laptop"])
def test_selection_life_and_tariff_screens(browser, live_server, live_app, viewport):
    ids = _seed(live_app)
    context = browser.new_context(viewport=viewport, locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        from urllib.parse import urlsplit
        page.goto(live_server + urlsplit(ids["payload"]).path)
        assert page.locator("text=Tarifa oficial").count() == 1
        _look(page, "public-tariff", viewport, problems)
        backoffice_login(page, live_server, "backoffice.paranatinga")
        screens = [("selection-overview", "/bo/selecao/"), ("edital-new", "/bo/selecao/editais/novo"),
                   ("edital", f"/bo/selecao/editais/{ids['edital']}"),
                   ("candidate-new", f"/bo/selecao/editais/{ids['edital']}/candidatos/novo"),
                   ("tariffs", "/bo/tarifas/"), ("permit-life", f"/bo/permissoes/{ids['permit']}")]
        for name, path in screens:
            page.goto(live_server + path)
            _look(page, name, viewport, problems)
        page.goto(f"{live_server}/bo/selecao/editais/{ids['edital']}")
        page.click("details.candidate >> nth=4")  # the inapto, opened: ✓/✗ per condition
        _look(page, "edital-open", viewport, problems)
        page.goto(f"{live_server}/bo/selecao/editais/{ids['edital']}/candidatos/novo")
        page.click("form.form-grid button[type=submit]")
        page.wait_for_load_state("load")
        assert page.locator(".field-error").count() > 0
        _look(page, "candidate-errors", viewport, problems)
        page.goto(f"{live_server}/bo/permissoes/{ids['permit']}")
        page.click("#acao-transfer button[type=submit]")
        page.wait_for_load_state("load")
        _look(page, "permit-life-errors", viewport, problems)
    finally:
        context.close()
    assert not problems, problems


@pytest.mark.browser
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["phone", "laptop"])
def test_overview_with_suplentes_and_called(browser, live_server, live_app, viewport):
    """After publication (tie broken), one suplente called and given the 5-day window."""
    from server.extensions import db
    from server.modules.registry.models import Municipality
    from server.modules.selection import operations as sel
    from server.modules.selection.models import Candidate, Edital

    ids = _seed(live_app)
    with live_app.app_context():
        edital = db.session.get(Edital, ids["edital"])
        if edital.classification_published_at is None:
            ranking = __import__("server.modules.selection.rules", fromlist=["rank"]).rank(
                edital.candidates, edital.extra_criteria, edital.published_on)
            for group in ranking.unresolved:
                sel.resolve_tie(edital, [c.id for c in group], "Sorteio público, ata nº 3/2026")
            sel.publish_classification(edital)
            muni = Municipality.query.filter_by(slug="paranatinga").one()
            called = sel.call_for_vacancy(muni, "Desistência da permissão 003/2025 (art. 27)")
            sel.grant_regularization(db.session.get(Candidate, called.id), "Atestado de saúde vencido")
            db.session.commit()  # the test plays the request that would have committed it
    context = browser.new_context(viewport=viewport, locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        backoffice_login(page, live_server, "backoffice.paranatinga")
        page.goto(f"{live_server}/bo/selecao/")
        assert page.locator("text=Em regularização").count() >= 1
        _look(page, "selection-overview-published", viewport, problems)
        page.goto(f"{live_server}/bo/selecao/editais/{ids['edital']}")
        _look(page, "edital-published", viewport, problems)
    finally:
        context.close()
    assert not problems, problems
