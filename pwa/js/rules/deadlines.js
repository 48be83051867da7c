// Deadlines of an evaluation (SPEC §5, §6): the days a configured deadline has on D, the last day
// of a period counted by CC art. 132, the measures' deadlines, the adaptation periods running on D
// and the deadlines listed in the result. Twin of server/rules/deadlines.py — keep both in step,
// key order included.
import * as dates from "./dates.js";
import { UNKNOWN } from "./expr.js";
import { cc132Days } from "./legal_calendar.js";
import { inEffect, orNull } from "./inputs.js";

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

// The dated row in force on D: the latest valid_from <= D (decrees, unit values, deadlines).
export function selectRow(rows, d) {
  let best = null;
  for (const row of rows || []) {
    const vf = dates.parseIso(row.valid_from);
    if (vf !== null && vf <= d && (best === null || vf >= best[0])) best = [vf, row];
  }
  return best ? best[1] : null;
}

// The last day of a period starting at the inspection (CC art. 132; SPEC §5): null when it starts
// later, or without a calendar to tell whether the last day has office hours.
export function due(d, days, starts, calendar) {
  if (days === null || days === undefined || starts !== "autuacao" || !calendar) return null;
  return cc132Days(calendar, dates.toIso(d), days);
}

// owner = [undecided kind, id] of the infraction or escalation the measure belongs to.
export function measure(m, d, cfg, owner, undecided, calendar) {
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

// The adaptation periods running on D (SPEC §5), in composition order: a deadline with
// suspends_enforcement runs from its start — the date the law states (`starts_on`) or the one held
// by the option start_option (the law's publication, a sourced setting) — through its last day by
// CC art. 132 (start + days, moved to the next business day; unmoved without a calendar), both
// ends inclusive. Inside it a failed requirement of its pack — of the articles it `covers`, for
// whom `applies_when` holds — is a notice, not an infraction. Of the periods covering a whole pack,
// only the first counts.
export function gracePeriods(rules, d, cfg, calendar) {
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
export function graceFor(req, grace, ctx) {
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

function graceEnd(start, days, calendar) {
  return calendar ? dates.parseIso(cc132Days(calendar, dates.toIso(start), days)) : dates.addDays(start, days);
}

// The deadlines in force on D as the result lists them (SPEC §5): an adaptation period only while
// it runs; a configured one left unset is listed with `days` null and reported undecided.
export function listedDeadlines(rules, d, cfg, grace, calendar, undecided) {
  const out = [];
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
    out.push({ id: dl.id, kind: dl.kind, label_pt: dl.label_pt, citation: orNull(dl.citation), days,
      starts: dl.starts, instance_pt: orNull(dl.instance_pt), suspensive: orNull(dl.suspensive), due: due(d, days, dl.starts, calendar) });
  }
  return out;
}
