// Every hand-computed case of shared_rules/vectors/calendar.json through the JS legal calendar.
import test from "node:test";
import assert from "node:assert/strict";
import { CASES, run } from "./legal_calendar_dump.mjs";
import * as lc from "../../pwa/js/rules/legal_calendar.js";

for (const c of CASES) {
  test(c.name, () => assert.equal(run(c), c.expect));
}

test("every counting rule names its source", () => {
  assert.match(lc.ruleText("cc_132"), /art\. 132/);
  assert.match(lc.ruleText("cpc_219"), /arts\. 219/);
  assert.match(lc.ruleText("ctn_210"), /art\. 210/);
});

test("an unknown counting rule is refused", () => {
  assert.throws(() => lc.deadline(null, "2026-01-01", 1, "guess"), RangeError);
});
