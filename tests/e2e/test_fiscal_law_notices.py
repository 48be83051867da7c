"""The result screen's "Avisos da lei": the phone's own rule engine (composed rules downloaded by
the enrolled phone) evaluates a Sapezal case from the shared law vectors where a specific
infraction displaces a general one (art. 10 § 2º: caducado over vencido); the general one is
shown struck through with the one that prevails. axe-core and a screenshot."""
import json
from pathlib import Path

from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import check_screen
from .test_fiscal_faults import _enroll
from .helpers import SCREEN_SCALE

VECTORS = Path(__file__).resolve().parents[2] / "shared_rules" / "vectors" / "law-sapezal.json"

RENDER = """async ({ facts, history, date }) => {
    const { loadField } = await import('./js/fiscal/field-data.js');
    const { rulesOf } = await import('./js/fiscal/rules-of.js');
    const { lawNotices, amountText } = await import('./js/ui/fiscal-result.js');
    const { evaluate } = await import('./js/rules/index.js');
    const { fieldCalendar } = await import('./js/fiscal/field-merge.js');
    const data = await loadField();
    const rules = rulesOf(data);
    // As the result screen does: periods count by the municipality's legal calendar (issue 19).
    const evaluation = evaluate(rules, date, facts, history, fieldCalendar(data.field));
    const screen = document.querySelector('#screen');
    screen.replaceChildren(lawNotices(rules, evaluation));
    const label = (id) => rules.infractions.find((i) => i.id === id).label_pt;
    return { displaced: evaluation.displaced, labels: Object.fromEntries(evaluation.displaced.flatMap((x) => [[x.id, label(x.id)], [x.by, label(x.by)]])),
             notificacao: amountText(null, { kind: 'notificacao' }),
             art41: amountText(null, { kind: 'notificacao' }, { measures: [
               { kind: 'regularizacao', days: 10, extendable_days: 10, only_if_pt: null },
               { kind: 'cassacao', days: null, only_if_pt: 'somente se a moto não for regularizada no prazo' }] }),
             ctb: amountText(null, { kind: 'multa' }, { jurisdiction: 'snt' }),
             unconfigured: amountText({ unit: 'UFM', value: null, brl_cents: null }, { kind: 'multa' }) };
}"""


def test_displaced_infraction_is_struck_through_with_the_one_that_prevails(browser, live_server):
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))
    case = next(c for c in vectors["cases"] if c["expected"].get("displaced"))
    context = browser.new_context(viewport=PHONE, device_scale_factor=SCREEN_SCALE, locale="pt-BR",
                                  timezone_id="America/Cuiaba", service_workers="allow", bypass_csp=True)
    page = context.new_page()
    _enroll(page, live_server)
    out = page.evaluate(RENDER, {"facts": case["facts"], "history": case.get("history", []),
                                 "date": case.get("date", vectors["defaults"]["date"])})
    assert out["displaced"] == case["expected"]["displaced"]
    general, specific = out["displaced"][0]["id"], out["displaced"][0]["by"]
    item = page.locator(f'#displaced li[data-infraction="{general}"]')
    expect(item.locator("s")).to_have_text(out["labels"][general])
    expect(item).to_contain_text("prevalece a norma específica")
    expect(item).to_contain_text(out["labels"][specific])
    assert "não tem multa própria" in out["notificacao"]
    # Issue 18: what applies now and later, never "sem multa nesta fiscalização" beside a fine.
    assert out["art41"] == ("Agora: notificação para regularizar em 10 dias (prorrogáveis por mais 10); a notificação "
                            "não tem multa própria. Depois, só se não regularizar: cassação.")
    assert "comunicar ao órgão de trânsito" in out["ctb"] and "Não entra no auto municipal" in out["ctb"]
    assert out["unconfigured"] == "Valor a definir (decreto não configurado)."
    check_screen(page, "law-notices")
    context.close()
