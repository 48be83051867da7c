// Runs conformance vector cases (SPEC §10); twin of server/rules/vectors.py. File access is
// injected: io = {readJson(relPath), listDir(relDir)} relative to the repository root.
import { compose, deepMerge, loadMunicipality } from "./compose.js";
import { autoForm, checklist } from "./checklist.js";
import { evaluate } from "./evaluation.js";
import { addOptions, factValues, parseDateArg } from "./inputs.js";
import { CALENDAR_VAR, compileExpr, DATE_VAR, UNKNOWN } from "./expr.js";
import { Calendar } from "./legal_calendar.js";
import { CompileError, PackError, RulesError } from "./errors.js";
import * as dates from "./dates.js";
import { historyFor } from "./history.js";

export function casesOf(doc) {
  const defaults = doc.defaults || {};
  return doc.cases.map((c) => ({ ...defaults, ...c }));
}

// Composed rules per case, cached by what they are built from (evaluation never mutates them).
const cache = new Map();
function rulesFor(io, c) {
  const key = JSON.stringify([c.municipality ?? null, c.packs ?? null, c.config ?? null, c.config_overrides ?? null]);
  if (!cache.has(key)) cache.set(key, buildRules(io, c));
  return cache.get(key);
}

function buildRules(io, c) {
  if (c.municipality) {
    return loadMunicipality(c.municipality, {
      listDir: io.listDir, readJson: io.readJson,
      packsDir: "shared_rules/packs", configDir: "shared_rules/config",
    }, c.config_overrides || null);
  }
  const refs = c.packs || [];
  const packs = refs.map((r) => (typeof r === "string" ? io.readJson(r) : r));
  let config = c.config || { spec_version: "1.0.0", municipality: "test" };
  if (c.config_overrides) config = deepMerge(config, c.config_overrides);
  const names = refs.map((r, i) => (typeof r === "string" ? r : `inline:${packs[i].id}`));
  return compose(packs, config, names);
}

function exprValue(value, type) {
  if (value === UNKNOWN) return { value: null, type: "unknown" };
  if (type === "date") return { value: dates.toIso(value), type: "date" };
  if (type.startsWith("list:")) return { value: value.map((v) => exprValue(v, type.slice(5)).value), type };
  return { value, type };
}

// The case's legal calendar: the shared holiday data in Mato Grosso plus the case's
// `calendar.closures`; none when the case says `"calendar": false`.
export function calendarOf(io, c) {
  const spec = c.calendar ?? {};
  if (spec === false) return null;
  return new Calendar(io.readJson("shared_rules/calendar/holidays.json"), "MT", spec.closures || []);
}

export function runCase(io, c) {
  try {
    if ("expr" in c) {
      const decls = c.fact_decls || {};
      let compiled;
      try { compiled = compileExpr(c.expr, decls); } catch (e) {
        if (e instanceof CompileError) return new PackError([{ file: "inline", path: e.path, reason: e.reason }]).toJSON();
        throw e;
      }
      const [ctx] = factValues({ facts: decls, byId: {} }, c.facts || {});
      ctx[DATE_VAR] = parseDateArg(c.date || "2000-01-01");
      const calendar = calendarOf(io, c);
      if (calendar) ctx[CALENDAR_VAR] = calendar;
      addOptions(ctx, c.config);
      return exprValue(compiled.fn(ctx), compiled.type);
    }
    const rules = rulesFor(io, c);
    if (c.mode === "checklist") return { items: checklist(rules, c.date, c.facts || {}) };
    if (c.mode === "auto_form") return { fields: autoForm(rules, c.date, c.atoms ?? null) };
    const history = "field_penalties" in c
      ? historyFor(c.field_penalties, c.subject, new Set(rules.infractions.map((i) => i.id)))
      : c.history || [];
    return evaluate(rules, c.date, c.facts || {}, history, calendarOf(io, c));
  } catch (e) {
    if (e instanceof RulesError) return e.toJSON();
    throw e;
  }
}

/** Subset comparison (SPEC §10): null when it matches, else a description. */
export function matches(expected, actual, path = "") {
  const show = (x) => JSON.stringify(x)?.slice(0, 300);
  if (expected !== null && typeof expected === "object" && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return `${path}: expected object, got ${show(actual)}`;
    for (const [k, v] of Object.entries(expected)) {
      if (!(k in actual)) return `${path}/${k}: missing`;
      const r = matches(v, actual[k], `${path}/${k}`);
      if (r) return r;
    }
    return null;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return `${path}: expected ${show(expected)}, got ${show(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const r = matches(expected[i], actual[i], `${path}/${i}`);
      if (r) return r;
    }
    return null;
  }
  return expected === actual ? null : `${path}: expected ${show(expected)}, got ${show(actual)}`;
}
