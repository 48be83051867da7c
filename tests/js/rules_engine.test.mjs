// Unit tests of the JS rules engine's entry points (semantics: rules_conformance.test.mjs).
import test from "node:test";
import assert from "node:assert/strict";
import { nodeIo } from "./rules_io.mjs";
import {
  compose, compileComposed, loadMunicipality, evaluate, checklist, FactError, PackError,
} from "../../pwa/js/rules/index.js";

const io = { ...nodeIo, packsDir: "shared_rules/packs", configDir: "shared_rules/config" };
const CONFIG = { spec_version: "1.0.0", municipality: "test", unit_values: { UFIR: [{ valid_from: "2000-01-01", brl: 1.0641 }] } };
const mini = () => compose(["mini_federal", "mini_municipal"].map((n) => nodeIo.readJson(`tests/fixtures/rules/${n}.json`)), CONFIG);

for (const slug of ["nortelandia", "sapezal", "paranatinga"]) {
  test(`loadMunicipality(${slug}) composes the federal base then the municipal pack`, () => {
    const rules = loadMunicipality(slug, io);
    assert.equal(rules.packs[0].kind, "federal");
    assert.equal(rules.packs.at(-1).municipality, slug);
    assert.equal(rules.config.unit_values.UFIR[0].brl, 1.0641);
  });
}

test("the served form (toJSON) compiles back to the same rules", () => {
  const rules = loadMunicipality("paranatinga", io);
  const again = compileComposed(JSON.parse(JSON.stringify(rules)));
  assert.deepEqual(evaluate(again, "2024-05-10", {}), evaluate(rules, "2024-05-10", {}));
});

test("unknown municipality is refused", () => {
  assert.throws(() => loadMunicipality("atlantida", io), /atlantida/);
});

test("FactError names the fact", () => {
  assert.throws(() => evaluate(mini(), "2024-05-10", { "vehicle.engine_cc": "muito" }), (e) => {
    assert.ok(e instanceof FactError);
    assert.equal(e.fact, "vehicle.engine_cc");
    assert.equal(e.reason, "wrong_type");
    assert.match(e.message, /vehicle\.engine_cc/);
    return true;
  });
});

test("PackError carries file, path and reason", () => {
  const pack = nodeIo.readJson("tests/fixtures/rules/mini_municipal.json");
  pack.requirements[0].holds = { "<": ["a", { var: "vehicle.engine_cc" }] };
  assert.throws(() => compose([pack], CONFIG, ["x.json"]), (e) => {
    assert.ok(e instanceof PackError);
    assert.deepEqual(e.problems, [{ file: "x.json", path: "/requirements/0/holds/</0", reason: "type_error" }]);
    return true;
  });
});

const items = (facts) => Object.fromEntries(checklist(mini(), "2024-05-10", facts).map((i) => [i.fact, i]));

test("checklist: passenger items follow the passenger answer; the gate question is always asked", () => {
  assert.equal(items({})["passenger.age"].applicable, null);
  assert.equal(items({ "trip.passenger": false })["passenger.age"].applicable, false);
  assert.equal(items({ "trip.passenger": true })["passenger.age"].applicable, true);
  assert.equal(items({ "trip.passenger": false })["trip.passenger"].applicable, true);
});

test("checklist: order, inputs and answered flags", () => {
  const list = checklist(mini(), "2024-05-10", { "vehicle.antenna_cm": "na" });
  assert.deepEqual(list.slice(0, 2).map((i) => i.fact), ["driver.vest", "trip.passenger"]);
  assert.equal(list.at(-1).fact, "vehicle.stripe");
  const by = Object.fromEntries(list.map((i) => [i.fact, i]));
  assert.equal(by["passenger.helmet"].input, "yes_no_na");
  assert.equal(by["vehicle.engine_cc"].unit, "cc");
  assert.equal(by["vehicle.antenna_cm"].answered, true);
  assert.equal(by["vehicle.manufacture_year"], undefined);
});

test("a full evaluation is plain JSON", () => {
  const out = evaluate(mini(), "2024-05-10", { "vehicle.engine_cc": 300 });
  assert.deepEqual(JSON.parse(JSON.stringify(out)), out);
  assert.deepEqual(out.infractions.map((i) => i.id), ["t.inf.g2a"]);
  assert.equal(out.infractions[0].amount.brl_cents, 3831);
});

test("autoFields lists the fields of every law in effect", async () => {
  const { autoFields } = await import("../../pwa/js/rules/index.js");
  const fields = autoFields(mini(), "2024-05-10");
  assert.deepEqual(fields.map((f) => f.id), ["fed.auto.local", "fed.auto.assinatura", "fed.auto.prontuario",
    "t.auto.nome", "t.auto.local", "t.auto.assinatura"]);
  assert.deepEqual(fields[3], { id: "t.auto.nome", pack: "test-municipal",
    citation: { law: "L1", art: "46", inciso: "I" }, label_pt: "Nome do permissionário ou infrator", required: true,
    source: ["subject_name"] });
  assert.deepEqual(autoFields(mini(), "2007-09-30"), []);
});
