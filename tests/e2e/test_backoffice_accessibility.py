"""axe-core on every back-office screen, for each role that reaches it, at phone and laptop
sizes: no serious or critical violation (colour contrast, labels, names, landmarks…), and no
page wider than the window (no sideways scrolling on a 390 px phone).

Each screen is loaded once, at the phone's size, checked, then widened to the laptop's and
checked again, as a window resized by its user: the stylesheet's media queries apply on resize,
and one load and one axe injection serve both sizes (half the page loads of a run per size).

axe-core comes from npm (tests/e2e/package.json, installed by `make test-deps`) and is evaluated
in the page through the DevTools protocol, so the app's strict CSP stays on while it runs.
"""
import pytest

from .helpers import backoffice_login, save_shot, screen_problems
from server.modules.registry.models import Company, Municipality, Permit, Ponto, Vehicle

VIEWPORTS = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]


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


def _pages(ids, company_holder):
    """Every GET screen of a municipality's staff user."""
    paths = [
        "/bo/", "/bo/?periodo=12m", "/bo/?periodo=outro&de=2026-02-31&ate=x", "/bo/permissoes/", "/bo/permissoes/?situacao=ativo&alerta=vence30",
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
        "/bo/revisao/", "/bo/revisao/?tipo=auto&situacao=recebido&indicador=bad_signature",
        "/bo/tarifas/", "/bo/transito/",
        # Issuance (issue 11): vistoria, insurance and documents forms reached from the permit page.
        f"/bo/veiculos/{ids['vehicle']}/vistorias/nova?permissao={ids['permit']}",
        f"/bo/veiculos/{ids['vehicle']}/seguros/novo?permissao={ids['permit']}",
        f"/bo/documentos/vehicle/{ids['vehicle']}", f"/bo/documentos/operator/{ids['operator']}",
        "/bo/vistorias/periodo",
        # After the stop (issue 37): notices to operators, collection of fines by PIX.
        "/bo/avisos/", "/bo/avisos/?situacao=problemas", f"/bo/avisos/operador/{ids['operator']}",
        "/bo/arrecadacao/", "/bo/arrecadacao/configuracao", "/bo/arrecadacao/extratos", "/bo/arrecadacao/pendencias",
        # The first day (issue 36): crachás and operator photos in bulk.
        "/bo/crachas/lote", "/bo/operadores/fotos/lote",
    ]
    if not company_holder:  # Paranatinga: the public selection (more in test_selection_screens.py)
        paths += ["/bo/selecao/", "/bo/selecao/editais/novo"]
    if company_holder:
        paths += ["/bo/empresas/", "/bo/empresas/nova", f"/bo/empresas/{ids['company']}",
                  f"/bo/empresas/{ids['company']}/editar", "/bo/issqn/", "/bo/issqn/?situacao=atraso"]
    return paths


def _report(problems):
    return "serious accessibility violations:\n" + "\n".join(
        f"{where}\n  " + "\n  ".join(found) for where, found in problems.items())


def _note(page, label, problems):
    """Note what a user would hit on the page as it stands, at the window's current size."""
    found = screen_problems(page)
    if found:
        problems[label] = found


def _check(page, url, problems):
    page.goto(url)
    _note(page, url, problems)


def _note_sizes(page, label, problems, shot=None):
    """Note what a user would hit at each size (phone first, as the page was loaded), saving a
    screenshot per size when `shot` names one; the window is left at the phone's size."""
    for viewport in VIEWPORTS:
        page.set_viewport_size(viewport)
        _note(page, f"{label} ({viewport['width']} px)", problems)
        if shot:
            save_shot(page, f"{shot}-{viewport['width']}", full_page=True)
    page.set_viewport_size(VIEWPORTS[0])


def _check_sizes(page, url, problems, shot=None):
    page.goto(url)
    _note_sizes(page, url, problems, shot)


@pytest.mark.parametrize("slug", ["paranatinga", "nortelandia"])
def test_staff_screens_have_no_serious_violation(browser, live_server, live_app, slug):
    ids = _ids(live_app, slug)
    context = browser.new_context(viewport=VIEWPORTS[0], locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        backoffice_login(page, live_server, f"backoffice.{slug}")
        for path in _pages(ids, slug == "nortelandia"):
            _check_sizes(page, live_server + path, problems)
        # Form pages after a refused submit: errors next to the fields, the action's error box.
        page.goto(f"{live_server}/bo/operadores/novo")
        page.click("form.form-grid button[type=submit]")
        page.wait_for_load_state("load")
        _note_sizes(page, "operator form with errors", problems)
        page.goto(f"{live_server}/bo/permissoes/{ids['permit']}")
        page.click("form.action-renew button[type=submit]")
        page.wait_for_load_state("load")
        _note_sizes(page, "permit action with errors", problems)
        # The first-access code page (after the POST that makes the code).
        page.goto(f"{live_server}/bo/operadores/{ids['operator']}")
        page.click("text=Gerar código de primeiro acesso")
        page.wait_for_load_state("load")
        assert page.locator(".access-code").count() == 1
        _note_sizes(page, "first-access code", problems)
    finally:
        context.close()
    assert not problems, _report(problems)


def test_admin_and_anonymous_screens_have_no_serious_violation(browser, live_server, live_app, operator_access):
    access = operator_access("sapezal")
    context = browser.new_context(viewport=VIEWPORTS[0], locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        _check_sizes(page, f"{live_server}/login", problems)
        page.fill("input[name=username]", "admin")
        page.fill("input[name=password]", "wrong-password")
        page.click("main button[type=submit]")
        page.wait_for_load_state("load")
        _note_sizes(page, "login refused", problems)
        _check_sizes(page, f"{live_server}/v/{access['payload']}", problems)  # the public crachá page
        _check_sizes(page, f"{live_server}/v/NOT-A-CRACHA", problems)

        backoffice_login(page, live_server, "admin")  # platform admin: chooses a municipality first
        assert page.url.endswith("/bo/municipio")
        _note_sizes(page, "choose municipality", problems)
        page.select_option("select[name=municipality_id]", label="Sapezal/MT")
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server}/bo/")
        _check_sizes(page, f"{live_server}/bo/", problems)
        _check_sizes(page, f"{live_server}/bo/usuarios/", problems)
        page.click("text=Criar usuário")  # the new-user form refused: errors next to the fields
        page.wait_for_load_state("load")
        assert page.locator(".field-error").count() > 0
        _note_sizes(page, "new user refused", problems)
        _check_sizes(page, f"{live_server}/bo/primeiro-dia", problems)  # the first-day list (issue 36)
    finally:
        context.close()
    assert not problems, _report(problems)


def _review_pages(live_app):
    """Sapezal's review screens with the demo's synced records (demo.review): the queue, an
    inspection, an auto with a cancellation request, an auto with a conflict, the conflict."""
    from server.modules.fieldsync.models import FieldRecord, FieldRecordConflict
    from server.modules.traffic.models import TrafficReport
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        report = TrafficReport.query.filter_by(municipality_id=muni.id).order_by(TrafficReport.id).first()
        records = FieldRecord.query.filter_by(municipality_id=muni.id).order_by(FieldRecord.seq).all()
        conflict = FieldRecordConflict.query.filter_by(municipality_id=muni.id).first()
        inspection = next(r for r in records if r.kind == "inspection")
        autos = [r for r in records if r.kind == "auto"]
        return {"queue": "/bo/revisao/", "queue-filtered": "/bo/revisao/?conflitos=1",
                "inspection": f"/bo/revisao/registros/{inspection.id}",
                "auto": f"/bo/revisao/registros/{autos[-1].id}",
                "auto-conflict": f"/bo/revisao/registros/{conflict.record_id}",
                "conflict": f"/bo/revisao/conflitos/{conflict.id}",
                # The demo's stop whose CTB infraction goes to the traffic authority (issue 34).
                "traffic-stop": f"/bo/revisao/registros/{report.record_id}",
                "traffic-report": f"/bo/transito/{report.id}"}


def test_review_screens_have_no_serious_violation(browser, live_server, live_app):
    context = browser.new_context(viewport=VIEWPORTS[0], locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        backoffice_login(page, live_server, "backoffice.sapezal")
        for name, path in _review_pages(live_app).items():
            page.goto(live_server + path)
            assert page.locator("main h1").count() == 1, path
            _note_sizes(page, path, problems, shot=f"review-{name}")
        # The correction form, opened.
        page.goto(live_server + _review_pages(live_app)["auto"])
        page.click("text=Corrigir dados do auto")
        _note_sizes(page, "review correction form", problems, shot="review-correction")
        # A decision refused (no justification): the error box on the auto page.
        page.goto(live_server + _review_pages(live_app)["auto-conflict"])
        page.evaluate("document.getElementById('reason').removeAttribute('required')")
        page.click("button[value=homologar]")
        page.wait_for_load_state("load")
        assert page.locator(".alert").count() > 0
        _note_sizes(page, "review decision refused", problems)
    finally:
        context.close()
    assert not problems, _report(problems)


def _auto_process(live_app, slug):
    """A homologated auto of `slug` taken through the process: notification, service, an appeal,
    a payment and a seizure (autos.process_operations, as the clerk's forms do)."""
    import sys
    from datetime import timedelta
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from autos_process_helpers import backdate_notification, first_operator_and_permit, homologated_case
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.autos import process_operations as ops
    from server.modules.autos.models import AutoCase

    case_id, _ = homologated_case(live_app, live_app.test_client(), slug, days_ago=6)
    operator_id, _, permit_id = first_operator_and_permit(live_app, slug)
    today = local_today()
    with live_app.app_context():
        note = ops.issue_notification(db.session.get(AutoCase, case_id))
        db.session.commit()  # the test plays the request that would have committed it
        code = note.payload.rsplit("/N/", 1)[1]
    backdate_notification(live_app, case_id, today - timedelta(days=5))
    with live_app.app_context():
        case = db.session.get(AutoCase, case_id)
        ops.record_service(case, "postal_ar", (today - timedelta(days=5)).isoformat(), "AR JT000111222BR")
        ops.file_appeal(case, today.isoformat(), "O autuado nega os fatos e junta declaração.")
        payment = ops.record_payment(case, "GUIA-2026-0042", today.isoformat(), "30,86")
        ops.record_seizure(case, "apreensao", today.isoformat())
        db.session.commit()
        return {"case": case_id, "code": code, "operator": operator_id, "permit": permit_id, "payment": payment.id}


@pytest.mark.parametrize("slug", ["paranatinga", "nortelandia"])
def test_auto_process_screens_have_no_serious_violation(browser, live_server, live_app, slug):
    ids = _auto_process(live_app, slug)
    context = browser.new_context(viewport=VIEWPORTS[0], locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        backoffice_login(page, live_server, f"backoffice.{slug}")
        for name, path in (("processo", f"/autos/{ids['case']}/processo"),
                           ("ficha-operador", f"/autos/ficha/operador/{ids['operator']}"),
                           ("ficha-permissao", f"/autos/ficha/permissao/{ids['permit']}"),
                           ("configuracao", "/autos/processo/configuracao")):
            _check_sizes(page, live_server + path, problems, shot=f"{slug}-{name}")
        # The release refused (Paranatinga art. 45: no alvará): the error next to the field.
        page.goto(f"{live_server}/autos/{ids['case']}/processo")
        page.click("#form-apreensao form:has(input[name=seizure_id]) button[type=submit]")
        page.wait_for_load_state("load")
        _note_sizes(page, "release refused", problems, shot=f"{slug}-liberacao-recusada")
        page.context.clear_cookies()
        code = ids["code"]
        forged = code[:40] + ("B" if code[40] != "B" else "C") + code[41:]  # one character changed
        for name, path, verdict in (("publica", f"/N/{code}", "Documento autêntico"),
                                    ("publica-adulterada", f"/N/{forged}", "Documento não autêntico")):
            page.goto(live_server + path)
            assert page.locator("h1").inner_text() == verdict
            _note_sizes(page, path, problems, shot=f"{slug}-{name}")
    finally:
        context.close()
    assert not problems, _report(problems)
