"""The fiscal's "Hoje" screen in the words of issue 18 item 8, issue 20 and issue 34 item 4, in
real Chromium at 390×844: an unreachable server (the network up) is an amber wait with the time of
the next try, never a red error; a phone without network says "Sem conexão — será enviado quando
houver sinal" and an auto issued offline "Guardado no aparelho", never "Servidor indisponível" nor
"Enviando…" (in the three municipalities, network cut with context.set_offline); a record the
server refused for its content is shown with the reason while the others are sent; "Tudo enviado"
when nothing is pending."""
import re

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import check_screen, enroll

OFFLINE = "Sem conexão — será enviado quando houver sinal."

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


@pytest.mark.parametrize("slug", ["sapezal", "paranatinga", "nortelandia"])
def test_offline_words_from_the_checklist_to_the_issued_auto(browser, live_server, live_app, slug):
    """The network cut after enrolment: the stop goes on (checklist, result, auto), the issued auto
    says "Guardado no aparelho" and why, "Hoje" says so for every record and after "Sincronizar
    agora"; the network back, everything is sent."""
    context = browser.new_context(viewport=PHONE, locale="pt-BR", timezone_id="America/Cuiaba", service_workers="allow",
                                  permissions=["geolocation"], bypass_csp=True,
                                  geolocation={"latitude": -13.5436, "longitude": -58.8143, "accuracy": 12})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    enroll(page, live_server, "1357", "Celular sem sinal", username=f"fiscal.{slug}")
    page.get_by_role("button", name="Pessoa sem crachá").click()
    page.fill("#plate", "QOF1L23")
    page.get_by_role("button", name="Iniciar fiscalização").click()
    expect(page.locator("#checklist fieldset").first).to_be_visible()
    context.set_offline(True)
    page.locator("#all-ok-situacao").click()
    page.locator('fieldset[data-fact="driver.helmet"]').get_by_text("Não conforme", exact=True).click()
    page.locator("#go-result").click()
    expect(page.locator("#result-summary")).to_be_visible()
    for card in page.locator("#proposals article").all():
        card.get_by_text("Confirmar", exact=True).click()
    page.locator("#go-auto").click()
    expect(page.locator("#sign-auto")).to_be_visible()
    page.fill("#place", "Rua sem sinal, 10")
    page.fill("#fb-subject-name", "Condutor sem crachá")
    for pad in ("#sig-fiscal", "#sig-operator"):
        box = page.locator(pad).bounding_box()
        page.locator(pad).scroll_into_view_if_needed()
        box = page.locator(pad).bounding_box()
        page.mouse.move(box["x"] + 20, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(box["x"] + 200, box["y"] + box["height"] / 3, steps=8)
        page.mouse.up()
    expect(page.locator("#auto-missing")).to_have_text("Tudo preenchido: pode assinar e emitir.")
    page.locator("#sign-auto").click()

    expect(page.locator("#auto-state")).to_have_text("Guardado no aparelho")
    expect(page.locator("#auto-state-reason")).to_have_text(OFFLINE)
    issued = page.locator("#screen").inner_text()
    assert "Enviando" not in issued and "Servidor indisponível" not in issued, issued
    check_screen(page, f"offline-{slug}-auto-issued")

    page.goto(f"{live_server}/app/#/fiscal/hoje")
    rows = page.locator("#today-list li[data-id]")
    expect(rows).to_have_count(2)
    for row in rows.all():
        expect(row.locator(".state")).to_have_text("Guardado no aparelho")
        expect(row).to_contain_text(OFFLINE)
    status = page.locator("#sync-status")
    expect(status).to_have_text(OFFLINE)
    page.click("#sync-now")
    expect(status).to_have_text(OFFLINE)
    assert "Servidor indisponível" not in page.locator("#screen").inner_text()
    check_screen(page, f"offline-{slug}-hoje")

    context.set_offline(False)
    page.click("#sync-now")
    expect(status).to_contain_text("Tudo enviado.", timeout=30000)
    expect(page.locator('#today-list li[data-state="enviado"]')).to_have_count(2)
    assert not errors, errors
    context.close()
