// Start-up (issue 24): index.html modulepreloads exactly the fiscal home's static module graph —
// nothing the home does not show is fetched before it shows, and no module of that graph waits
// for its importer to be parsed. The list is hand-written HTML; this compares it with the graph
// the sources really import, so an import added to (or dropped from) the home's path fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { staticGraph } from '../../pwa/scripts/module-graph.mjs';

const pwa = resolve(dirname(fileURLToPath(import.meta.url)), '../../pwa');
const html = readFileSync(resolve(pwa, 'index.html'), 'utf8');
const rel = (files) => [...files].map((f) => relative(pwa, f)).sort();

function homeModule() {
  const routes = readFileSync(resolve(pwa, 'js/routes.js'), 'utf8');
  const [, file] = routes.match(/path: '\/fiscal',.*import\('([^']+)'\)/);
  return resolve(pwa, 'js', file);
}

test('index.html modulepreloads exactly the fiscal home graph (app.js + the /fiscal screen)', () => {
  const [, entry] = html.match(/<script type="module" src="([^"]+)"><\/script>/);
  const graph = new Set([...staticGraph(resolve(pwa, entry)), ...staticGraph(homeModule())]);
  graph.delete(resolve(pwa, entry)); // the entry script itself is fetched by its <script> tag
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => resolve(pwa, m[1]));
  assert.equal(new Set(preloaded).size, preloaded.length, 'a module preloaded twice');
  assert.deepEqual(rel(preloaded), rel(graph));
});

test('the home graph leaves out what fills in after the first paint', () => {
  const graph = rel([...staticGraph(resolve(pwa, 'js/app.js')), ...staticGraph(homeModule())]);
  for (const later of ['js/fiscal/field-data.js', 'js/fiscal/sync.js', 'js/fiscal/outbox.js', 'js/fiscal/records.js', 'js/sw-bridge.js', 'js/fiscal/qr-decoder.js']) {
    assert.ok(!graph.includes(later), `${later} is in the home's start-up graph`);
  }
});

test('the early IndexedDB opener fetches nothing outside the home graph but itself', () => {
  const [, early] = html.match(/<script type="module" async src="([^"]+)"><\/script>/);
  const home = new Set([...staticGraph(resolve(pwa, 'js/app.js')), ...staticGraph(homeModule())]);
  const extra = [...staticGraph(resolve(pwa, early))].filter((f) => !home.has(f));
  assert.deepEqual(rel(extra), [early]);
  assert.ok(home.has(resolve(pwa, 'js/data/db.js')), 'db.js left the home graph: the opener is no longer shared');
});
