"""The group path, in a browser, in every municipality (issue 34 item 1): "Tudo conforme neste
grupo" answers only the group's items that were on the screen and have no answer, keeps the
exceptions tapped and the "não verificado", never answers what depends on a failed answer (no
helmet → no visor, no seal; no vest → no stripes), which is stored "não se aplica" with the answer
that rules it out; an item never shown has no answer at all. The inspection reaches the server
with its group declarations, and the review page says how each answer was given. A question
phrased as a violation ("Tratou o passageiro … sem educação?") reads Conforme / Não conforme like
every other and its "Conforme" stores "no". Also measures the checklist's height with no passenger
and the rest of the situation unanswered (docs/benchmarks/checklist-scroll.md)."""
import json

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import check_screen
from .helpers import SHOTS
from .test_fiscal_auto_touches import page_screens, swipe_through
from .test_fiscal_journey import _context, _enroll, _page, server  # noqa: F401 (fixtures)

DRAFT = """async () => {
    const db = await import('./js/data/db.js');
    const id = new URLSearchParams(location.hash.split('?')[1]).get('id');
    return await db.get('drafts', id);
}"""
PARENTS = {"driver.helmet": ("driver.helmet_visor", "driver.helmet_inmetro"),
           "driver.vest": ("driver.vest_retroreflective", "driver.vest_phosphorescent", "driver.vest_identifies_company",
                           "driver.vest_shows_number_name", "driver.vest_shows_ponto_permit")}
PLATES = {"sapezal": "QBA1C23", "paranatinga": "QBP1C23", "nortelandia": "QBN1C23"}


def _saved_when(page, done):
    """The draft once `done(draft)` holds: a tap's save reaches IndexedDB a moment after the tap."""
    for _ in range(100):  # up to ~5 s (wait_for_function would not await DRAFT's promise)
        draft = page.evaluate(DRAFT)
        if done(draft):
            return draft
        page.wait_for_timeout(50)
    raise AssertionError(f"draft never reached the expected state: {json.dumps(draft)[:2000]}")


@pytest.mark.parametrize("slug", ["sapezal", "paranatinga", "nortelandia"])
def test_group_declarations_answer_only_what_was_shown_and_applies(browser, server, live_app, slug):  # noqa: F811
    errors = []
    context = _context(browser, server)
    page = _page(context, errors)
    _enroll(page, server, username=f"fiscal.{slug}")
    page.get_by_role("button", name="Pessoa sem crachá").click()
    page.fill("#plate", PLATES[slug])
    page.get_by_role("button", name="Iniciar fiscalização").click()
    expect(page.locator("#checklist fieldset").first).to_be_visible()
    expect(page.locator('fieldset[data-fact="passenger.helmet"]')).to_have_count(0)  # the situation first

    # No passenger, tapped on its own; the rest of the situation still open: the worst case of the
    # checklist's height with no passenger (8 screens at most).
    page.locator('fieldset[data-fact="passenger.present"]').get_by_text("Não", exact=True).click()
    _saved_when(page, lambda d: d["answers"].get("passenger.present") is False)
    screens = page_screens(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / f"screens-{slug}.json").write_text(json.dumps({"no_passenger": round(screens, 1)}))
    assert screens <= 8, screens
    page.locator("#all-ok-situacao").click()
    draft = _saved_when(page, lambda d: len(d["group_declarations"]) == 1)
    assert draft["answer_how"]["passenger.present"]["how"] == "item"
    assert draft["group_declarations"][0]["kind"] == "none"
    assert all(draft["answers"][f] is False for f in draft["group_declarations"][0]["answered"])

    # The driver: two exceptions and a "não verificado" tapped, then the group declared with a
    # jump to its end (Playwright scrolls straight to the button): what never came on the screen
    # in between stays without an answer.
    driver = page.locator('section[data-group="condutor"]')
    driver.locator('fieldset[data-fact="driver.helmet"]').get_by_text("Não conforme", exact=True).click()
    driver.locator('fieldset[data-fact="driver.vest"]').get_by_text("Não conforme", exact=True).click()
    for dependants in PARENTS.values():  # no helmet, no vest: their details are no longer asked
        for fact in dependants:
            expect(page.locator(f'fieldset[data-fact="{fact}"]')).to_have_count(0)
    unverified = driver.locator("fieldset[data-fact]").nth(2)
    kept = unverified.get_attribute("data-fact")
    unverified.get_by_text("Não verificado", exact=True).click()
    _saved_when(page, lambda d: d["answers"].get(kept) == "nao_verificado")
    check_screen(page, f"groups-{slug}-driver-exceptions")
    group_facts = driver.locator("fieldset[data-fact]").evaluate_all("els => els.map((e) => e.dataset.fact)")
    page.locator("#all-ok-condutor").click()
    draft = _saved_when(page, lambda d: len(d["group_declarations"]) == 2)
    declaration = draft["group_declarations"][1]
    answers, how = draft["answers"], draft["answer_how"]
    assert answers["driver.helmet"] is False and answers["driver.vest"] is False  # the exceptions are kept
    assert answers[kept] == "nao_verificado"
    assert declaration["answered"], declaration
    never_shown = [f for f in group_facts if f not in draft["shown"]]
    assert never_shown, "the jump should have skipped items of this long group"
    for fact in never_shown:
        assert fact not in answers, f"{fact} was never on the screen and got an answer"
    for fact in declaration["answered"]:
        assert fact in declaration["shown"] and how[fact] == {"how": "group", "declaration": 1}, fact

    # The motorcycle, read as it scrolls by, then declared: nothing of it left unanswered.
    swipe_through(page, "moto")
    page.locator("#all-ok-moto").click()
    draft = _saved_when(page, lambda d: len(d["group_declarations"]) == 3)
    moto = page.locator('section[data-group="moto"] fieldset[data-fact]').evaluate_all("els => els.map((e) => e.dataset.fact)")
    assert all(f in draft["answers"] for f in moto), [f for f in moto if f not in draft["answers"]]
    for parent, dependants in PARENTS.items():
        for fact in dependants:
            assert fact not in draft["answers"], f"{fact}: its parent failed, stored anyway"
            if fact in draft["not_applicable"]:
                assert draft["not_applicable"][fact]["because"] == {parent: False}, draft["not_applicable"][fact]
    assert any(f.startswith("passenger.") and f != "passenger.present" for f in draft["not_applicable"])

    # One polarity: a question phrased as a violation stores "no" for its "Conforme".
    rude = page.locator('fieldset[data-fact="conduct.rude"]')
    rude.get_by_text("Não conforme", exact=True).click()  # a slip, corrected on the item itself
    _saved_when(page, lambda d: d["answers"].get("conduct.rude") is True)
    rude.get_by_text("Conforme", exact=True).click()
    assert _saved_when(page, lambda d: d["answers"].get("conduct.rude") is False)["answer_how"]["conduct.rude"]["how"] == "item"
    rude.scroll_into_view_if_needed()
    check_screen(page, f"groups-{slug}-conduct")

    page.locator("#go-result").click()
    expect(page.locator("#result-summary")).to_be_visible()
    assert page.locator("#proposals article").count() >= 2  # the failures tapped are proposed
    page.locator("#confirm-all").click()
    page.locator("#go-auto").click()  # seals the inspection
    expect(page.locator("#sign-auto")).to_be_visible()
    inspection_id = draft["id"]
    page.goto(f"{server.url}/app/#/fiscal/hoje")
    page.locator("#sync-now").click()
    expect(page.locator(f'#today-list li[data-id="{inspection_id}"][data-state="enviado"]')).to_have_count(1, timeout=30000)

    from server.modules.fieldsync.models import FieldRecord
    with live_app.app_context():
        body = json.loads(FieldRecord.query.filter_by(id=inspection_id).one().body)
    assert [d["kind"] for d in body["group_declarations"]] == ["none", "compliant", "compliant"]
    assert set(body["answer_how"]) == set(body["answers"])
    for fact in never_shown:  # unanswered, or answered later on its own (conduct.rude above)
        assert fact not in body["answers"] or body["answer_how"][fact]["how"] == "item", fact
    for fact, given in body["answer_how"].items():
        if given["how"] == "group":
            assert fact in body["group_declarations"][given["declaration"]]["shown"], fact
    assert not set(body["answers"]) & set(body["not_applicable"])

    # The back office reads it: every answer with how it was given, the items not asked with why.
    clerk = context.new_page()
    clerk.set_viewport_size({"width": 1280, "height": 800})
    clerk.goto(f"{server.url}/login")
    clerk.fill('input[name="username"]', f"backoffice.{slug}")
    clerk.fill('input[name="password"]', "demo-motofiscal")
    clerk.get_by_role("button", name="Entrar").click()
    clerk.goto(f"{server.url}/bo/revisao/registros/{inspection_id}")
    expect(clerk.locator('tr[data-fact="driver.helmet"]')).to_contain_text("item a item")
    declared = next(f for f in declaration["answered"])
    expect(clerk.locator(f'tr[data-fact="{declared}"]')).to_contain_text("declaração “Tudo conforme neste grupo”")
    expect(clerk.locator('tr[data-fact="driver.helmet_visor"]')).to_contain_text("O condutor está de capacete? — Não")
    expect(clerk.locator("#answers-how")).to_contain_text("por 3 declaração(ões) de grupo")
    expect(clerk.locator("#answers-contradict")).to_have_count(0)
    clerk.locator("#checklist").scroll_into_view_if_needed()
    check_screen(clerk, f"groups-{slug}-review")
    clerk.set_viewport_size(PHONE)
    clerk.locator("#checklist").scroll_into_view_if_needed()
    check_screen(clerk, f"groups-{slug}-review-phone")
    assert not errors, errors
    context.close()
