// checklist() and autoFields() (SPEC §7, §8): what the fiscal is asked and what an auto must
// hold, on a date. Twin of server/rules/checklist.py.
import { DATE_VAR, UNKNOWN } from "./expr.js";
import { addOptions, factValues, hasOwn, inEffect, orNull, parseDateArg } from "./inputs.js";

/** The fields an auto de infração must contain on `date`, every composed law in order. */
export function autoFields(rules, date) {
  const d = parseDateArg(date);
  return rules.auto_fields.filter((f) => inEffect(f, d)).map((f) => ({
    id: f.id, pack: rules.packs[f._pack].id, citation: orNull(f.citation), label_pt: f.label_pt,
    required: f.required ?? true, source: [...f.source],
  }));
}

// SPEC §8: the only sources the fiscal types; every other one comes from the registry, the
// confirmed infractions, the account and settings, the clocks, the signature pads, the deadlines.
export const TYPED_SOURCES = ["place", "observations"];

/** The auto's fields as asked and printed (SPEC §8): a field whose sources are all among another
 *  field's is merged into it (asked once, printed once). With `atoms` ({source: text}) each group
 *  also gets `value` (the texts joined by " — ") and `missing`. Twin of auto_form(). */
export function autoForm(rules, date, atoms = null) {
  const groups = [];
  for (const f of autoFields(rules, date)) {
    const g = groups.find((x) => f.source.every((s) => x.source.includes(s)) || x.source.every((s) => f.source.includes(s)));
    if (!g) { groups.push({ ...f, ids: [f.id], citations: [f.citation] }); continue; }
    if (!f.source.every((s) => g.source.includes(s))) {
      Object.assign(g, { id: f.id, pack: f.pack, label_pt: f.label_pt, citation: f.citation, source: [...f.source] });
    }
    g.ids.push(f.id);
    g.citations.push(f.citation);
    g.required = g.required || f.required;
  }
  for (const g of groups) {
    g.typed = g.source.filter((s) => TYPED_SOURCES.includes(s));
    if (atoms !== null) {
      const texts = g.source.map((s) => [s, typeof atoms[s] === "string" ? atoms[s].trim() : ""]);
      g.value = texts.filter(([, t]) => t).map(([, t]) => t).join(" — ");
      g.missing = texts.filter(([, t]) => !t).map(([s]) => s);
    }
  }
  return groups;
}

const INPUTS = { number: "number", enum: "choice", date: "date", string: "text", photo: "photo" };

export function checklist(rules, date, factsSoFar = null) {
  const d = parseDateArg(date);
  const [ctx, na] = factValues(rules, factsSoFar || {});
  ctx[DATE_VAR] = d;
  addOptions(ctx, rules.config);
  const items = new Map();
  for (const req of rules.requirements) {
    if (req._mode === "ignored" || !inEffect(req, d)) continue;
    const holdsRefs = req._holds.refs;
    for (const name of refsOf(req)) {
      const decl = hasOwn(rules.facts, name) ? rules.facts[name] : undefined;
      if (decl === undefined || decl.source !== "checklist") continue;
      if (!items.has(name)) items.set(name, { decl, reqs: [], applies: [], gates: [] });
      const item = items.get(name);
      item.reqs.push(req);
      if (holdsRefs.includes(name)) item.applies.push(req._applies);
      else item.gates.push(req._applies); // asked to decide what applies
    }
  }
  const out = [];
  for (const [name, item] of items) {
    const decl = item.decl;
    const ck = decl.checklist || {};
    let applicable;
    let deciders;
    if (decl._ask !== null) {
      applicable = decl._ask.fn(ctx);
      deciders = decl._ask.refs;
    } else {
      applicable = gateMatters(name, item.gates, ctx);
      if (applicable !== true) {
        for (const c of item.applies) {
          const v = c.fn(ctx);
          if (v === true) { applicable = true; break; }
          if (v === UNKNOWN) applicable = UNKNOWN;
        }
      }
      deciders = [...item.gates, ...item.applies].flatMap((c) => c.refs);
    }
    const t = decl.type;
    out.push({
      fact: name,
      input: t === "bool" ? (decl.na_allowed ? "yes_no_na" : "yes_no") : INPUTS[t],
      label_pt: ck.prompt_pt || decl.label_pt,
      unit: orNull(decl.unit), values: orNull(decl.values),
      value_labels_pt: orNull(decl.labels_pt), help_pt: orNull(ck.help_pt), photo: ck.photo || "none", compliant_if: orNull(ck.compliant_if),
      compliant_value: orNull(ck.compliant_value), compliant_pt: orNull(ck.compliant_pt),
      requirements: item.reqs.map((r) => r.id),
      citations: item.reqs.map((r) => orNull(r.citation)),
      applicable: applicable === UNKNOWN ? null : applicable,
      decided_by: factsOnce(rules, deciders, name),
      answered: hasOwn(ctx, name) || na.has(name),
      _order: ck.order === undefined ? null : ck.order,
    });
  }
  const keyed = out.map((it, i) => [it._order === null ? 1 : 0, it._order === null ? 0 : it._order, i, it]);
  keyed.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  return keyed.map(([, , , it]) => { delete it._order; return it; });
}

// A fact asked to decide what applies matters while some requirement's applies_when is UNKNOWN
// without it (SPEC §8): once the other answers settle every one of them (no passenger → the rain
// no longer decides anything), its own answer cannot change what applies.
function gateMatters(name, gates, ctx) {
  if (!gates.length) return false;
  const without = { ...ctx };
  delete without[name];
  return gates.some((c) => c.fn(without) === UNKNOWN);
}

function factsOnce(rules, names, own) {
  const out = [];
  for (const n of names) if (n !== own && hasOwn(rules.facts, n) && !out.includes(n)) out.push(n);
  return out;
}

function refsOf(req) {
  const names = [];
  for (const c of [req._applies, req._holds]) for (const n of c.refs) if (!names.includes(n)) names.push(n);
  return names;
}
