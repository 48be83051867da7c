// evaluate() (SPEC §5, §8): proposals, amounts, recidivism and escalation; inputs are checked in
// inputs.js, the checklist is built in checklist.js. Twin of server/rules/engine.py — keep both in
// step, key order included, so both print the same JSON.
import * as dates from "./dates.js";
import * as money from "./money.js";
import { CALENDAR_VAR, DATE_VAR, UNKNOWN } from "./expr.js";
import { FactError } from "./errors.js";
import { cc132Days } from "./legal_calendar.js";
import { SPEC_VERSION } from "./compose.js";
import { PENALTIES, SELECTED, addOptions, factValues, hasOwn, historyOf, inEffect, orNull, parseDateArg,
  penaltiesOf } from "./inputs.js";

function missing(ctx, compiledList) {
  const out = [];
  for (const c of compiledList) {
    if (c === null) continue;
    for (const name of c.refs) if (!hasOwn(ctx, name) && !out.includes(name)) out.push(name);
  }
  return out;
}

// `calendar`: the municipality's legal calendar (legal_calendar.js Calendar: holidays and its
// closures), which every period counted by CC art. 132 reads (SPEC §5 "Counting").
export function evaluate(rules, date, facts, history = [], calendar = null) {
  const d = parseDateArg(date);
  const [ctx, na, selected] = factValues(rules, facts, d);
  ctx[DATE_VAR] = d;
  if (calendar) ctx[CALENDAR_VAR] = calendar;
  addOptions(ctx, rules.config);
  const chosen = penaltiesOf(rules, (facts || {})[PENALTIES], d);
  const hist = historyOf(rules, history, d);
  const cfg = rules.config;
  const result = {
    spec_version: SPEC_VERSION, municipality: rules.municipality, date: dates.toIso(d),
    packs: rules.packs.map((p) => ({ id: p.id, version: p.version })),
    failed: [], passed: [], not_applicable: [], undecided: [],
    infractions: [], displaced: [], escalations: [], deadlines: [],
  };
  const undecided = result.undecided;
  const triggered = new Map();
  const trigger = (id, by) => { if (!triggered.has(id)) triggered.set(id, []); triggered.get(id).push(by); };
  for (const sel of selected) trigger(sel, SELECTED);
  const grace = gracePeriods(rules, d, rules.config, calendar);

  for (const req of rules.requirements) {
    if (req._mode === "ignored" || !inEffect(req, d)) continue;
    if (req._naFacts.some((f) => na.has(f))) { result.not_applicable.push(req.id); continue; }
    const applies = req._applies.fn(ctx);
    if (applies === false) { result.not_applicable.push(req.id); continue; }
    const holds = applies === UNKNOWN ? UNKNOWN : req._holds.fn(ctx);
    if (req._mode === "pending") {
      undecided.push({ kind: "requirement", id: req.id, reason: "vetoed_pending",
        facts: missing(ctx, [req._applies, req._holds]), would_fail: holds === UNKNOWN ? null : !holds });
      continue;
    }
    if (applies === UNKNOWN || holds === UNKNOWN) {
      undecided.push({ kind: "requirement", id: req.id, reason: "missing_fact", facts: missing(ctx, [req._applies, req._holds]) });
    } else if (holds) {
      result.passed.push(req.id);
    } else {
      const inGrace = graceFor(req, grace, ctx);
      if (inGrace === UNKNOWN) {
        // Whether the adaptation period covers this person is unknown: not yet an infraction.
        undecided.push({ kind: "requirement", id: req.id, reason: "missing_fact",
          facts: missing(ctx, grace.filter((g) => g._applies).map((g) => g._applies)) });
        continue;
      }
      const proposed = [];
      for (const ref of inGrace === null ? req.on_fail || [] : []) {
        const inf = rules.at(ref, d);
        if (inf !== null && inf._mode !== "ignored") {
          trigger(ref, req.id);
          if (inf._mode === "active") proposed.push(ref);
        }
      }
      const entry = { requirement: req.id, pack: rules.packs[req._pack].id, citation: orNull(req.citation),
        label_pt: req.label_pt, infractions: proposed };
      if (inGrace !== null) entry.grace = inGrace.id; // a notice: the law still gives time to comply
      result.failed.push(entry);
    }
  }

  withhold(rules, ctx, triggered, result, d, hist);
  displace(rules, d, triggered, result);
  for (const inf of rules.infractions) {
    if (!triggered.has(inf.id) || !inEffect(inf, d)) continue;
    if (inf._mode === "pending") { undecided.push({ kind: "infraction", id: inf.id, reason: "vetoed_pending" }); continue; }
    if (inf._mode === "ignored") continue;
    result.infractions.push(infraction(rules, inf, d, triggered.get(inf.id), hist, cfg, undecided,
      hasOwn(chosen, inf.id) ? chosen[inf.id] : null, calendar));
  }

  for (const esc of rules.escalations) {
    if (esc._mode !== "active" || !inEffect(esc, d)) continue;
    const out = escalation(esc, rules.packs[esc._pack].id, d, hist, result.infractions, cfg, undecided, ctx);
    if (out !== null) result.escalations.push(out);
  }

  for (const dl of rules.deadlines) {
    if (dl._mode === "ignored" || !inEffect(dl, d)) continue;
    if (dl.suspends_enforcement && !grace.includes(dl)) continue; // listed only while it runs
    if (dl._mode === "pending") { undecided.push({ kind: "deadline", id: dl.id, reason: "vetoed_pending" }); continue; }
    let days = orNull(dl.days);
    const key = dl.config_key;
    if (days === null && key) {
      days = configDays(cfg, key, d);
      if (days === null) undecided.push({ kind: "deadline", id: dl.id, reason: "unconfigured_deadline", config_key: key });
    }
    result.deadlines.push({ id: dl.id, kind: dl.kind, label_pt: dl.label_pt, citation: orNull(dl.citation), days,
      starts: dl.starts, instance_pt: orNull(dl.instance_pt), suspensive: orNull(dl.suspensive), due: due(d, days, dl.starts, calendar) });
  }
  return result;
}

// The adaptation periods running on D (SPEC §5), in composition order: a deadline with
// suspends_enforcement runs from its start — the date the law states (`starts_on`) or the one held
// by the option start_option (the law's publication, a sourced setting) — for `days` days, both
// ends inclusive. Inside it a failed requirement of its pack — of the articles it `covers`, for
// whom `applies_when` holds — is a notice, not an infraction. Of the periods covering a whole pack,
// only the first counts.
function gracePeriods(rules, d, cfg, calendar) {
  const out = [], whole = new Set();
  for (const dl of rules.deadlines) {
    if (!dl.suspends_enforcement || dl._mode !== "active" || dl.days === undefined || dl.days === null) continue;
    if (!inEffect(dl, d)) continue;
    const start = dates.parseIso(dl.starts_on || (cfg.options || {})[dl.start_option]);
    if (start === null || !(start <= d && d <= graceEnd(start, dl.days, calendar))) continue;
    if (!(dl.covers || []).length) {
      if (whole.has(dl._pack)) continue;
      whole.add(dl._pack);
    }
    out.push(dl);
  }
  return out;
}

// The running adaptation period that suspends `req`, null, or UNKNOWN when a period covers its
// article but whether it covers this person is not known.
function graceFor(req, grace, ctx) {
  let unknown = false;
  for (const dl of grace) {
    if (dl._pack !== req._pack) continue;
    if ((dl.covers || []).length && !dl.covers.includes(String((req.citation || {}).art))) continue;
    const applies = dl._applies ? dl._applies.fn(ctx) : true;
    if (applies === true) return dl;
    if (applies === UNKNOWN) unknown = true;
  }
  return unknown ? UNKNOWN : null;
}

// The days a configured deadline has on D (SPEC §6): a number, or the dated row in force
// ([{valid_from, days, act}], the latest valid_from <= D); null when unset.
export function configDays(cfg, key, d) {
  const value = (cfg.deadlines || {})[key];
  if (Array.isArray(value)) {
    const row = selectRow(value, d);
    return row !== null ? orNull(row.days) : null;
  }
  return orNull(value);
}

// An infraction whose `proposed_when` is not true is not proposed (SPEC §5), e.g. a
// regularize-or-lose-the-permit rule to a driver with no alvará: dropped from the failed
// requirements' lists; when the condition is unknown, listed as undecided. One that
// `requires_prior` is proposed only when the applied history holds such an infraction committed
// inside the window.
function withhold(rules, ctx, triggered, result, d, hist) {
  for (const inf of rules.infractions) {
    if (!triggered.has(inf.id) || !inEffect(inf, d)) continue;
    const cond = inf._proposedWhen;
    let value = cond ? cond.fn(ctx) : true;
    if (value === true && inf.requires_prior) value = hasPrior(inf.requires_prior, d, hist);
    if (value === true) continue;
    triggered.delete(inf.id);
    for (const failed of result.failed) failed.infractions = failed.infractions.filter((i) => i !== inf.id);
    if (value === UNKNOWN) result.undecided.push({ kind: "infraction", id: inf.id, reason: "missing_fact", facts: missing(ctx, [cond]) });
  }
}

function hasPrior(spec, d, hist) {
  const start = dates.windowStart(d, spec.window);
  return hist.some((h) => spec.infractions.includes(h[1].id) && start <= h[0] && h[0] <= d);
}

// Specific over general (SPEC §5): an infraction proposed with `displaces` removes the general
// infractions it lists from this evaluation, so one fact is not fined twice.
function displace(rules, d, triggered, result) {
  for (const inf of rules.infractions) {
    if (!triggered.has(inf.id) || inf._mode !== "active" || !inEffect(inf, d)) continue;
    for (const ref of inf.displaces || []) {
      if (triggered.has(ref)) {
        triggered.delete(ref);
        result.displaced.push({ id: ref, by: inf.id });
      }
    }
  }
  const gone = new Set(result.displaced.map((x) => x.id));
  for (const failed of result.failed) failed.infractions = failed.infractions.filter((ref) => !gone.has(ref));
}

// Last day by CC art. 132 (start + days, moved to the next business day; unmoved without a calendar).
function graceEnd(start, days, calendar) {
  return calendar ? dates.parseIso(cc132Days(calendar, dates.toIso(start), days)) : dates.addDays(start, days);
}

// The last day of a period starting at the inspection (CC art. 132; SPEC §5): null when it starts
// later, or without a calendar to tell whether the last day has office hours.
function due(d, days, starts, calendar) {
  if (days === null || days === undefined || starts !== "autuacao" || !calendar) return null;
  return cc132Days(calendar, dates.toIso(d), days);
}

function selectRow(rows, d) {
  let best = null;
  for (const row of rows || []) {
    const vf = dates.parseIso(row.valid_from);
    if (vf !== null && vf <= d && (best === null || vf >= best[0])) best = [vf, row];
  }
  return best ? best[1] : null;
}

// owner = [undecided kind, id] of the infraction or escalation the measure belongs to.
function measure(m, d, cfg, owner, undecided, calendar) {
  const dl = m.deadline || {};
  let days = orNull(dl.days);
  if (days === null && dl.config_key) {
    days = configDays(cfg, dl.config_key, d);
    if (days === null) undecided.push({ kind: owner[0], id: owner[1], reason: "unconfigured_deadline", config_key: dl.config_key });
  }
  const starts = orNull(dl.starts);
  return { kind: m.kind, label_pt: m.label_pt, citation: orNull(m.citation), days,
    extendable_days: orNull(dl.extendable_days), starts, due: due(d, days, starts, calendar), only_if_pt: orNull(m.only_if_pt) };
}

function infraction(rules, inf, d, triggeredBy, hist, cfg, undecided, chosen = null, calendar = null) {
  let recOut = null, effect = null, extra = [], windowUndecided = null;
  if (inf.recidivism) {
    const rule = rules.at(inf.recidivism, d) || rules.byId[inf.recidivism];
    let applied;
    [recOut, applied, windowUndecided] = recidivism(rule, inf, d, hist, cfg);
    if (applied) { effect = rule.effect; extra = rule.add_measures || []; }
  }
  const [alternatives, withheld] = alternativesOf(inf, d, hist);
  if (chosen !== null && withheld !== null && withheld.alternatives.includes(chosen)) {
    throw new FactError(PENALTIES, "not_an_alternative", { type: "enum", values: [inf.penalty.kind, ...alternatives] });
  }
  const kind = chosen || inf.penalty.kind;
  // A written warning carries no fine: no amount when the fiscal chose it.
  const amt = kind === "advertencia" ? null : amount(inf, d, cfg, effect, undecided);
  if (windowUndecided) undecided.push(windowUndecided);
  const measures = [...(inf.measures || []), ...extra].map((m) => measure(m, d, cfg, ["infraction", inf.id], undecided, calendar));
  return {
    id: inf.id, pack: rules.packs[inf._pack].id, citation: orNull(inf.citation), label_pt: inf.label_pt,
    group: orNull(inf.group), item: orNull(inf.item), jurisdiction: inf.jurisdiction || "municipal",
    triggered_by: triggeredBy,
    penalty: { kind, alternatives, default: inf.penalty.kind, chosen: chosen !== null, withheld },
    amount: amt, recidivism: recOut, measures,
  };
}

// [alternatives admitted on D, withheld or null]. `penalty.alternatives_only_if`
// ({no_penalty_within: period, citation}) admits the alternatives only to someone with no applied
// penalty of the same law committed inside the period before D.
function alternativesOf(inf, d, hist) {
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

function amount(inf, d, cfg, effect, undecided) {
  const a = inf.amount;
  if (a === null || a === undefined) return null;
  const out = { basis: null, unit: null, value: null, max: null, brl_cents: null, max_brl_cents: null,
    unit_value_brl: null, unit_value_from: null, decree: null };
  let value = null, maximum = null, unit;
  const key = a.decree_key;
  const row = key ? selectRow((cfg.decree_amounts || {})[key], d) : null;
  if ("max" in a) {
    out.basis = "cap"; unit = a.unit; maximum = money.dec(a.max);
    if (row !== null && "value" in row) {
      // The law's ceiling binds the decree: a value in another unit or above the cap is never output.
      if (row.unit !== a.unit) undecided.push({ kind: "infraction", id: inf.id, reason: "decree_unit_mismatch", config_key: key });
      else if (row.value > a.max) undecided.push({ kind: "infraction", id: inf.id, reason: "decree_above_cap", config_key: key });
      else { value = money.dec(row.value); out.decree = orNull(row.decree); }
    }
  } else if (key) {
    out.basis = "decree";
    if (row === null) {
      undecided.push({ kind: "infraction", id: inf.id, reason: "unconfigured_amount", config_key: key });
      return out;
    }
    unit = row.unit; out.decree = orNull(row.decree);
    value = "value" in row ? money.dec(row.value) : null;
    maximum = "max" in row ? money.dec(row.max) : null;
    if (maximum !== null) {
      out.basis = "cap";
      if (value !== null && row.value > row.max) {
        undecided.push({ kind: "infraction", id: inf.id, reason: "decree_above_cap", config_key: key });
        value = null;
      }
    }
  } else {
    out.basis = "fixed"; unit = a.unit; value = money.dec(a.value);
  }
  if (effect !== null && "multiply" in effect) {
    value = value !== null ? money.mul(value, effect.multiply) : null;
    maximum = maximum !== null ? money.mul(maximum, effect.multiply) : null;
  } else if (effect !== null && "set_max" in effect) {
    maximum = money.dec(effect.set_max);
  }
  out.unit = unit;
  out.value = value !== null ? money.toNumber(value) : null;
  out.max = maximum !== null ? money.toNumber(maximum) : null;
  let uv, uvFrom;
  if (unit === "BRL") { uv = money.dec(1); uvFrom = null; } else {
    const urow = selectRow((cfg.unit_values || {})[unit], d);
    if (urow === null) {
      undecided.push({ kind: "infraction", id: inf.id, reason: "unit_value_missing", unit });
      return out;
    }
    uv = money.dec(urow.brl); uvFrom = urow.valid_from;
  }
  out.unit_value_brl = unit !== "BRL" ? money.toNumber(uv) : 1;
  out.unit_value_from = uvFrom;
  if (value !== null) out.brl_cents = money.cents(value, uv);
  if (maximum !== null) out.max_brl_cents = money.cents(maximum, uv);
  return out;
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

function recidivism(rule, inf, d, hist, cfg) {
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

const PENALTY_PT = { advertencia: "advertência", multa: "multa", suspensao: "suspensão", cassacao: "cassação",
  inabilitacao: "inabilitação" };
const PENALTY_PLURAL_PT = { advertencia: "advertências", multa: "multas", suspensao: "suspensões", cassacao: "cassações",
  inabilitacao: "inabilitações" };

function windowPt(window) {
  if ("years" in window) return `${window.years * 12} meses`;
  if ("months" in window) return `${window.months} meses`;
  return `${window.days} dias`;
}

// Counts APPLIED penalties of the history only: status "reached" when they alone reach the count;
// "would_reach" plus a notice when only this stop's proposals would reach it.
// Applied penalties alone reach the count → "reached", also on a clean stop; this stop's
// proposals would → "would_reach" with a notice that does not read as a disqualification.
// since_fact (last curso de reabilitação) ends an earlier disqualification; one_auto_option:
// unless the option says "cada", the fines of one autuação count once (SPEC §5).
// The clause's recidivist_option is chosen: one penalty of the clause proposed now on an infraction
// whose recidivism applies is enough (history alone still needs count).
function recidivistReading(clause, cfg) {
  const opt = clause.recidivist_option;
  return Boolean(opt) && (cfg.options || {})[opt.key] === opt.value;
}

function escalation(esc, packId, d, hist, proposed, cfg, undecided, ctx) {
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
