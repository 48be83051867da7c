// Composition of packs + configuration into a compiled ruleset (SPEC §2); twin of
// server/rules/compose.py. No file access here: loadMunicipality takes injected readers, so
// the same module runs in Node (tests, bench) and in the browser (packs from the API).
import * as dates from "./dates.js";
import { compileExpr } from "./expr.js";
import { CompileError, PackError } from "./errors.js";

export const SPEC_VERSION = "1.0.0";
const VETO_OPTIONS = ["pending", "veto_upheld", "veto_overridden"];
const SECTIONS = ["requirements", "infractions", "recidivism", "escalations", "history_cancellation",
  "deadlines", "auto_fields", "errata", "vetoes"];
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isObj = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const clone = (x) => (x === undefined ? x : JSON.parse(JSON.stringify(x)));

// Configuration merge (SPEC §2): objects merge key by key down to `depth` levels; below that a
// value replaces the default whole (a period {"years": 1} replaces {"months": 3}).
export function deepMerge(base, over, depth = 2) {
  if (depth === 0 || !isObj(base) || !isObj(over)) return clone(over);
  const out = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in base ? deepMerge(base[k], v, depth - 1) : clone(v);
  return out;
}

export function selectPacks(namedPacks, slug) {
  const federal = namedPacks.filter(([, p]) => p.kind === "federal");
  const local = namedPacks.filter(([, p]) => p.kind === "municipal" && p.municipality === slug);
  return [federal.concat(local), local.length > 0];
}

/** io = {listDir(dir) -> [file names], readJson(path) -> object, packsDir, configDir} */
export function loadMunicipality(slug, io, configOverrides = null) {
  const names = io.listDir(io.packsDir).filter((n) => n.endsWith(".json")).sort();
  const named = names.map((n) => [n, io.readJson(`${io.packsDir}/${n}`)]);
  const [chosen, hasLocal] = selectPacks(named, slug);
  if (!hasLocal) throw new Error(`Município sem pacote de regras: ${slug}`);
  let config;
  try { config = io.readJson(`${io.configDir}/${slug}.json`); } catch {
    config = { spec_version: SPEC_VERSION, municipality: slug };
  }
  if (configOverrides) config = deepMerge(config, configOverrides);
  return compose(chosen.map(([, p]) => p), config, chosen.map(([n]) => n));
}

export function compose(packs, config, fileNames = null) {
  const rules = new ComposedRules(packs, config, fileNames);
  if (rules.problems.length) throw new PackError(rules.problems);
  return rules;
}

/** The object served by GET /api/v1/rules/<slug>: {spec_version, municipality, packs, config}. */
export function compileComposed(doc) {
  return compose(doc.packs, doc.config || { municipality: doc.municipality });
}

export class ComposedRules {
  constructor(packs, config, fileNames = null) {
    this.packs = packs;
    this.config = config;
    this.municipality = config.municipality ?? null;
    this.fileNames = fileNames || packs.map((p, i) => p.id || `pack${i}`);
    this.problems = [];
    this.facts = {};
    this.byId = {};
    for (const s of SECTIONS) this[s] = [];
    this.collect();
    if (!this.problems.length) { this.compile(); this.resolve(); }
  }

  problem(pi, path, reason) { this.problems.push({ file: this.fileNames[pi], path, reason }); }

  collect() {
    this.packs.forEach((pack, pi) => {
      const laws = pack.laws || {};
      for (const [name, decl] of Object.entries(pack.facts || {})) {
        if (name in this.facts) {
          const prev = this.facts[name];
          if (["type", "values", "unit"].some((k) => JSON.stringify(prev[k]) !== JSON.stringify(decl[k]))) {
            this.problem(pi, `/facts/${name}`, "fact_conflict");
          }
          continue;
        }
        this.facts[name] = { ...decl, _pack: pi };
      }
      for (const section of SECTIONS) {
        (pack[section] || []).forEach((raw, i) => {
          const path = `/${section}/${i}`;
          const entry = { ...raw, _pack: pi, _path: path, _section: section };
          if (entry.id in this.byId) { this.problem(pi, `${path}/id`, "duplicate_id"); return; }
          this.byId[entry.id] = entry;
          const cit = entry.citation;
          if (cit != null && !(cit.law in laws)) this.problem(pi, `${path}/citation/law`, "unknown_law");
          const law = laws[(cit || {}).law] || {};
          const start = entry.effective_from || law.effective_from || law.date;
          entry._from = start ? dates.parseIso(start) : dates.MIN_DAY;
          entry._to = entry.effective_to ? dates.parseIso(entry.effective_to) : dates.MAX_DAY;
          if (entry._from === null || entry._to === null) this.problem(pi, `${path}/effective_from`, "invalid_date");
          this[section].push(entry);
        });
      }
    });
  }

  compileAt(entry, key) {
    const expr = key in entry ? entry[key] : true;
    try { return compileExpr(expr, this.facts); } catch (e) {
      if (!(e instanceof CompileError)) throw e;
      this.problem(entry._pack, `${entry._path}/${key}${e.path}`, e.reason);
      return null;
    }
  }

  compile() {
    for (const req of this.requirements) {
      req._applies = this.compileAt(req, "applies_when");
      req._holds = this.compileAt(req, "holds");
      for (const key of ["_applies", "_holds"]) {
        if (req[key] !== null && req[key].type !== "bool") this.problem(req._pack, `${req._path}/${key.slice(1)}`, "type_error");
      }
      if (req._holds !== null) req._naFacts = req._holds.refs.filter((f) => hasOwn(this.facts, f) && this.facts[f].source === "checklist");
    }
    for (const inf of this.infractions) {
      inf._proposedWhen = null;
      if ("proposed_when" in inf) {
        inf._proposedWhen = this.compileAt(inf, "proposed_when");
        if (inf._proposedWhen !== null && inf._proposedWhen.type !== "bool") this.problem(inf._pack, `${inf._path}/proposed_when`, "type_error");
      }
    }
    for (const [name, decl] of Object.entries(this.facts)) {
      const ask = (decl.checklist || {}).ask_when;
      decl._ask = null;
      if (ask !== undefined && ask !== null) {
        try { decl._ask = compileExpr(ask, this.facts); } catch (e) {
          if (!(e instanceof CompileError)) throw e;
          this.problem(decl._pack, `/facts/${name}/checklist/ask_when${e.path}`, e.reason);
        }
      }
    }
  }

  ref(entry, path, ref, section) {
    const target = this.byId[ref];
    if (target === undefined || target._section !== section) this.problem(entry._pack, `${entry._path}${path}`, "unknown_reference");
  }

  resolve() {
    const options = this.config.options || {};
    const vetoes = Object.fromEntries(this.vetoes.map((v) => [v.id, v]));
    for (const section of ["requirements", "infractions", "deadlines", "escalations"]) {
      for (const entry of this[section]) entry._mode = this.mode(entry, vetoes, options);
    }
    for (const req of this.requirements) (req.on_fail || []).forEach((ref, i) => this.ref(req, `/on_fail/${i}`, ref, "infractions"));
    for (const inf of this.infractions) {
      if (inf.recidivism) this.ref(inf, "/recidivism", inf.recidivism, "recidivism");
      (inf.displaces || []).forEach((ref, i) => this.ref(inf, `/displaces/${i}`, ref, "infractions"));
    }
    for (const section of ["requirements", "infractions"]) {
      for (const entry of this[section]) (entry.errata || []).forEach((ref, i) => this.ref(entry, `/errata/${i}`, ref, "errata"));
    }
    // An escalation counting a penalty no infraction of its pack has could never trigger.
    for (const esc of this.escalations) {
      const kinds = new Set();
      for (const inf of this.infractions) {
        if (inf._pack !== esc._pack) continue;
        kinds.add(inf.penalty.kind);
        for (const k of inf.penalty.alternatives || []) kinds.add(k);
      }
      (esc.any_of || []).forEach((clause, i) => {
        if (!kinds.has(clause.penalty)) this.problem(esc._pack, `${esc._path}/any_of/${i}/penalty`, "unknown_penalty");
      });
    }
  }

  mode(entry, vetoes, options) {
    const status = entry.status || "in_force";
    if (status === "superseded") return "ignored";
    if (status !== "vetoed") return "active";
    const veto = vetoes[entry.veto];
    if (veto === undefined) { this.problem(entry._pack, `${entry._path}/veto`, "unknown_reference"); return "pending"; }
    const option = options[veto.option_key] || "pending";
    if (!VETO_OPTIONS.includes(option)) { this.problem(entry._pack, `${entry._path}/veto`, "invalid_option"); return "pending"; }
    return { pending: "pending", veto_upheld: "ignored", veto_overridden: "active" }[option];
  }

  toJSON() {
    return { spec_version: SPEC_VERSION, municipality: this.municipality, packs: this.packs, config: this.config };
  }
}
