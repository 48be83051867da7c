"""The checklist answered by habit, in a browser (issue 18 item 2): "Tudo conforme neste grupo"
answers the group's unanswered compliance items with their compliant answer and keeps the
exception already tapped; a question phrased as a violation ("Tratou o passageiro … sem
educação?") reads Conforme / Não conforme like every other and its "Conforme" stores "no";
"não verificado" stays and proposes nothing."""
from playwright.sync_api import expect

from .fiscal_helpers import check_screen
from .test_fiscal_journey import _context, _enroll, _page, server  # noqa: F401 (fixtures)

DRAFT = """async () => {
    const db = await import('./js/data/db.js');
    const id = new URLSearchParams(location.hash.split('?')[1]).get('id');
    return (await db.get('drafts', id)).answers;
}"""


def _saved_when(page, fact, value):
    """The draft's saved answers once `fact` holds `value` there: a tap's save reaches IndexedDB a
    moment after the tap (behind an earlier write still in flight), so the test waits for it rather
    than reading at once."""
    for _ in range(100):  # up to ~5 s (wait_for_function would not await DRAFT's promise)
        answers = page.evaluate(DRAFT)
        if answers.get(fact) is value:
            break
        page.wait_for_timeout(50)
    return answers


def test_group_all_ok_keeps_the_exception_and_one_polarity(browser, server):  # noqa: F811
    errors = []
    context = _context(browser, server)
    page = _page(context, errors)
    _enroll(page, server, username="fiscal.sapezal")
    page.get_by_role("button", name="Pessoa sem crachá").click()
    page.fill("#plate", "QBA1C23")
    page.get_by_role("button", name="Iniciar fiscalização").click()
    expect(page.locator("#checklist fieldset").first).to_be_visible()
    page.locator('fieldset[data-fact="passenger.present"]').get_by_text("Não", exact=True).click()
    expect(page.locator('fieldset[data-fact="passenger.helmet"]')).to_have_count(0)

    driver = page.locator('section[aria-labelledby="g-condutor"]')
    driver.locator('fieldset[data-fact="driver.vest"]').get_by_text("Não conforme", exact=True).click()
    driver.locator('fieldset[data-fact="driver.helmet_inmetro"]').get_by_text("Não verificado", exact=True).click()
    page.locator("#all-ok-condutor").click()
    answers = _saved_when(page, "driver.helmet", True)
    assert answers["driver.vest"] is False              # the exception tapped is kept
    assert answers["driver.helmet_inmetro"] == "nao_verificado"
    assert answers["driver.helmet"] is True and answers["driver.vest_retroreflective"] is True
    assert "conduct.rude" not in answers                # another group: untouched
    expect(driver.locator('fieldset[data-fact="driver.helmet"] input[value="true"]')).to_be_checked()

    rude = page.locator('fieldset[data-fact="conduct.rude"]')
    expect(rude).to_contain_text("Não conforme")
    rude.get_by_text("Conforme", exact=True).click()
    assert _saved_when(page, "conduct.rude", False)["conduct.rude"] is False  # phrased as a violation: compliant = "no"
    rude.scroll_into_view_if_needed()
    check_screen(page, "checklist-conduct")

    page.locator("#go-result").click()
    expect(page.locator("#result-summary")).to_be_visible()
    titles = " ".join(page.locator("#proposals article h3").all_inner_texts())
    assert "olete" in titles and "INMETRO" not in titles  # não verificado is never a failure
    assert not errors, errors
    context.close()
