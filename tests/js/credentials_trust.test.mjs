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
  // Compacted: one status per (kind, ref).
  const kept = Object.values(stored.statuses).flatMap((byStatus) => Object.values(byStatus)).flat();
  assert.equal(kept.length, new Set(all.map((e) => `${e.kind}:${e.ref}`)).size);
  const full = await prepareTrust(main.trust);
  const merged = await prepareTrust(stored);
  const now = Date.parse(main.now);
  for (const c of main.cases) {
    assert.deepEqual(await verify(c.payload, merged, now), await verify(c.payload, full, now), c.name);
  }
});

// format=grouped, written here from the vectors' entries: refs grouped by their last status,
// serials and kids as differences from the previous one.
function groupedForm(entries) {
  const last = new Map();
  for (const e of [...entries].sort((a, b) => a.cursor - b.cursor)) last.set(`${e.kind}|${e.ref}`, e);
  const status = { permit: {}, credential: {}, key: {} };
  for (const e of last.values()) (status[e.kind][e.status] ??= []).push(e.kind === 'permit' ? String(e.ref) : Number(e.ref));
  for (const kind of ['credential', 'key']) {
    for (const refs of Object.values(status[kind])) {
      refs.sort((a, b) => a - b);
      for (let i = refs.length - 1; i > 0; i -= 1) refs[i] -= refs[i - 1];
    }
  }
  return status;
}

test('the grouped answer, alone or merged over stored entries, verifies like the full list', async () => {
  const all = main.trust.entries;
  const full = await prepareTrust(main.trust);
  const now = Date.parse(main.now);
  const wire = { ...main.trust, entries: [], status: groupedForm(all), next_cursor: all.at(-1).cursor };
  const half = Math.floor(all.length / 2);
  const earlier = mergeTrust(null, { ...main.trust, entries: all.slice(0, half) });
  const later = { ...main.trust, entries: [], status: groupedForm(all.slice(half)), next_cursor: all.at(-1).cursor };
  for (const stored of [mergeTrust(null, wire), mergeTrust(earlier, later)]) {
    const merged = await prepareTrust(stored);
    for (const c of main.cases) {
      assert.deepEqual(await verify(c.payload, merged, now), await verify(c.payload, full, now), c.name);
    }
  }
});

test('a 304 moves the data time forward, never back', () => {
  const stored = { generated_at: '2026-06-01T12:00:00.000Z', entries: [] };
  assert.equal(touchTrust(stored, Date.parse('2026-06-02T08:00:00Z')).generated_at, '2026-06-02T08:00:00.000Z');
  assert.equal(touchTrust(stored, Date.parse('2026-05-01T08:00:00Z')).generated_at, stored.generated_at);
});

test('statusLookups answers from the stored groups as statusMaps does, for every ref and a missing one', async () => {
  const { statusLookups, statusMaps } = await import('../../pwa/js/credentials/trust.js');
  const stored = { statuses: { permit: { ativo: ['001', '002'], suspenso: ['003'] }, credential: { active: [1, 5], revoked: [2] }, key: { active: [7] } } };
  const lookups = statusLookups(stored);
  const maps = statusMaps(stored);
  for (const kind of ['permit', 'credential', 'key']) {
    for (const [ref, status] of maps[kind]) assert.equal(lookups[kind].get(ref), status, `${kind} ${ref}`);
  }
  assert.equal(lookups.permit.get('004'), undefined);
  assert.equal(lookups.credential.get(3), undefined);
  assert.equal(lookups.credential.get('1'), undefined); // serials are numbers, as verify asks them
  // Older shapes still go through the Maps.
  assert.equal(statusLookups({ entries: [{ kind: 'permit', ref: '9', status: 'ativo', cursor: 1 }] }).permit.get('9'), 'ativo');
});

test('merged groups are stored sorted and searched by halves: the same answers as the Maps, missing refs included', async () => {
  const { statusLookups, statusMaps } = await import('../../pwa/js/credentials/trust.js');
  const numbers = Array.from({ length: 500 }, (_, i) => `${String((i * 7919) % 1000).padStart(3, '0')}/${2020 + (i % 7)}`);
  const statuses = ['ativo', 'suspenso', 'vencido'];
  const entries = numbers.map((ref, i) => ({ kind: 'permit', ref, status: statuses[i % 3], cursor: i + 1 }))
    .concat(numbers.map((_, i) => ({ kind: 'credential', ref: (i * 7919) % 3001 + 1, status: i % 5 ? 'active' : 'revoked', cursor: 1000 + i })));
  const first = mergeTrust(null, { ...main.trust, entries: entries.slice(0, 600), next_cursor: 600 });
  // A later delta: changed statuses and new refs that sort anywhere among the stored ones.
  const stored = mergeTrust(first, { ...main.trust, entries: entries.slice(600), next_cursor: 2000 });
  assert.equal(stored.sorted, true);
  for (const refs of Object.values(stored.statuses.permit)) assert.deepEqual(refs, [...refs].sort());
  for (const refs of Object.values(stored.statuses.credential)) assert.deepEqual(refs, [...refs].sort((a, b) => a - b));
  const lookups = statusLookups(stored);
  const maps = statusMaps(stored);
  for (const kind of ['permit', 'credential']) {
    assert.ok(maps[kind].size > 100);
    for (const [ref, status] of maps[kind]) assert.equal(lookups[kind].get(ref), status, `${kind} ${ref}`);
  }
  for (const missing of ['', '000/2019', '5000/2026', '999/2027', 'zzz']) assert.equal(lookups.permit.get(missing), undefined, missing);
  for (const missing of [0, 2, 3002, -1, 1.5]) assert.equal(lookups.credential.get(missing) === undefined, !maps.credential.has(missing), String(missing));
  assert.equal(lookups.credential.get(String([...maps.credential.keys()][0])), undefined); // a serial asked as text: never found
});
