"""Issue 19, point 9 on the phone: inside Nortelândia art. 17's 60 days to adapt, a failed duty of
the municipal law is shown on the result screen as a notice ("Aviso — não é infração") with the
period's last day counted in the phone's own legal calendar (the field data's holidays and
closures), never as an infraction. The enrolled phone's engine and field calendar evaluate
Nortelândia's composed rules on 15/09/1998; axe-core and a screenshot at 390x844."""
from playwright.sync_api import expect

from server.rules import load_municipality

from .conftest import PHONE
from .fiscal_helpers import check_screen
from .test_fiscal_faults import _enroll
from .helpers import SCREEN_SCALE

RENDER = """async ({ rulesJson, facts, date }) => {
    const { loadField } = await import('./js/fiscal/field-data.js');
    const { fieldCalendar } = await import('./js/fiscal/field-merge.js');
    const { graceSection } = await import('./js/ui/fiscal-result.js');
    const { graceNotices } = await import('./js/fiscal/grace.js');
    const { citationLabel } = await import('./js/fiscal/checklist-model.js');
    const { compileComposed, evaluate } = await import('./js/rules/index.js');
    const rules = compileComposed(rulesJson);
    const calendar = fieldCalendar((await loadField()).field);
    const evaluation = evaluate(rules, date, facts, [], calendar);
    document.querySelector('#screen').replaceChildren(graceSection(graceNotices(rules, evaluation, calendar, citationLabel)));
    return { infractions: evaluation.infractions.map((i) => i.id), calendar: calendar !== null };
}"""


def test_adaptation_period_is_a_notice_with_its_last_day(browser, live_server):
    context = browser.new_context(viewport=PHONE, device_scale_factor=SCREEN_SCALE, locale="pt-BR",
                                  timezone_id="America/Cuiaba", service_workers="allow", bypass_csp=True)
    page = context.new_page()
    _enroll(page, live_server)
    out = page.evaluate(RENDER, {"rulesJson": load_municipality("nortelandia").to_json(),
                                 "facts": {"driver.gloves": False, "operator.resident_since": "1990-01-01"},
                                 "date": "1998-09-15"})
    assert out["calendar"], "the field data carries the legal calendar"
    assert out["infractions"] == []
    item = page.locator('#grace-notices li[data-requirement="nl.req.luvas"]')
    expect(item).to_contain_text("Aviso — não é infração")
    expect(item).to_contain_text("até 20/10/1998")  # 21/08/1998 + 60 days (CC art. 132), a Tuesday
    check_screen(page, "grace-notice")
    context.close()
