// Adaptation periods on the roadside (Nortelândia art. 17: 60 days; Paranatinga art. 54: 90 days):
// inside them the engine proposes no infraction for a failed duty of the municipal law and marks
// the failed entry with `grace` (SPEC §5). The result screen shows each as a notice, never as an
// infraction. Pure (no DOM): tests/js/fieldapp_grace.test.mjs.
import { cc132Days } from '../rules/legal_calendar.js';

const br = (iso) => iso.split('-').reverse().join('/');

/** The period's last day (CC art. 132, as the engine counts it), or null when it cannot be told. */
export function graceLastDay(rules, period, calendar) {
  const start = (rules.config?.options || {})[period.start_option];
  if (!calendar || !start || period.days == null) return null;
  return cc132Days(calendar, start, period.days);
}

/** [{requirement, label_pt, period, last_day, text}] for the failed requirements the law still
 *  gives time to meet on the day evaluated. `cite(rules, citation)` words a citation. */
export function graceNotices(rules, evaluation, calendar, cite) {
  const byId = new Map(rules.deadlines.map((d) => [d.id, d]));
  return (evaluation.failed || []).filter((f) => f.grace).map((f) => {
    const period = byId.get(f.grace) || { id: f.grace, label_pt: f.grace };
    const last = graceLastDay(rules, period, calendar);
    const source = cite(rules, period.citation);
    return {
      requirement: f.requirement, label_pt: f.label_pt, period: period.id, last_day: last,
      text: `Aviso — não é infração: ${f.label_pt}. Prazo de adequação em curso`
        + `${last ? ` até ${br(last)}` : ''} (${period.label_pt}${source ? `; ${source}` : ''}): oriente o condutor.`,
    };
  });
}
