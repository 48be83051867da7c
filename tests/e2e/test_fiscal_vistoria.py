"""A vistoria from the field app in a real browser (issue 11): enroll online, lose the network and
the server, run a vistoria with a photo and a failing item (reprovada, items to fix with their
article, return date), survive a killed tab, run a second one that passes (aprovada), come back
online and sync. The server then holds exactly one Vistoria per record, the photos, and the
issuance gate of that permit sees the approval; the crachá verdict shows the vistoria state.
axe-core and a 390×844 screenshot on every new screen."""
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from . import test_fiscal_journey as journey
from .fiscal_helpers import StoppableServer, check_screen, shot
from .helpers import serious_violations, wait_for_service_worker
from server.core.clock import local_today

# Sapezal Lei 125/1999, art. 12: what passes; "1" mirror fails art. 12, II.
PASSING_NUMBERS = {"equipment.mirrors_count": "2", "equipment.foot_protector_cm": "10",
                   "equipment.helmets_on_board": "2"}


@pytest.fixture
def server(live_app):
    srv = StoppableServer(live_app).start()
    yield srv
    try:
        srv.stop()
    except Exception:  # already stopped by the test
        pass


@pytest.fixture
def target(live_app):
    """A Sapezal permit in force with its motorcycle."""
    from server.modules.registry.models import Municipality, Permit
    with live_app.app_context():
        m = Municipality.query.filter_by(slug="sapezal").one()
        permit = (Permit.query.filter(Permit.municipality_id == m.id, Permit.status == "ativo",
                                      Permit.vehicle_id.isnot(None)).order_by(Permit.id).first())
        return {"permit_id": permit.id, "number": permit.number, "plate": permit.vehicle.plate,
                "vehicle_id": permit.vehicle_id}


def _answer_all(page, numbers):
    """Every compliance item "Conforme" (any other yes/no item "Sim"), every number item its value."""
    for fieldset in page.locator("#checklist fieldset").all():
        fact = fieldset.get_attribute("data-fact")
        text = fieldset.locator('input.input')
        if text.count():
            text.fill(numbers.get(fact, "2"))
            text.dispatch_event("change")
        elif fieldset.get_by_text("Conforme", exact=True).count():
            fieldset.get_by_text("Conforme", exact=True).click()
        else:
            fieldset.get_by_text("Sim", exact=True).click()


def _start(page, search, kind_label):
    page.locator("#go-vistoria").click()
    expect(page.locator("#vistoria-search")).to_be_visible()
    page.fill("#vistoria-search", search)
    page.get_by_role("button", name="Buscar moto").click()
    expect(page.locator("#vistoria-vehicle")).to_be_visible()
    page.get_by_text(kind_label, exact=True).click()
    return page


def test_vistoria_offline_from_the_field_app_to_the_issuance_gate(browser, server, live_app, target):
    errors = []
    context = journey._context(browser, server)
    page = journey._page(context, errors)
    journey._enroll(page, server)
    wait_for_service_worker(page)

    context.set_offline(True)
    server.stop()
    page.reload()
    expect(page.locator("#go-vistoria")).to_be_visible()
    check_screen(page, "vistoria-home")

    # 1. Reprovada: one mirror (art. 12, II), with a photo of it.
    page.locator("#go-vistoria").click()
    expect(page.locator("#vistoria-search")).to_be_visible()
    check_screen(page, "vistoria-start")
    page.fill("#vistoria-search", target["number"])
    page.get_by_role("button", name="Buscar moto").click()
    expect(page.locator("#vistoria-vehicle")).to_contain_text(target["number"])
    expect(page.locator("#vistoria-current")).to_contain_text("Vistoria atual:")
    page.get_by_text("Vistoria periódica", exact=True).click()
    check_screen(page, "vistoria-choose")
    page.locator("#start-vistoria").click()
    expect(page.locator("#checklist fieldset").first).to_be_visible()
    _answer_all(page, {**PASSING_NUMBERS, "equipment.mirrors_count": "1"})
    mirrors = page.locator('fieldset[data-fact="equipment.mirrors_count"]')
    mirrors.locator('input[type="file"]').set_input_files(
        {"name": "retrovisor.jpg", "mimeType": "image/jpeg", "buffer": journey._jpeg()})
    expect(mirrors.get_by_role("button", name="Fotos: 1 · adicionar")).to_be_visible()
    check_screen(page, "vistoria-checklist")

    # The tab is killed: every answer and the photo are back from IndexedDB.
    page.close()
    page = journey._page(context, errors)
    page.goto(f"{server.url}/app/#/fiscal")
    page.get_by_role("button", name="Continuar vistoria").click()
    mirrors = page.locator('fieldset[data-fact="equipment.mirrors_count"]')
    expect(mirrors.locator("input.input")).to_have_value("1")
    expect(mirrors.get_by_role("button", name="Fotos: 1 · adicionar")).to_be_visible()
    page.locator("#go-vistoria-result").click()
    expect(page.locator("#vistoria-result")).to_have_text("REPROVADA")
    expect(page.locator("#items-to-fix")).to_contain_text("retrovisores")
    expect(page.locator("#items-to-fix")).to_contain_text("art. 12")
    page.locator("#sign-vistoria").click()  # no return date yet: refused, naming it
    expect(page.locator("#vistoria-error")).to_contain_text("Data de retorno")
    back = (local_today() + timedelta(days=10)).isoformat()
    page.fill("#return-on", back)
    page.locator("#return-on").dispatch_event("change")
    check_screen(page, "vistoria-result-rejected")
    page.locator("#sign-vistoria").click()
    expect(page.locator("#today-list")).to_contain_text("Vistoria — reprovada")

    # 2. Aprovada: the motorcycle comes back with the items fixed (found by its plate).
    page.goto(f"{server.url}/app/#/fiscal")
    _start(page, target["plate"], "Retorno (itens corrigidos)").locator("#start-vistoria").click()
    expect(page.locator("#checklist fieldset").first).to_be_visible()
    _answer_all(page, PASSING_NUMBERS)
    page.locator("#vistoria-photo").set_input_files(
        {"name": "moto.jpg", "mimeType": "image/jpeg", "buffer": journey._jpeg((30, 90, 200))})
    expect(page.locator("#vistoria-photos")).to_contain_text("Fotos: 1")
    page.locator("#go-vistoria-result").click()
    expect(page.locator("#vistoria-result")).to_have_text("APROVADA")
    check_screen(page, "vistoria-result-approved")
    page.locator("#sign-vistoria").click()
    expect(page.locator("#today-list li[data-id]")).to_have_count(2)  # signed, queued, not sent
    expect(page.locator('#today-list li[data-state="enviado"]')).to_have_count(0)
    expect(page.locator("#today-list")).to_contain_text("Vistoria — aprovada")
    check_screen(page, "vistoria-today-offline")

    # Back online: both reach the server once, with their photos.
    server.start()
    context.set_offline(False)
    page.locator("#sync-now").click()
    expect(page.locator('#today-list li[data-state="enviado"]')).to_have_count(2, timeout=30000)
    for _ in range(30):
        if page.evaluate("""async () => (await (await import('./js/data/db.js')).getAll('photos'))
                              .every((p) => p.blob === null && p.uploaded)"""):
            break
        page.wait_for_timeout(500)
    entries = page.evaluate("""async () => (await (await import('./js/data/db.js')).getAll('outbox'))
        .map((e) => ({ id: e.id, kind: e.kind, photos: e.photos, result: e.summary.result }))""")
    _assert_server(live_app, entries, target)

    # The crachá verdict (after a data refresh) shows the vehicle's vistoria.
    page.evaluate("async () => (await import('./js/fiscal/field-data.js')).download()")
    page.goto(f"{server.url}/app/#/fiscal/buscar")
    page.fill("#search-text", target["number"])
    page.get_by_role("button", name="Buscar", exact=True).click()
    expect(page.locator("#verdict-vistoria-state")).to_contain_text("Vistoria:")
    # Sapezal's demo configures a vistoria period (no law sets one): the approval is valid.
    expect(page.locator("#verdict-vistoria-state")).to_have_attribute("data-state", "valida")
    expect(page.locator("#verdict-vistoria-state")).to_contain_text("Válida até")
    check_screen(page, "vistoria-verdict")
    page.locator("#verdict-vistoria-start").click()  # from the crachá's verdict into a vistoria
    expect(page.locator("#vistoria-vehicle")).to_contain_text(target["number"])
    expect(page.locator("#vistoria-current")).to_contain_text("Válida até")
    assert not errors, errors
    context.close()

    # The back office's permit page lists both, by the fiscal, from the field app.
    office = browser.new_context(viewport={"width": 1280, "height": 800}, locale="pt-BR", bypass_csp=True)
    bo = office.new_page()
    bo.goto(f"{server.url}/bo/")
    bo.fill("input[name=username]", "backoffice.sapezal")
    bo.fill("input[name=password]", journey.PASSWORD)
    bo.click("button[type=submit]")
    bo.wait_for_url(f"{server.url}/bo/")
    bo.goto(f"{server.url}/bo/permissoes/{target['permit_id']}")
    expect(bo.locator("body")).to_contain_text("aplicativo de campo")
    bo.get_by_text("Vistorias", exact=True).scroll_into_view_if_needed()
    shot(bo, "vistoria-permit-page-1280")
    assert not serious_violations(bo)
    office.close()


def _assert_server(app, entries, target):
    from server.modules.fieldsync.models import EvidencePhoto, FieldRecord
    from server.modules.issuance.models import Vistoria
    from server.modules.issuance.requirements import checklist
    from server.modules.registry.models import Municipality, Permit
    from server.extensions import db

    vistorias = [e for e in entries if e["kind"] == "vistoria"]
    assert [e["result"] for e in vistorias] and sorted(e["result"] for e in vistorias) == ["aprovada", "reprovada"]
    with app.app_context():
        for entry in vistorias:
            assert FieldRecord.query.filter_by(id=entry["id"]).count() == 1
            [row] = Vistoria.query.filter_by(field_record_id=entry["id"]).all()
            assert row.result == entry["result"] and row.vehicle_id == target["vehicle_id"]
            assert row.permit_id == target["permit_id"] and row.inspector_name
            assert set(row.photo_hashes) == set(entry["photos"]) and len(entry["photos"]) == 1
            for sha in entry["photos"]:
                assert EvidencePhoto.query.filter_by(sha256=sha).count() == 1, sha
            if row.result == "reprovada":
                assert "retrovisores" in row.items_to_fix and "art. 12" in row.items_to_fix
                assert row.return_on is not None and row.return_on > row.inspected_on
        permit = db.session.get(Permit, target["permit_id"])
        m = db.session.get(Municipality, permit.municipality_id)
        gate = {i.key: i.state for i in checklist(m, permit)}
        assert gate["sap.req.vistoria"] == "ok"
