// What an evaluation takes in (SPEC §5): the date argument, declared facts checked against their
// declarations (type, range, choices), selections and the penalty history. Twin of
// server/rules/inputs.py.
import * as dates from "./dates.js";
import { FactError, HistoryError, expectedOf } from "./errors.js";
import { DATE_VAR, OPTION_PREFIX } from "./expr.js";

export const SELECTED = "$selected";
export const PENALTIES = "$penalties";
export const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
export const inEffect = (entry, d) => entry._from <= d && d <= entry._to;
export const orNull = (v) => (v === undefined ? null : v);

// Configuration options are visible to {"option": key} as "$option:<key>".
export function addOptions(ctx, config) {
  for (const [key, value] of Object.entries((config || {}).options || {})) ctx[OPTION_PREFIX + key] = value;
}

export function parseDateArg(date) {
  const d = dates.parseIso(date);
  if (d === null) throw new FactError(DATE_VAR, "invalid_date");
  return d;
}

// The entry `ref` as in force on `d` (a day number; null: its first version).
function versionOf(rules, ref, d) {
  if (d === null || d === undefined || typeof rules.at !== "function") return hasOwn(rules.byId, ref) ? rules.byId[ref] : undefined;
  return rules.at(ref, d) ?? undefined;
}

// `d`: the evaluation day, which decides the version of an infraction named in `$selected` /
// `$penalties` (SPEC §3 "Amendments").
export function factValues(rules, facts, d = null) {
  const ctx = {}, na = new Set();
  let selected = [];
  if (facts !== null && facts !== undefined && (typeof facts !== "object" || Array.isArray(facts))) {
    throw new FactError("$facts", "wrong_type");
  }
  for (const [name, value] of Object.entries(facts || {})) {
    if (name === SELECTED) { selected = selectedOf(rules, value, d); continue; }
    if (name === PENALTIES) { penaltiesOf(rules, value, d); continue; }
    const decl = hasOwn(rules.facts, name) ? rules.facts[name] : undefined;
    if (decl === undefined) throw new FactError(name, "unknown_fact");
    if (value === null) continue;
    if (value === "na" && (decl.na_allowed || ["bool", "number", "date"].includes(decl.type))) {
      if (!decl.na_allowed) throw new FactError(name, "na_not_allowed", expectedOf(decl));
      na.add(name);
      continue;
    }
    ctx[name] = convert(name, decl, value);
  }
  return [ctx, na, selected];
}

function convert(name, decl, value) {
  const t = decl.type;
  const refuse = (reason) => new FactError(name, reason, expectedOf(decl));
  if (t === "bool") {
    if (typeof value !== "boolean") throw refuse("wrong_type");
    return value;
  }
  if (t === "number") return numberOf(decl, value, refuse);
  if (typeof value !== "string") throw refuse("wrong_type");
  if (t === "enum" && !decl.values.includes(value)) throw refuse("not_in_values");
  if (t === "date") {
    const d = dates.parseIso(value);
    if (d === null) throw refuse("invalid_date");
    return d;
  }
  return value;
}

// A number fact must be finite and within [min, max] (min defaults to 0); NaN, ±Infinity and
// literals beyond the double range (1e400 parses to Infinity) are refused.
function numberOf(decl, value, refuse) {
  if (typeof value !== "number") throw refuse("wrong_type");
  if (!Number.isFinite(value)) throw refuse("not_finite");
  if (decl.integer && !Number.isInteger(value)) throw refuse("not_integer");
  const lo = decl.min === undefined ? 0 : decl.min, hi = decl.max === undefined ? null : decl.max;
  if ((lo !== null && value < lo) || (hi !== null && value > hi)) throw refuse("out_of_range");
  return value;
}

function selectedOf(rules, value, d = null) {
  if (!Array.isArray(value)) throw new FactError(SELECTED, "wrong_type");
  for (const ref of value) {
    const inf = typeof ref === "string" ? versionOf(rules, ref, d) : undefined;
    if (inf === undefined || inf._section !== "infractions" || !inf.selectable) throw new FactError(SELECTED, "not_selectable");
  }
  return value;
}

// {"<infraction id>": "<kind>"}: the penalty the fiscal chose among those the law allows.
export function penaltiesOf(rules, value, d = null) {
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new FactError(PENALTIES, "wrong_type");
  for (const [ref, kind] of Object.entries(value)) {
    const inf = versionOf(rules, ref, d) ?? (hasOwn(rules.byId, ref) ? rules.byId[ref] : undefined);
    if (inf === undefined || inf._section !== "infractions") throw new FactError(PENALTIES, "unknown_infraction");
    const allowed = [inf.penalty.kind, ...(inf.penalty.alternatives || [])];
    if (!allowed.includes(kind)) throw new FactError(PENALTIES, "not_an_alternative", { type: "enum", values: allowed });
  }
  return value;
}

const HISTORY_STATES = ["applied", "pending", "annulled"];

// The APPLIED penalties of the history (SPEC §5): state "applied" (the default) and, when given,
// applied on or before D. Pending or annulled entries are validated but never counted.
export function historyOf(rules, history, d) {
  let kept = [];
  if (history !== null && history !== undefined && !Array.isArray(history)) throw new HistoryError(-1, "not_a_list");
  (history || []).forEach((h, i) => {
    if (h === null || typeof h !== "object" || Array.isArray(h)) throw new HistoryError(i, "not_an_object");
    const first = typeof h.infraction === "string" && hasOwn(rules.byId, h.infraction) ? rules.byId[h.infraction] : undefined;
    if (first === undefined || first._section !== "infractions") throw new HistoryError(i, "unknown_infraction");
    const hd = dates.parseIso(h.date);
    if (hd === null) throw new HistoryError(i, "invalid_date");
    // The version in force when it was committed.
    const inf = typeof rules.asOf === "function" ? rules.asOf(first.id, hd) : first;
    const penalty = h.penalty || inf.penalty.kind;
    if (typeof penalty !== "string") throw new HistoryError(i, "wrong_type");
    const state = h.state === undefined ? "applied" : h.state;
    if (!HISTORY_STATES.includes(state)) throw new HistoryError(i, "invalid_state");
    let appliedOn = h.applied_on === undefined ? null : h.applied_on;
    if (appliedOn !== null) {
      appliedOn = dates.parseIso(appliedOn);
      if (appliedOn === null) throw new HistoryError(i, "invalid_date");
    }
    const auto = h.auto === undefined ? null : h.auto;
    if (auto !== null && typeof auto !== "string") throw new HistoryError(i, "wrong_type");
    if (state === "applied" && hd <= d && (appliedOn === null || appliedOn <= d)) kept.push([hd, inf, penalty, appliedOn ?? hd, auto]);
  });
  kept.sort((a, b) => a[0] - b[0]);
  for (const rule of rules.history_cancellation) {
    let cut = 0;
    kept.forEach((entry, i) => {
      const next = i + 1 < kept.length ? kept[i + 1][0] : d;
      // from the day the penalty was applied ("contados da data da última aplicação") to the next infraction
      if (dates.periodEnd(entry[3], rule.quiet_period) < next) cut = i + 1; // the anniversary is inside the year
    });
    kept = kept.slice(cut);
  }
  return kept;
}
