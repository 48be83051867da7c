// Runs every case of every file in shared_rules/vectors/ through the JS evaluator.
import test from "node:test";
import assert from "node:assert/strict";
import { nodeIo, vectorFiles } from "./rules_io.mjs";
import { casesOf, matches, runCase } from "../../pwa/js/rules/vectors.js";

const files = vectorFiles();

test("engine vector files exist", () => {
  assert.ok(files.some(([name]) => name.startsWith("engine-")));
});

for (const [name, doc] of files) {
  casesOf(doc).forEach((c, i) => {
    test(`${name}#${i}: ${c.name}`, () => {
      const problem = matches(c.expected, runCase(nodeIo, c));
      assert.equal(problem, null, problem ?? "");
    });
  });
}
