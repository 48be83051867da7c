// Reads {rules, date, vectors: [answers]} on stdin, prints {items: [fact], failed: [[requirement]]}
// from the field app's vistoria model; tests/test_vistoria_js_agrees.py compares it with the server.
import { compileComposed } from '../../pwa/js/rules/index.js';
import { failedRequirements, vistoriaItems } from '../../pwa/js/fiscal/vistoria-model.js';

let text = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
const rules = compileComposed(input.rules);
process.stdout.write(JSON.stringify({
  items: vistoriaItems(rules, input.date).map((i) => i.fact),
  failed: input.vectors.map((answers) => failedRequirements(rules, input.date, answers).map((f) => f.requirement)),
}));
