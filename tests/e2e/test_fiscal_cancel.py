"""Cancellation request of a signed auto, from the phone: the auto stays as signed; a new signed,
chained record (kind cancel_request, auto_id = the auto) with the fiscal's reason goes through
the same outbox and reaches the server once. axe-core and screenshots on the new screen."""
from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import check_screen, shot
from .test_fiscal_faults import CREATE, SETTLE, _enroll


def test_cancellation_request_is_a_new_signed_record(browser, live_server, live_app):
    from server.extensions import db
    from server.modules.fieldsync.models import FieldRecord

    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pt-BR",
                                  timezone_id="America/Cuiaba", service_workers="allow", bypass_csp=True,
                                  permissions=["geolocation"],
                                  geolocation={"latitude": -13.5436, "longitude": -58.8143, "accuracy": 12})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _enroll(page, live_server)
    made = page.evaluate(CREATE, {"inspections": 1, "salt": 7})
    auto = next(r for r in made if r["kind"] == "auto")
    assert all(e["state"] == "enviado" for e in page.evaluate(SETTLE, 30000))
    with live_app.app_context():
        signed = db.session.get(FieldRecord, auto["id"]).body_hash

    page.goto(f"{live_server}/app/#/fiscal/auto-emitido?id={auto['id']}")
    page.get_by_role("button", name="Solicitar cancelamento").click()
    expect(page.locator("h1")).to_have_text("Solicitar cancelamento")
    expect(page.locator("#cancel-immutable")).to_contain_text("não é alterado")
    check_screen(page, "cancel")
    page.locator("#sign-cancel").click()  # no reason: refused on the phone, nothing signed
    expect(page.locator("#cancel-error")).to_contain_text("Motivo")
    shot(page, "cancel-no-reason")
    page.fill("#cancel-reason", "Placa anotada errada no auto; o veículo era outro.")
    page.locator("#sign-cancel").click()
    expect(page.locator("#auto-cancel-requested")).to_be_visible()
    check_screen(page, "auto-issued-cancel-requested")

    outbox = page.evaluate(SETTLE, 30000)
    assert all(e["state"] == "enviado" for e in outbox), outbox
    page.goto(f"{live_server}/app/#/fiscal/hoje")
    expect(page.locator("#today-list")).to_contain_text("Pedido de cancelamento do auto nº")
    check_screen(page, "today-cancel")

    cancel = next(e for e in outbox if e["kind"] == "cancel_request")
    with live_app.app_context():
        row = db.session.get(FieldRecord, cancel["id"])
        assert row.kind == "cancel_request" and row.target_id == auto["id"]
        assert row.flags == []  # signed by the device key and chained after the auto
        assert "Placa anotada errada" in row.body
        assert db.session.get(FieldRecord, auto["id"]).body_hash == signed  # the auto never changes
        assert FieldRecord.query.filter_by(target_id=auto["id"]).count() == 1
    assert not errors, errors
    context.close()
