// One authority per document on the phone (pwa/js/fiscal/authority.js, issue 34 item 2): a CTB
// infraction is communicated apart unless the municipality is integrated into the SNT; "Confirmar
// todas" never confirms it; the auto body never carries a communicated one.
import test from "node:test";
import assert from "node:assert/strict";
import { autoInfractions, communicated, confirmAll, splitProposals, withTrafficDefaults } from "../../pwa/js/fiscal/authority.js";

const HELMET = { id: "sap.inf.capacete", jurisdiction: "municipal" };
const VEST = { id: "sap.inf.colete", jurisdiction: "municipal" };
const CTB = { id: "fed.inf.ctb244_ix", jurisdiction: "snt" };

test("a CTB proposal is apart, unless the municipality is integrated", () => {
  assert.deepEqual(splitProposals([HELMET, CTB, VEST]), { municipal: [HELMET, VEST], traffic: [CTB] });
  assert.deepEqual(splitProposals([HELMET, CTB], true), { municipal: [HELMET, CTB], traffic: [] });
});

test("CTB items default to 'communicate', a fiscal's 'removed' stays", () => {
  assert.deepEqual(withTrafficDefaults([CTB], {}), { [CTB.id]: { decision: "communicate", reason: "" } });
  const removed = { [CTB.id]: { decision: "removed", reason: "Colete no baú, vestido na hora" } };
  assert.deepEqual(withTrafficDefaults([CTB], removed), removed);
  // A draft from before the split had it "confirmed": it is communicated, not put in the auto.
  assert.equal(withTrafficDefaults([CTB], { [CTB.id]: { decision: "confirmed" } })[CTB.id].decision, "communicate");
});

test("Confirmar todas confirms the municipal proposals only, never a CTB one, integrated or not", () => {
  const out = confirmAll([HELMET, VEST, CTB], { [VEST.id]: { decision: "removed", reason: "Colete presente" } });
  assert.equal(out[HELMET.id].decision, "confirmed");
  assert.equal(out[VEST.id].decision, "removed");
  assert.equal(out[CTB.id], undefined);
});

test("the auto body carries the auto's infractions only", () => {
  const decisions = { [HELMET.id]: { decision: "confirmed" }, [VEST.id]: { decision: "removed", reason: "x" },
                      [CTB.id]: { decision: "communicate" } };
  assert.deepEqual(autoInfractions([HELMET, VEST, CTB], decisions).map((i) => i.id), [HELMET.id, VEST.id]);
  assert.deepEqual(communicated([HELMET, VEST, CTB], decisions).map((i) => i.id), [CTB.id]);
  // A stale "confirmed" CTB decision outside an integrated municipality still stays out of the auto.
  const stale = { ...decisions, [CTB.id]: { decision: "confirmed" } };
  assert.deepEqual(autoInfractions([HELMET, CTB], stale).map((i) => i.id), [HELMET.id]);
  assert.deepEqual(autoInfractions([HELMET, CTB], stale, true).map((i) => i.id), [HELMET.id, CTB.id]);
  assert.deepEqual(communicated([CTB], decisions, true), []);
});
