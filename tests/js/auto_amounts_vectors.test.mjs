// shared_rules/vectors/amounts/auto-amounts.json on the phone: the engine's composed rules give each
// infraction its authority (a CTB/SNT one is split off as by_authority does on the server), and
// what the result and auto screens say of an amount (fiscal/amounts.js) never sums a CTB fine
// into the municipal auto nor reads an unconfigured amount as R$ 0,00. The phone sums no amounts.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { nodeIo } from "./rules_io.mjs";
import { loadMunicipality } from "../../pwa/js/rules/index.js";
import { amountText } from "../../pwa/js/fiscal/amounts.js";
import { splitProposals } from "../../pwa/js/fiscal/authority.js";

const IO = { ...nodeIo, packsDir: "shared_rules/packs", configDir: "shared_rules/config" };
const VECTORS = JSON.parse(readFileSync("shared_rules/vectors/amounts/auto-amounts.json", "utf8"));

for (const c of VECTORS.cases) {
  test(c.name, () => {
    const rules = loadMunicipality(c.municipality, IO);
    const byId = new Map(rules.infractions.map((i) => [i.id, i]));
    for (const item of c.infractions) {
      const entry = byId.get(item.id);
      assert.ok(entry, `${item.id} is an infraction of ${c.municipality}'s rules`);
      const jurisdiction = entry.jurisdiction || "municipal";
      const amount = item.amount ? { ...item.amount, brl_cents: item.amount_brl_cents } : null;
      const words = amountText(amount, { kind: item.penalty_kind }, { ...item, jurisdiction });
      assert.doesNotMatch(words, /R\$\s0,00/, item.id);
      if (jurisdiction === "snt") assert.match(words, /Não entra no auto municipal nem nos seus valores/);
      else if (c.expect.words_contain[item.id]) assert.ok(words.includes(c.expect.words_contain[item.id]), `${item.id}: ${words}`);
    }
    // The result screen's split (fiscal/authority.js), on the proposals as the engine gives them.
    const proposals = c.infractions.map((item) => ({ id: item.id, jurisdiction: byId.get(item.id).jurisdiction || "municipal" }));
    const { municipal, traffic } = splitProposals(proposals, c.integrated);
    assert.deepEqual(municipal.map((i) => i.id), c.expect.municipal);
    assert.deepEqual(traffic.map((i) => i.id), c.expect.traffic);
  });
}
