// The history the phone builds from the field data's penalty rows (pwa/js/rules/history.js);
// that phone and server build the same one is checked by shared_rules/vectors/history-*.json.
import test from "node:test";
import assert from "node:assert/strict";
import { historyFor } from "../../pwa/js/rules/history.js";

const row = (over) => ({ id: 1, operator_id: 1, permit_id: 5, infraction_id: "par.inf.g1_c", penalty: "multa",
  committed_on: "2025-05-02", applied_on: "2025-05-20", cancelled: false, ...over });

test("a penalty annulled on appeal of the same permit reaches the engine as annulled, never as applied", () => {
  // issue 19: `!p.cancelled && sameOperator || samePermit` passed it as an applied penalty
  const history = historyFor([row({ cancelled: true })], { operator_id: 2, permit_id: 5 });
  assert.deepEqual(history.map((h) => h.state), ["annulled"]);
});

test("the history date is the day the infraction was committed; applied_on travels beside it", () => {
  const [entry] = historyFor([row({})], { operator_id: 1, permit_id: null });
  assert.equal(entry.date, "2025-05-02");
  assert.equal(entry.applied_on, "2025-05-20");
});

test("rows of other people and of infractions outside the rules are left out; oldest first", () => {
  const rows = [row({ id: 3, committed_on: "2025-04-01" }), row({ id: 4, operator_id: 9, permit_id: 9 }),
    row({ id: 5, infraction_id: "sap.inf.um_passageiro" }), row({ id: 6, committed_on: "2025-01-01" })];
  const history = historyFor(rows, { operator_id: 1 }, new Set(["par.inf.g1_c"]));
  assert.deepEqual(history.map((h) => h.date), ["2025-01-01", "2025-04-01"]);
  assert.deepEqual(historyFor(rows, {}), []);
});
