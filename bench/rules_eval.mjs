// Benchmark: a full-checklist evaluation (every declared fact answered, a 10-entry history) in
// the JS evaluator, per municipality. Prints JSON; bench/rules_eval.py runs it and writes
// docs/benchmarks/rules.md. Usage: node bench/rules_eval.mjs [iterations]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMunicipality, evaluate, checklist } from "../pwa/js/rules/index.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const io = {
  readJson: (rel) => JSON.parse(fs.readFileSync(path.join(ROOT, rel), "utf8")),
  listDir: (rel) => fs.readdirSync(path.join(ROOT, rel)),
  packsDir: "shared_rules/packs", configDir: "shared_rules/config",
};
const DATE = "2024-05-10";

// Same answers as bench/rules_eval.py: one per declared fact, by type.
export function fullFacts(rules) {
  const facts = {};
  for (const [name, decl] of Object.entries(rules.facts)) {
    // 150 where the declaration allows it (a model year: its minimum).
    const number = Math.min(Math.max(150, decl.min ?? 0), decl.max ?? Infinity);
    facts[name] = { bool: true, number, enum: (decl.values || [])[0], date: "2020-01-01", string: "x", photo: "sha256:00" }[decl.type];
  }
  return facts;
}

export function history(rules) {
  const ids = rules.infractions.slice(0, 10).map((i) => i.id);
  return ids.map((id, k) => ({ infraction: id, date: `2024-0${1 + (k % 4)}-1${k % 10}` }));
}

const iterations = Number(process.argv[2] || 2000);
const slugs = fs.readdirSync(path.join(ROOT, "shared_rules/packs"))
  .map((n) => io.readJson(`shared_rules/packs/${n}`)).filter((p) => p.kind === "municipal").map((p) => p.municipality).sort();
const results = {};
for (const slug of slugs) {
  const t0 = performance.now();
  const rules = loadMunicipality(slug, io);
  const composeMs = performance.now() - t0;
  const facts = fullFacts(rules), hist = history(rules);
  for (let i = 0; i < 200; i++) evaluate(rules, DATE, facts, hist);          // warm-up (JIT)
  const t1 = performance.now();
  for (let i = 0; i < iterations; i++) evaluate(rules, DATE, facts, hist);
  const evalMs = (performance.now() - t1) / iterations;
  const t2 = performance.now();
  for (let i = 0; i < iterations; i++) checklist(rules, DATE, facts);
  const checklistMs = (performance.now() - t2) / iterations;
  const out = evaluate(rules, DATE, facts, hist);
  results[slug] = { requirements: rules.requirements.length, facts: Object.keys(facts).length,
    compose_ms: composeMs, evaluate_ms: evalMs, checklist_ms: checklistMs, iterations,
    result: JSON.stringify(out) };
}
process.stdout.write(JSON.stringify({ node: process.version, results }));
