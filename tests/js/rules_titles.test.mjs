// The phone prints citations with the instrument's name (SPEC §3 cite_as): the Res. CONTRAN is never
// "Lei 943/2022", and every citation of the three municipalities starts with its law's cite_as.
import test from "node:test";
import assert from "node:assert/strict";
import { nodeIo } from "./rules_io.mjs";
import { loadMunicipality } from "../../pwa/js/rules/index.js";
import { citationLabel } from "../../pwa/js/fiscal/checklist-model.js";

const IO = { ...nodeIo, packsDir: "shared_rules/packs", configDir: "shared_rules/config" };
const SLUGS = ["sapezal", "paranatinga", "nortelandia"];

for (const slug of SLUGS) {
  test(`${slug}: every citation names its instrument`, () => {
    const rules = loadMunicipality(slug, IO);
    const laws = Object.assign({}, ...rules.packs.map((p) => p.laws));
    let checked = 0;
    for (const pack of rules.packs) {
      for (const section of ["requirements", "infractions", "deadlines", "auto_fields"]) {
        for (const entry of pack[section] || []) {
          if (!entry.citation) continue;
          const law = laws[entry.citation.law];
          const label = citationLabel(rules, entry.citation);
          assert.ok(law.cite_as, `${entry.id}: law ${entry.citation.law} has no cite_as`);
          assert.ok(label.startsWith(`${law.cite_as}, art.`), `${entry.id}: ${label}`);
          assert.ok(!label.startsWith("Lei 943"), label);
          checked += 1;
        }
      }
    }
    assert.ok(checked > 20);
  });
}

test("Res. CONTRAN 943/2022 is cited as a resolution", () => {
  const rules = loadMunicipality("sapezal", IO);
  const r943 = rules.packs.flatMap((p) => p.requirements || []).find((r) => r.citation?.law === "R943");
  assert.match(citationLabel(rules, r943.citation), /^Res\. CONTRAN 943\/2022, art\. /);
});
