// Prints {"<file>#<index>": "<canonical JSON of the JS result>"} for every vector case, so the
// Python suite can check byte-identical output (tests/test_rules_conformance.py).
import { nodeIo, vectorFiles } from "./rules_io.mjs";
import { casesOf, runCase } from "../../pwa/js/rules/vectors.js";

const out = {};
for (const [name, doc] of vectorFiles()) {
  casesOf(doc).forEach((c, i) => { out[`${name}#${i}`] = JSON.stringify(runCase(nodeIo, c)); });
}
process.stdout.write(JSON.stringify(out));
