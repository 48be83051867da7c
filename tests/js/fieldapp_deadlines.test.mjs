// The auto and result screens list the defence/appeal instances the law sets (Paranatinga art. 48:
// 3 days to the Secretário, then 3 to the Prefeito) and nothing else of the packs' deadlines.
import test from "node:test";
import assert from "node:assert/strict";
import { nodeIo } from "./rules_io.mjs";
import { loadMunicipality, evaluate } from "../../pwa/js/rules/index.js";
import { instanceDeadlines, instanceText } from "../../pwa/js/fiscal/deadlines.js";

const IO = { ...nodeIo, packsDir: "shared_rules/packs", configDir: "shared_rules/config" };
const deadlinesOf = (slug) => evaluate(loadMunicipality(slug, IO), "2025-06-10", {}).deadlines;

test("Paranatinga: art. 48 recurso to the Secretário, then to the Prefeito", () => {
  const all = deadlinesOf("paranatinga");
  const steps = instanceDeadlines(all);
  assert.deepEqual(steps.map((d) => [d.kind, d.days, d.instance_pt]),
    [["recurso", 3, "Secretário Municipal de Infra-estrutura"], ["recurso", 3, "Prefeito Municipal"]]);
  assert.ok(all.length > steps.length, "the packs hold other deadlines that a stop does not open");
  assert.ok(steps.every((d) => d.citation.art === "48"));
  assert.equal(instanceText(steps[0], 0), "1ª instância (recurso): 3 dias da notificação — Secretário Municipal de Infra-estrutura");
});

test("Sapezal: the defence deadline the law leaves open is said to be open, never a number", () => {
  const steps = instanceDeadlines(deadlinesOf("sapezal"));
  assert.equal(steps.length, 1);
  assert.equal(steps[0].days, null);
  assert.match(instanceText(steps[0], 0), /prazo não fixado na lei/);
});

test("no selection, suplente or apólice deadline is an instance", () => {
  for (const slug of ["sapezal", "paranatinga", "nortelandia"]) {
    for (const d of instanceDeadlines(deadlinesOf(slug))) assert.ok(["defesa", "recurso"].includes(d.kind), `${slug} ${d.id}`);
  }
});
