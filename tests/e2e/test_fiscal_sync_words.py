"""The fiscal's "Hoje" screen in the words of issue 18 item 8 and issue 20, in real Chromium at
390×844: an unreachable server is an amber wait with the time of the next try, never a red
error; a record the server refused for its content is shown with the reason while the others
are sent; "Tudo enviado" when nothing is pending."""
import re

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import check_screen, enroll

pytestmark = pytest.mark.browser

# Seals one inspection through the app's own records.js (as the screens do); `clock` overrides
# the device clock (the poison case), else the phone's own.
SEAL = """async ({ clock }) => {
    const records = await import('./js/fiscal/records.js');
    const { uuid } = await import('./js/fiscal/bytes.js');
    const id = uuid();
    await records.commitRecord({
        id, kind: 'inspection', photos: [], summary: { name: 'Teste de sincronização', plate: 'QQS1N23', permit_number: null },
        fields: {
            clock: clock || records.deviceClock(null), gps: null, no_gps_reason: 'Teste', data_age_s: 0,
            photos: [], permit_number: null, plate: 'QQS1N23', operator_id: null, credential: null,
            answers: {}, answer_sources: {}, item_photos: {}, evaluation: null, decisions: {}, pack_versions: {},
        },
    });
    return id;
}"""


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, locale="pt-BR", timezone_id="America/Cuiaba",
                                  service_workers="allow")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield context, page
    context.close()
    assert not errors, errors


def test_sync_words_for_a_refused_record_and_an_unreachable_server(phone, live_server, live_app):
    context, page = phone
    enroll(page, live_server, "1357", "Celular das palavras")
    poison = page.evaluate(SEAL, {"clock": {"device_at": "0001-01-01T00:00:00+05:00", "gps_at": None}})
    good = page.evaluate(SEAL, {"clock": None})
    page.goto(f"{live_server}/app/#/fiscal/hoje")
    status = page.locator("#sync-status")
    page.click("#sync-now")
    expect(status).to_contain_text("Tudo enviado.", timeout=20000)
    expect(status).to_contain_text("1 recusado(s) pelo servidor")
    refused = page.locator(f"li[data-id='{poison}']")
    expect(refused).to_contain_text("Recusado pelo servidor")
    expect(refused).to_contain_text("1970")  # the reason, field named by the server
    expect(page.locator(f"li[data-id='{good}']")).to_contain_text("Enviado")
    check_screen(page, "poison-hoje-recusado")

    # The server does not answer (the phone has signal): amber, with the time of the next try.
    context.route("**/api/v1/sync/push", lambda route: route.abort("connectionrefused"))
    waiting = page.evaluate(SEAL, {"clock": None})
    page.click("#sync-now")
    expect(status).to_contain_text(re.compile(r"Servidor indisponível — nova tentativa às \d\d:\d\d\."))
    expect(status).to_have_class(re.compile(r"sync-warn"))
    row = page.locator(f"li[data-id='{waiting}']")
    expect(row).to_contain_text("Aguardando servidor")
    expect(row.locator(".state")).to_have_class(re.compile(r"state-aguardando"))
    expect(row).not_to_contain_text("Erro")
    check_screen(page, "poison-hoje-indisponivel")

    context.unroute("**/api/v1/sync/push")
    page.click("#sync-now")
    expect(status).to_contain_text("Tudo enviado.", timeout=20000)
    expect(row).to_contain_text("Enviado")
    from server.modules.fieldsync.models import FieldRecord, RejectedRecord
    with live_app.app_context():
        assert {r.id for r in FieldRecord.query.filter(FieldRecord.id.in_([good, waiting]))} == {good, waiting}
        assert RejectedRecord.query.filter_by(record_id=poison).count() == 1


def test_a_record_sealed_during_a_sync_leaves_without_another_trigger(phone, live_server, live_app):
    """The run going when a record is sealed listed the outbox before it: the record must still
    leave at once (one follow-up run), not wait for the next app start or network change."""
    context, page = phone
    enroll(page, live_server, "2468", "Celular do selo no meio")
    held = []  # the first push is held open until the second record is sealed

    def hold_first(route):
        if not held:
            held.append(route)
        else:
            route.continue_()
    context.route("**/api/v1/sync/push", hold_first)
    first = page.evaluate(SEAL, {"clock": None})  # its own sealing starts the run
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the sealed record's run never pushed"
    second = page.evaluate(SEAL, {"clock": None})  # sealed while the first push is in flight
    held[0].continue_()

    from server.modules.fieldsync.models import FieldRecord
    stored = set()
    for _ in range(200):
        with live_app.app_context():
            stored = {r.id for r in FieldRecord.query.filter(FieldRecord.id.in_([first, second]))}
        if stored == {first, second}:
            break
        page.wait_for_timeout(100)
    assert stored == {first, second}
