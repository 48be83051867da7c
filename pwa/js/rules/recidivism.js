// What the penalty history changes in an evaluation (SPEC §5): an infraction that `requires_prior`,
// alternatives withheld after a recent penalty, recidivism (its effect on the amount and its
// sentence) and escalation (applied penalties reaching a count). Twin of
// server/rules/recidivism.py — keep both in step, key order and pt-BR sentences included.
import * as dates from "./dates.js";
import * as money from "./money.js";
import { CALENDAR_VAR } from "./expr.js";
import { measure } from "./deadlines.js";
import { orNull } from "./inputs.js";

const PENALTY_PT = { advertencia: "advertência", multa: "multa", suspensao: "suspensão", cassacao: "cassação",
  inabilitacao: "inabilitação" };
const PENALTY_PLURAL_PT = { advertencia: "advertências", multa: "multas", suspensao: "suspensões", cassacao: "cassações",
  inabilitacao: "inabilitações" };

// `requires_prior` (e.g. "reincidir, em 12 meses, na infração X"): the applied history holds one
// of its infractions committed inside the window.
export function hasPrior(spec, d, hist) {
  const start = dates.windowStart(d, spec.window);
  return hist.some((h) => spec.infractions.includes(h[1].id) && start <= h[0] && h[0] <= d);
}

// [alternatives admitted on D, withheld or null]. `penalty.alternatives_only_if`
// ({no_penalty_within: period, citation}) admits the alternatives only to someone with no applied
// penalty of the same law committed inside the period before D.
export function alternativesOf(inf, d, hist) {
  const alternatives = [...(inf.penalty.alternatives || [])];
  const cond = inf.penalty.alternatives_only_if;
  if (!cond || !alternatives.length) return [alternatives, null];
  const start = dates.windowStart(d, cond.no_penalty_within);
  const n = hist.filter((h) => h[1]._pack === inf._pack && start <= h[0] && h[0] <= d).length;
  if (!n) return [alternatives, null];
  const names = alternatives.map((k) => PENALTY_PT[k] || k).join(" e ");
  const cap = names.charAt(0).toUpperCase() + names.slice(1).toLowerCase();
  return [[], { alternatives,
    why_pt: `${cap} não admitida: ${n} penalidade${n > 1 ? "s" : ""} aplicada${n > 1 ? "s" : ""} entre ${dates.toBr(start)} e ${dates.toBr(d)}.` }];
}

function matches(rule, inf, prior) {
  if (rule.match === "same_infraction") return prior.id === inf.id;
  if (rule.match === "same_group") {
    return prior._pack === inf._pack && inf.group !== undefined && inf.group !== null && prior.group === inf.group;
  }
  return true;
}

function phrase(n) {
  if (n === 0) return "nenhuma infração anterior correspondente";
  if (n === 1) return "1 infração anterior correspondente";
  return `${n} infrações anteriores correspondentes`;
}

function effectPt(effect, unit) {
  if ("multiply" in effect) {
    const k = effect.multiply;
    return k === 2 ? "multa em dobro" : `multa multiplicada por ${money.fmt(k)}`;
  }
  return `teto elevado para ${money.fmt(effect.set_max)} ${unit || ""}`.trimEnd();
}

// -> [output, applied true/false/null, undecided entry or null].
export function recidivism(rule, inf, d, hist, cfg) {
  let window = orNull(rule.window);
  const matching = hist.filter((h) => matches(rule, inf, h[1]));
  const minPrior = rule.min_prior ?? 1;
  const unit = (inf.amount || {}).unit;
  const base = { rule: rule.id, applied: null, prior_count: null, window_from: null,
    window_to: dates.toIso(d), effect: rule.effect, why_pt: null };
  if (window !== null && "config_key" in window) {
    const period = (cfg.periods || {})[window.config_key];
    if (period === undefined || period === null) {
      if (!matching.length) {
        Object.assign(base, { applied: false, prior_count: 0, why_pt: `Sem reincidência: ${phrase(0)} no histórico.` });
        return [base, false, null];
      }
      base.why_pt = `Reincidência indeterminada: o prazo de reincidência não foi configurado (Configuração das regras); ${phrase(matching.length)} no histórico.`;
      return [base, null, { kind: "infraction", id: inf.id, reason: "unconfigured_window", config_key: window.config_key }];
    }
    window = period;
  }
  let priors, span;
  if (window === null) {
    priors = matching;
    span = `até ${dates.toBr(d)}`;
  } else {
    const start = dates.windowStart(d, window);
    base.window_from = dates.toIso(start);
    priors = matching.filter((h) => start <= h[0] && h[0] <= d);
    span = `entre ${dates.toBr(start)} e ${dates.toBr(d)}`;
  }
  const n = priors.length;
  const applied = n >= minPrior;
  base.applied = applied; base.prior_count = n;
  base.why_pt = applied
    ? `Reincidência (${rule.label_pt}): ${phrase(n)} ${span}; ${effectPt(rule.effect, unit)}.`
    : `Sem reincidência: ${phrase(n)} ${span}.`;
  return [base, applied, null];
}

function windowPt(window) {
  if ("years" in window) return `${window.years * 12} meses`;
  if ("months" in window) return `${window.months} meses`;
  return `${window.days} dias`;
}

// The clause's recidivist_option is chosen: one penalty of the clause proposed now on an infraction
// whose recidivism applies is enough (history alone still needs count).
function recidivistReading(clause, cfg) {
  const opt = clause.recidivist_option;
  return Boolean(opt) && (cfg.options || {})[opt.key] === opt.value;
}

// Counts APPLIED penalties of the history only (SPEC §5): status "reached" when they alone reach
// the count — also on a clean stop (the driver is disqualified by history alone); when only this
// stop's proposals would reach it, "would_reach" and a notice worded so that it does not read as a
// disqualification — a proposal is not a penalty until the auto is confirmed. since_fact (a date
// fact: the last curso de reabilitação) ends an earlier disqualification: penalties committed on
// or before it no longer count. one_auto_option: unless the option says "cada", the fines of one
// autuação count once.
export function escalation(esc, packId, d, hist, proposed, cfg, undecided, ctx) {
  let start = dates.windowStart(d, esc.window);
  const since = esc.since_fact ? ctx[esc.since_fact] : undefined;
  if (Number.isInteger(since) && since + 1 > start) start = since + 1;
  const perAuto = !(esc.one_auto_option && (cfg.options || {})[esc.one_auto_option] === "cada");
  const inWindow = hist.filter((h) => start <= h[0] && h[0] <= d && h[1]._pack === esc._pack);
  for (const clause of esc.any_of) {
    const penalty = orNull(clause.penalty), groups = orNull(clause.groups);
    let matching, current, what, whatWhy;
    if (groups !== null) {
      // "punido por 3 infrações dos Grupos C ou D": every applied penalty of those groups.
      matching = inWindow.filter((h) => groups.includes(h[1].group ?? null));
      current = proposed.filter((p) => groups.includes(p.group) && p.pack === packId).length;
      what = `infrações dos grupos ${groups.join(" ou ")}`;
      whatWhy = `infração(ões) dos grupos ${groups.join(", ")}`;
    } else {
      matching = inWindow.filter((h) => h[2] === penalty);
      current = proposed.filter((p) => p.penalty.kind === penalty && p.pack === packId).length;
      what = PENALTY_PLURAL_PT[penalty] || penalty;
      whatWhy = `penalidade(s) de ${penalty}`;
    }
    const prior = perAuto ? new Set(matching.map((h, i) => (h[4] ? `a:${h[4]}` : `#${i}`))).size : matching.length;
    if (perAuto) current = Math.min(current, 1);
    let needed = clause.count;
    if (recidivistReading(clause, cfg) && proposed.some((p) => p.penalty.kind === penalty && p.pack === packId
        && (p.recidivism || {}).applied === true)) {
      needed = 1; // "reincidente em suspensão" read as a suspension imposed on a recidivist
    }
    if ((current >= 1 || prior >= clause.count) && prior + current >= needed) {
      const reached = prior >= clause.count;
      const m = esc.measure;
      const measurePt = PENALTY_PT[m.kind] || m.kind;
      const notice = reached ? null
        : `aviso — não é ${measurePt} agora: se esta autuação for confirmada, serão ${prior + current} ${what} em ${windowPt(esc.window)} (${prior} já aplicada(s), ${current} desta autuação); ${measurePt} só depois da decisão definitiva`;
      return {
        id: esc.id, citation: orNull(esc.citation), label_pt: esc.label_pt, penalty, groups, prior, current,
        count: needed, status: reached ? "reached" : "would_reach",
        window_from: dates.toIso(start), window_to: dates.toIso(d),
        measure: measure(m, d, cfg, ["escalation", esc.id], undecided, ctx[CALENDAR_VAR] || null),
        notice_pt: notice,
        why_pt: `${esc.label_pt}: ${prior + current} ${whatWhy} entre ${dates.toBr(start)} e ${dates.toBr(d)} (${prior} anterior(es), ${current} nesta fiscalização); limite ${needed}.`,
      };
    }
  }
  return null;
}
