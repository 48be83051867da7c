// Merging trust deltas gives the same verdicts as one full download.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mergeTrust, touchTrust } from '../../pwa/js/credentials/trust.js';
import { prepareTrust, verify } from '../../pwa/js/credentials/verify.js';

const vectors = JSON.parse(readFileSync(new URL('../vectors/credentials/vectors.json', import.meta.url)));
const main = vectors.groups[0];

test('deltas merged in three syncs verify like the full list', async () => {
  const all = main.trust.entries;
  const cut1 = Math.floor(all.length / 3);
  const cut2 = Math.floor((2 * all.length) / 3);
  let stored = null;
  for (const part of [all.slice(0, cut1), all.slice(cut1, cut2), all.slice(cut2)]) {
    stored = mergeTrust(stored, { ...main.trust, entries: part, next_cursor: part.at(-1).cursor });
  }
  assert.equal(stored.next_cursor, all.at(-1).cursor);
  // Compacted: one entry per (kind, ref).
  assert.equal(stored.entries.length, new Set(all.map((e) => `${e.kind}:${e.ref}`)).size);
  const full = await prepareTrust(main.trust);
  const merged = await prepareTrust(stored);
  const now = Date.parse(main.now);
  for (const c of main.cases) {
    assert.deepEqual(await verify(c.payload, merged, now), await verify(c.payload, full, now), c.name);
  }
});

test('a 304 moves the data time forward, never back', () => {
  const stored = { generated_at: '2026-06-01T12:00:00.000Z', entries: [] };
  assert.equal(touchTrust(stored, Date.parse('2026-06-02T08:00:00Z')).generated_at, '2026-06-02T08:00:00.000Z');
  assert.equal(touchTrust(stored, Date.parse('2026-05-01T08:00:00Z')).generated_at, stored.generated_at);
});
