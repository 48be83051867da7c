// Every row of every vectors table (shared_rules/vectors/tables/*.csv) through the JS engine.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT, nodeIo } from "./rules_io.mjs";
import { parseCsv, readTable, runTable, TableError } from "../../pwa/js/rules/vector_table.js";

const dir = path.join(ROOT, "shared_rules", "vectors", "tables");
const tables = fs.readdirSync(dir).filter((n) => n.endsWith(".csv")).sort();

test("vectors tables exist", () => assert.ok(tables.length >= 1));

for (const name of tables) {
  for (const row of runTable(nodeIo, name, fs.readFileSync(path.join(dir, name), "utf8"))) {
    test(`${name}, linha ${row.line}: ${row.name}`, () => assert.deepEqual(row.problems, []));
  }
}

test("CSV cells quoted as spreadsheets write them", () => {
  assert.deepEqual(parseCsv('caso;nota\n"a;b";"diz ""sim"""\r\nc;\n'), [["caso", "nota"], ["a;b", 'diz "sim"'], ["c", ""]]);
  assert.throws(() => readTable("caso,cilindrada\n"), TableError);
});

test("a wrong expectation is named, a bad cell names its line and column", () => {
  const text = "caso,base,data,vehicle.engine_cc,passenger.present,infrações,nota\n@p,,2024-05-10,150,não,,\n"
    + "errado,@p,,400,,-,art. 5º\ninválida,@p,,muito,,,art. 5º\n";
  const rows = runTable(nodeIo, "sapezal.csv", text);
  assert.deepEqual(rows[0].problems, ["infrações: esperado -, obtido sap.inf.cilindrada"]);
  assert.deepEqual(rows[1].problems, ["linha 4, coluna vehicle.engine_cc: “muito” não é número"]);
});
