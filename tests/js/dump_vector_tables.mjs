// Prints {"<table>#<line>": "<canonical JSON of the JS projection and case>"} for every row of every
// vectors table, so the Python suite can check that both engines read and judge each row alike
// (tests/test_rules_vector_tables.py).
import fs from "node:fs";
import path from "node:path";
import { ROOT, nodeIo } from "./rules_io.mjs";
import { canonical, runTable } from "../../pwa/js/rules/vector_table.js";

const dir = path.join(ROOT, "shared_rules", "vectors", "tables");
const out = {};
for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".csv")).sort()) {
  for (const row of runTable(nodeIo, name, fs.readFileSync(path.join(dir, name), "utf8"))) {
    out[`${name}#${row.line}`] = canonical({ case: row.case, projection: row.projection, problems: row.problems });
  }
}
process.stdout.write(JSON.stringify(out));
