"""The fiscal's phone beyond the happy path: manual entry by plate (old format) and by name,
the no-crachá inspection, the camera-less scanner, the PIN after inactivity, "Sair" guarding
unsent records, and a revoked device wiping itself on its next contact."""
import re

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import check_screen, enroll
from .helpers import SCREEN_SCALE, wait_for_service_worker


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=SCREEN_SCALE, locale="pt-BR",
                                  timezone_id="America/Cuiaba", service_workers="allow", bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield context, page
    context.close()
    assert not errors, errors


def _enroll(page, live_server, username="fiscal.sapezal"):
    enroll(page, live_server, "1357", "Celular reserva", username)


def _permit(live_app, status):
    from server.modules.registry.models import Municipality, Permit

    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        for permit in Permit.query.filter_by(municipality_id=muni.id, status=status).order_by(Permit.id):
            plate = permit.vehicle.plate
            if re.fullmatch(r"[A-Z]{3}\d{4}", plate):  # the old format, typed with its hyphen
                return {"number": permit.number, "plate": plate, "name": permit.main_driver.name}
    raise AssertionError(f"no {status} permit with an old-format plate in the demo data")


def test_manual_entry_search_no_crachá_and_pin(phone, live_server, live_app):
    context, page = phone
    _enroll(page, live_server)
    permit = _permit(live_app, "suspenso")

    # No camera on this machine: the scanner says so and offers manual entry.
    page.locator("#go-scan").click()
    expect(page.locator("#scan-status")).to_contain_text("Câmera indisponível")
    check_screen(page, "scan-no-camera")
    page.fill("#search-text", f"{permit['plate'][:3].lower()}-{permit['plate'][3:]}")
    page.get_by_role("button", name="Buscar").click()
    expect(page.locator("#verdict-word")).to_have_text("SUSPENSO")
    expect(page.locator("#verdict-name")).to_have_text(permit["name"])
    expect(page.locator("#verdict-permit")).to_have_text(permit["number"])
    check_screen(page, "verdict-suspended")

    # By (part of the) name, accents ignored: a list to pick from.
    page.goto(f"{live_server}/app/#/fiscal/buscar")
    page.fill("#search-text", permit["name"].split()[0].lower())
    page.get_by_role("button", name="Buscar").click()
    expect(page.locator("#search-results")).to_contain_text(permit["number"])
    check_screen(page, "search-results")

    # Nobody identified: the checklist starts at once, and the result proposes the no-alvará case.
    page.goto(f"{live_server}/app/#/fiscal/sem-cracha")
    page.fill("#plate", "qwe-9876")
    check_screen(page, "unidentified")
    page.get_by_role("button", name="Iniciar fiscalização").click()
    expect(page.locator("#checklist fieldset").first).to_be_visible()
    expect(page.locator("main")).to_contain_text("QWE-9876")
    page.locator("#go-result").click()
    expect(page.locator("#proposals")).to_contain_text(re.compile("alvará|autoriza|permiss", re.I))

    # Idle for longer than the lock time: the PIN is asked, a wrong one refused.
    wait_for_service_worker(page)
    page.evaluate("() => localStorage.setItem('mf-fiscal-active', '0')")
    page.goto(f"{live_server}/app/#/fiscal/hoje")
    expect(page.locator("h1")).to_have_text("Aplicativo bloqueado")
    page.fill("#pin", "0000")
    page.get_by_role("button", name="Desbloquear").click()
    expect(page.get_by_role("alert")).to_contain_text("PIN incorreto")
    check_screen(page, "pin-unlock")
    page.fill("#pin", "1357")
    page.get_by_role("button", name="Desbloquear").click()
    expect(page.locator("h1")).to_have_text("Hoje")
    expect(page.locator("#today-list")).to_contain_text("Fiscalização em andamento")
    check_screen(page, "today-draft")


def _fiscal_data(page):
    return page.evaluate("""async () => {
        const db = await import('./js/data/db.js');
        return { session: Boolean(await db.get('meta', 'fiscal-session')),
                 drafts: (await db.getAll('drafts')).length, key: Boolean(await db.get('meta', 'fiscal-key')) };
    }""")


def test_sign_out_needs_two_confirmations_to_drop_unsent_work(phone, live_server):
    context, page = phone
    _enroll(page, live_server)
    page.goto(f"{live_server}/app/#/fiscal/sem-cracha")
    page.get_by_role("button", name="Iniciar fiscalização").click()
    expect(page.locator("#checklist fieldset").first).to_be_visible()
    page.goto(f"{live_server}/app/#/fiscal/hoje")

    answers = []
    page.on("dialog", lambda dialog: (answers.append(dialog.message),
                                      dialog.accept() if plan.pop(0) else dialog.dismiss()))
    for plan_now in ([False], [True, False]):
        plan = list(plan_now)
        page.locator("#sign-out").click()
        page.wait_for_timeout(300)
        assert _fiscal_data(page) == {"session": True, "drafts": 1, "key": True}
    assert "NÃO chegaram ao servidor" in answers[0]
    plan = [True, True]
    page.locator("#sign-out").click()
    expect(page.locator("#go-fiscal")).to_have_text("Sou fiscal")
    assert _fiscal_data(page) == {"session": False, "drafts": 0, "key": False}


def test_revoked_device_wipes_itself_on_next_contact(phone, live_server, live_app):
    from server.modules.accounts.models import Device
    from server.modules.accounts.operations import revoke_device

    context, page = phone
    _enroll(page, live_server)
    page.goto(f"{live_server}/app/#/fiscal/sem-cracha")
    page.get_by_role("button", name="Iniciar fiscalização").click()
    expect(page.locator("#checklist fieldset").first).to_be_visible()
    device_id = page.evaluate("async () => (await (await import('./js/data/db.js')).get('meta', 'fiscal-session')).device_id")
    with live_app.app_context():
        from server.extensions import db
        revoke_device(db.session.get(Device, device_id), "Celular perdido")
        db.session.commit()  # as the back office's request would

    page.goto(f"{live_server}/app/#/fiscal/dados")
    expect(page.get_by_role("status").first).to_contain_text("desativado pela prefeitura")
    check_screen(page, "enroll-revoked")
    assert _fiscal_data(page) == {"session": False, "drafts": 0, "key": False}
