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
    this.byId = {}; // id -> its first version
    this.versions = {}; // id -> every version, by start date
    for (const s of SECTIONS) this[s] = [];
    this.collect();
    if (!this.problems.length) { this.compile(); this.resolve(); }
  }

  problem(pi, path, reason) { this.problems.push({ file: this.fileNames[pi], path, reason }); }

  // A problem in an entry, reported in the file that holds it (an amendment's own file).
  entryProblem(entry, path, reason) { this.problem(entry._file ?? entry._pack, path, reason); }

  // Indexes of the packs in processing order: an amendment pack (`amends`: the id of the pack it
  // amends) right after the pack it amends, so its entries join that pack (SPEC §3 "Amendments").
  order() {
    const ids = new Map(this.packs.map((p, i) => [p.id, i]));
    this.home = new Map();
    const base = [], after = new Map();
    this.packs.forEach((pack, pi) => {
      const target = pack.amends;
      if (target === undefined || target === null) { base.push(pi); this.home.set(pi, pi); return; }
      if (!ids.has(target) || (this.packs[ids.get(target)].amends ?? null) !== null) {
        this.problem(pi, "/amends", "unknown_reference");
        return;
      }
      const t = ids.get(target);
      if (!after.has(t)) after.set(t, []);
      after.get(t).push(pi);
      this.home.set(pi, t);
    });
    return base.flatMap((pi) => [pi, ...(after.get(pi) || [])]);
  }

  // The laws an entry of pack `pi` may cite: its own and, for an amendment, the amended pack's.
  lawsOf(pi) {
    const home = this.home.get(pi) ?? pi;
    return { ...(this.packs[home].laws || {}), ...(this.packs[pi].laws || {}) };
  }

  collect() {
    const sections = Object.fromEntries(SECTIONS.map((s) => [s, []]));
    for (const pi of this.order()) {
      const pack = this.packs[pi];
      const home = this.home.get(pi);
      const laws = this.lawsOf(pi);
      if (pi !== home) {
        for (const key of Object.keys(pack.laws || {})) {
          if (hasOwn(this.packs[home].laws || {}, key)) this.problem(pi, `/laws/${key}`, "duplicate_id");
        }
      }
      for (const [name, decl] of Object.entries(pack.facts || {})) {
        if (name in this.facts) {
          const prev = this.facts[name];
          if (["type", "values", "unit"].some((k) => JSON.stringify(prev[k]) !== JSON.stringify(decl[k]))) {
            this.problem(pi, `/facts/${name}`, "fact_conflict");
          }
          continue;
        }
        this.facts[name] = { ...decl, _pack: home, _file: pi };
      }
      for (const section of SECTIONS) {
        (pack[section] || []).forEach((raw, i) => {
          const path = `/${section}/${i}`;
          const entry = { ...raw, _pack: home, _file: pi, _path: path, _section: section };
          const cit = entry.citation;
          if (cit != null && !hasOwn(laws, cit.law)) this.problem(pi, `${path}/citation/law`, "unknown_law");
          const amended = (cit || {}).amended_by;
          if (amended != null && !hasOwn(laws, amended.law)) this.problem(pi, `${path}/citation/amended_by/law`, "unknown_law");
          // A version's default start is the act that gave it its wording.
          const law = (amended && laws[amended.law]) || laws[(cit || {}).law] || {};
          const start = entry.effective_from || law.effective_from || law.date;
          entry._from = start ? dates.parseIso(start) : dates.MIN_DAY;
          entry._to = entry.effective_to ? dates.parseIso(entry.effective_to) : dates.MAX_DAY;
          entry._explicitTo = Boolean(entry.effective_to);
          if (entry._from === null || entry._to === null) { this.problem(pi, `${path}/effective_from`, "invalid_date"); return; }
          if (hasOwn(this.byId, entry.id)) {
            if (this.byId[entry.id]._section !== section) { this.problem(pi, `${path}/id`, "duplicate_id"); return; }
            this.versions[entry.id].push(entry);
            // A version sits right after the earlier ones, whatever file the new wording came in.
            let last = -1;
            sections[section].forEach((e, k) => { if (e.id === entry.id) last = k; });
            sections[section].splice(last + 1, 0, entry);
            return;
          }
          this.byId[entry.id] = entry;
          this.versions[entry.id] = [entry];
          sections[section].push(entry);
        });
      }
    }
    for (const s of SECTIONS) this[s] = sections[s];
    this.closeVersions();
  }

  // Entries sharing an id are versions of one provision (SPEC §3 "Amendments"): each is in force
  // until the day before the next one starts, unless it says otherwise; two versions in force on
  // the same day are a duplicate id.
  closeVersions() {
    for (const versions of Object.values(this.versions)) {
      if (versions.length === 1) continue;
      versions.sort((a, b) => a._from - b._from);
      for (let k = 1; k < versions.length; k++) {
        const prev = versions[k - 1], next = versions[k];
        if (!prev._explicitTo && next._from > prev._from) prev._to = next._from - 1;
        if (next._from <= prev._to) this.problem(next._file, `${next._path}/id`, "duplicate_id");
      }
    }
  }

  /** The version of entry `id` in force on day `d`, or null. */
  at(id, d) {
    for (const e of (hasOwn(this.versions, id) ? this.versions[id] : [])) if (e._from <= d && d <= e._to) return e;
    return null;
  }

  /** The version in force on `d`, else the latest that started before it, else the first. */
  asOf(id, d) {
    const versions = hasOwn(this.versions, id) ? this.versions[id] : [];
    let best = null;
    for (const e of versions) {
      if (e._from <= d) best = e;
      if (e._from <= d && d <= e._to) return e;
    }
    return best || versions[0] || null;
  }

  compileAt(entry, key) {
    const expr = key in entry ? entry[key] : true;
    try { return compileExpr(expr, this.facts); } catch (e) {
      if (!(e instanceof CompileError)) throw e;
      this.entryProblem(entry, `${entry._path}/${key}${e.path}`, e.reason);
      return null;
    }
  }

  compile() {
    for (const req of this.requirements) {
      req._applies = this.compileAt(req, "applies_when");
      req._holds = this.compileAt(req, "holds");
      for (const key of ["_applies", "_holds"]) {
        if (req[key] !== null && req[key].type !== "bool") this.entryProblem(req, `${req._path}/${key.slice(1)}`, "type_error");
      }
      if (req._holds !== null) req._naFacts = req._holds.refs.filter((f) => hasOwn(this.facts, f) && this.facts[f].source === "checklist");
    }
    for (const inf of this.infractions) {
      inf._proposedWhen = null;
      if ("proposed_when" in inf) {
        inf._proposedWhen = this.compileAt(inf, "proposed_when");
        if (inf._proposedWhen !== null && inf._proposedWhen.type !== "bool") this.entryProblem(inf, `${inf._path}/proposed_when`, "type_error");
      }
    }
    for (const dl of this.deadlines) {
      dl._applies = null;
      if ("applies_when" in dl) {
        dl._applies = this.compileAt(dl, "applies_when");
        if (dl._applies !== null && dl._applies.type !== "bool") this.entryProblem(dl, `${dl._path}/applies_when`, "type_error");
      }
    }
    for (const [name, decl] of Object.entries(this.facts)) {
      const ask = (decl.checklist || {}).ask_when;
      decl._ask = null;
      if (ask !== undefined && ask !== null) {
        try { decl._ask = compileExpr(ask, this.facts); } catch (e) {
          if (!(e instanceof CompileError)) throw e;
          this.problem(decl._file, `/facts/${name}/checklist/ask_when${e.path}`, e.reason);
        }
      }
    }
  }

  ref(entry, path, ref, section) {
    const target = this.byId[ref];
    if (target === undefined || target._section !== section) this.entryProblem(entry, `${entry._path}${path}`, "unknown_reference");
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
    // An escalation counting a penalty (or a group) no infraction of its pack has could never trigger.
    for (const esc of this.escalations) {
      const kinds = new Set(), groups = new Set();
      for (const inf of this.infractions) {
        if (inf._pack !== esc._pack) continue;
        kinds.add(inf.penalty.kind);
        for (const k of inf.penalty.alternatives || []) kinds.add(k);
        groups.add(inf.group ?? null);
      }
      (esc.any_of || []).forEach((clause, i) => {
        if ("groups" in clause) {
          clause.groups.forEach((g, j) => {
            if (!groups.has(g)) this.entryProblem(esc, `${esc._path}/any_of/${i}/groups/${j}`, "unknown_group");
          });
        } else if (!kinds.has(clause.penalty)) this.entryProblem(esc, `${esc._path}/any_of/${i}/penalty`, "unknown_penalty");
      });
    }
    for (const inf of this.infractions) {
      ((inf.requires_prior || {}).infractions || []).forEach((ref, i) => this.ref(inf, `/requires_prior/infractions/${i}`, ref, "infractions"));
    }
  }

  mode(entry, vetoes, options) {
    const status = entry.status || "in_force";
    if (status === "superseded") return "ignored";
    if (status !== "vetoed") return "active";
    const veto = vetoes[entry.veto];
    if (veto === undefined) { this.entryProblem(entry, `${entry._path}/veto`, "unknown_reference"); return "pending"; }
    const option = options[veto.option_key] || "pending";
    if (!VETO_OPTIONS.includes(option)) { this.entryProblem(entry, `${entry._path}/veto`, "invalid_option"); return "pending"; }
    return { pending: "pending", veto_upheld: "ignored", veto_overridden: "active" }[option];
  }

  toJSON() {
    return { spec_version: SPEC_VERSION, municipality: this.municipality, packs: this.packs, config: this.config };
  }
}
