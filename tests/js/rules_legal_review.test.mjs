// Issue 7 in the field app's own terms: a number typed into a form can become NaN or Infinity in
// JavaScript (Number("abc"), 1/0) without any JSON in between; the engine must refuse it naming
// the fact, its type and range, exactly like the Python twin does for JSON input.
import test from "node:test";
import assert from "node:assert/strict";
import { nodeIo } from "./rules_io.mjs";
import { loadMunicipality, evaluate, FactError } from "../../pwa/js/rules/index.js";

const io = { ...nodeIo, packsDir: "shared_rules/packs", configDir: "shared_rules/config" };
const sapezal = loadMunicipality("sapezal", io);

for (const [value, reason] of [[Number("abc"), "not_finite"], [1 / 0, "not_finite"], [-1 / 0, "not_finite"], [-150, "out_of_range"]]) {
  test(`engine_cc ${value} from a form is refused (${reason})`, () => {
    assert.throws(() => evaluate(sapezal, "2025-06-10", { "vehicle.engine_cc": value }), (e) => {
      assert.ok(e instanceof FactError);
      assert.equal(e.fact, "vehicle.engine_cc");
      assert.equal(e.reason, reason);
      assert.deepEqual(e.expected, { type: "number", min: 0, max: null, integer: false, unit: "cc" });
      assert.equal(e.message.endsWith("Esperado: número maior ou igual a 0 (cc)."), true);
      return true;
    });
  });
}

test("a CG 125 registered at 124.9 cc passes Sapezal art. 5º under the default reading", () => {
  const result = evaluate(sapezal, "2025-06-10", { "vehicle.engine_cc": 124.9 });
  assert.ok(result.passed.includes("sap.req.cilindrada"));
});

test("two fines in one stop are one autuação by default: no disqualification notice (issue 19)", () => {
  const facts = { "driver.footwear_ok": false, "vehicle.headlight_on": false };
  assert.deepEqual(evaluate(sapezal, "2025-06-10", facts).escalations, []);
  const each = loadMunicipality("sapezal", io, { options: { "sapezal.inabilitacao_multas_de_um_auto": "cada" } });
  const [esc] = evaluate(each, "2025-06-10", facts).escalations;
  assert.equal(esc.status, "would_reach");
  assert.match(esc.notice_pt, /^aviso — não é inabilitação agora/);
});
