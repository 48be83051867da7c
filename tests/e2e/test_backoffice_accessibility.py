"""axe-core on every back-office screen, for each role that reaches it, at phone and laptop
sizes: no serious or critical violation (colour contrast, labels, names, landmarks…), and no
page wider than the window (no sideways scrolling on a 390 px phone).

axe-core comes from npm (tests/e2e/package.json, installed by `make test-deps`) and is evaluated
in the page through the DevTools protocol, so the app's strict CSP stays on while it runs.
"""
import pytest

from .helpers import serious_violations
from server.modules.registry.models import Company, Municipality, Operator, Permit, Ponto, Vehicle

VIEWPORTS = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]
PASSWORD = "demo-motofiscal"


def _ids(live_app, slug):
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        suspended = Permit.query.filter_by(municipality_id=muni.id, status="suspenso").order_by(Permit.id).first()
        first = lambda model: model.query.filter_by(municipality_id=muni.id).order_by(model.id).first()  # noqa: E731
        company = first(Company)
        return {"permit": permit.id, "suspended": (suspended or permit).id,
                "operator": permit.main_driver.id, "vehicle": first(Vehicle).id, "ponto": first(Ponto).id,
                "company": company.id if company else None}


def _login(page, base, username):
    page.goto(f"{base}/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state("load")


def _pages(ids, company_holder):
    """Every GET screen of a municipality's staff user."""
    paths = [
        "/bo/", "/bo/permissoes/", "/bo/permissoes/?situacao=ativo&alerta=vence30",
        "/bo/permissoes/?q=zzzz-nada", "/bo/permissoes/nova",
        f"/bo/permissoes/{ids['permit']}", f"/bo/permissoes/{ids['suspended']}",
        f"/bo/permissoes/{ids['permit']}/editar",
        "/bo/operadores/", "/bo/operadores/novo", f"/bo/operadores/{ids['operator']}",
        f"/bo/operadores/{ids['operator']}/editar",
        "/bo/veiculos/", "/bo/veiculos/novo", f"/bo/veiculos/{ids['vehicle']}",
        f"/bo/veiculos/{ids['vehicle']}/editar",
        "/bo/pontos/", "/bo/pontos/novo", f"/bo/pontos/{ids['ponto']}", f"/bo/pontos/{ids['ponto']}/editar",
        "/bo/unidades", "/bo/auditoria", "/bo/auditoria?entidade=permit",
        "/bo/regras/", "/bo/regras/configuracao",
        "/bo/permissoes/999999",  # the 404 page
        # Issuance (issue 11): vistoria, insurance and documents forms reached from the permit page.
        f"/bo/veiculos/{ids['vehicle']}/vistorias/nova?permissao={ids['permit']}",
        f"/bo/veiculos/{ids['vehicle']}/seguros/novo?permissao={ids['permit']}",
        f"/bo/documentos/vehicle/{ids['vehicle']}", f"/bo/documentos/operator/{ids['operator']}",
        "/bo/vistorias/periodo",
    ]
    if company_holder:
        paths += ["/bo/empresas/", "/bo/empresas/nova", f"/bo/empresas/{ids['company']}",
                  f"/bo/empresas/{ids['company']}/editar", "/bo/issqn/", "/bo/issqn/?situacao=atraso"]
    return paths


def _report(problems):
    return "serious accessibility violations:\n" + "\n".join(
        f"{where}\n  " + "\n  ".join(found) for where, found in problems.items())


def _note(page, label, problems):
    found = serious_violations(page)
    # And nothing scrolls sideways: the page is never wider than the window (phone included).
    width, window = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if width > window:
        found.append(f"page is {width} px wide in a {window} px window (sideways scrolling)")
    if found:
        problems[label] = found


def _check(page, url, problems):
    page.goto(url)
    _note(page, url, problems)


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["phone", "laptop"])
@pytest.mark.parametrize("slug", ["paranatinga", "nortelandia"])
def test_staff_screens_have_no_serious_violation(browser, live_server, live_app, viewport, slug):
    ids = _ids(live_app, slug)
    context = browser.new_context(viewport=viewport, locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        _login(page, live_server, f"backoffice.{slug}")
        for path in _pages(ids, slug == "nortelandia"):
            _check(page, live_server + path, problems)
        # Form pages after a refused submit: errors next to the fields, the action's error box.
        page.goto(f"{live_server}/bo/operadores/novo")
        page.click("form.form-grid button[type=submit]")
        page.wait_for_load_state("load")
        _note(page, "operator form with errors", problems)
        page.goto(f"{live_server}/bo/permissoes/{ids['permit']}")
        page.click("form.action-renew button[type=submit]")
        page.wait_for_load_state("load")
        _note(page, "permit action with errors", problems)
        # The first-access code page (after the POST that makes the code).
        page.goto(f"{live_server}/bo/operadores/{ids['operator']}")
        page.click("text=Gerar código de primeiro acesso")
        page.wait_for_load_state("load")
        assert page.locator(".access-code").count() == 1
        _note(page, "first-access code", problems)
    finally:
        context.close()
    assert not problems, _report(problems)


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["phone", "laptop"])
def test_admin_and_anonymous_screens_have_no_serious_violation(browser, live_server, live_app, viewport,
                                                               operator_access):
    access = operator_access("sapezal")
    context = browser.new_context(viewport=viewport, locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        _check(page, f"{live_server}/login", problems)
        page.fill("input[name=username]", "admin")
        page.fill("input[name=password]", "wrong-password")
        page.click("main button[type=submit]")
        page.wait_for_load_state("load")
        _note(page, "login refused", problems)
        _check(page, f"{live_server}/v/{access['payload']}", problems)  # the public crachá page
        _check(page, f"{live_server}/v/NOT-A-CRACHA", problems)

        _login(page, live_server, "admin")  # platform admin: chooses a municipality first
        assert page.url.endswith("/bo/municipio")
        _note(page, "choose municipality", problems)
        page.select_option("select[name=municipality_id]", label="Sapezal/MT")
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server}/bo/")
        _check(page, f"{live_server}/bo/", problems)
        _check(page, f"{live_server}/bo/usuarios/", problems)
        page.click("text=Criar usuário")  # the new-user form refused: errors next to the fields
        page.wait_for_load_state("load")
        assert page.locator(".field-error").count() > 0
        _note(page, "new user refused", problems)
    finally:
        context.close()
    assert not problems, _report(problems)
