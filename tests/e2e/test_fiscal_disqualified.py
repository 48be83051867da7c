"""Inabilitação reached by applied penalties alone (issue 19, point 7) at the roadside: the crachá
verdict shows the driver's recorded state, and the result screen's "Avisos da lei" shows the
engine's escalation reached on a clean stop, or a would-reach notice that does not read as a
disqualification. Cases from the shared law vectors; axe-core and screenshots at 390×844."""
import json
from pathlib import Path

from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import check_screen
from .test_fiscal_faults import _enroll

VECTORS = Path(__file__).resolve().parents[2] / "shared_rules" / "vectors" / "law-sapezal.json"

NOTICES = """async ({ facts, history, date, options }) => {
    const { loadField } = await import('./js/fiscal/field-data.js');
    const { rulesOf } = await import('./js/fiscal/rules-of.js');
    const { lawNotices } = await import('./js/ui/fiscal-result.js');
    const { evaluate } = await import('./js/rules/index.js');
    const rules = rulesOf(await loadField());
    if (options) rules.config = { ...rules.config, options: { ...(rules.config.options || {}), ...options } };
    const evaluation = evaluate(rules, date, facts, history);
    document.querySelector('#screen').replaceChildren(lawNotices(rules, evaluation));
    return evaluation.escalations;
}"""

VERDICT = """async (subject) => {
    const { showVerdict } = await import('./js/ui/fiscal-verdict.js');
    const draft = { id: 'x', credential: { verdict: 'VÁLIDO', reason: 'Crachá autêntico e alvará ativo.' },
                    subject, permit_number: subject.permit_number, data_age_s: 60 };
    showVerdict(document.querySelector('#screen'), draft, () => {});
}"""


def _case(vectors, start):
    return next(c for c in vectors["cases"] if c["name"].startswith(start))


def test_disqualified_driver_at_the_roadside(browser, live_server):
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))
    date = vectors["defaults"]["date"]
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pt-BR",
                                  timezone_id="America/Cuiaba", service_workers="allow", bypass_csp=True)
    page = context.new_page()
    _enroll(page, live_server)

    # The crachá is valid, yet the driver is disqualified: the verdict says so.
    page.evaluate(VERDICT, {"operator_id": None, "name": "Condutor de teste", "permit_number": "S-001",
                            "disqualified_on": "2026-11-20",
                            "disqualified_basis": "Inabilitado até o curso de reabilitação (Lei 125/1999, art. 26)"})
    notice = page.locator("#verdict-disqualified")
    expect(notice).to_contain_text("Condutor inabilitado desde 20/11/2026")
    expect(notice).to_contain_text("até concluir o curso de reabilitação")
    notice.scroll_into_view_if_needed()
    check_screen(page, "verdict-disqualified")

    # Clean stop, two applied fines in the year: reached by history alone.
    case = _case(vectors, "art. 26 (issue 19): two fines applied in the last year")
    escalations = page.evaluate(NOTICES, {"facts": case.get("facts", {}), "history": case["history"],
                                          "date": case.get("date", date), "options": None})
    assert [(e["id"], e["status"], e["current"]) for e in escalations] == [("sap.inabilitacao", "reached", 0)]
    reached = page.locator('#escalations li[data-escalation="sap.inabilitacao"]')
    expect(reached).to_contain_text(escalations[0]["label_pt"])
    check_screen(page, "law-notices-reached-by-history")

    # Two fines of one stop, option "cada": only an announcement, not a disqualification.
    case = _case(vectors, "art. 26 (issue 19, option 'cada')")
    escalations = page.evaluate(NOTICES, {"facts": case["facts"], "history": [], "date": case.get("date", date),
                                          "options": case["config_overrides"]["options"]})
    assert [e["status"] for e in escalations] == ["would_reach"]
    expect(page.locator("#escalations li strong")).to_have_text(
        escalations[0]["notice_pt"][0].upper() + escalations[0]["notice_pt"][1:] + ".")
    expect(page.locator("#escalations li")).to_contain_text("Regra da lei — ")
    check_screen(page, "law-notices-would-reach")
    context.close()
