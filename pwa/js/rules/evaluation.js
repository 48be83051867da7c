// evaluate() (SPEC §5, §8), the entry point: requirements checked, infractions proposed (withheld,
// displaced) with their amounts, then escalations and deadlines. Inputs are checked in inputs.js,
// deadlines and adaptation periods are counted in deadlines.js, what the penalty history changes
// (recidivism, escalation) is decided in recidivism.js, the checklist is built in checklist.js.
// Twin of server/rules/evaluation.py — keep both in step, key order included, so both print the
// same JSON.
import * as dates from "./dates.js";
import * as money from "./money.js";
import { CALENDAR_VAR, DATE_VAR, UNKNOWN } from "./expr.js";
import { FactError } from "./errors.js";
import { SPEC_VERSION } from "./compose.js";
import { graceFor, gracePeriods, listedDeadlines, measure, selectRow } from "./deadlines.js";
import { PENALTIES, SELECTED, addOptions, factValues, hasOwn, historyOf, inEffect, orNull, parseDateArg,
  penaltiesOf } from "./inputs.js";
import { alternativesOf, escalation, hasPrior, recidivism } from "./recidivism.js";

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

  result.deadlines = listedDeadlines(rules, d, cfg, grace, calendar, undecided);
  return result;
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
