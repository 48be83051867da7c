// Issue 39: a record whose id holds a NUL. The server answers its refusal with the id exactly as
// sent; an answer whose id does not match (a server that once escaped the NUL) is still matched by
// its place in the batch. Either way the record is set aside as refused and the run goes on.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { replay } from '../../pwa/js/fiscal/outbox.js';

const goodId = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const NUL_ID = 'abc\u0000def';

function setup({ echo }) {
  const entries = [goodId(1), NUL_ID, goodId(3), goodId(4)].map((id, i) => ({
    id, seq: i + 1, kind: 'inspection', state: 'pronto', photos: [],
    record: { id, body: JSON.stringify({ seq: i + 1 }), signature: 'sig' },
  }));
  const store = new Map(entries.map((e) => [e.id, e]));
  const stored = new Set();
  const io = {
    list: async () => [...store.values()].map((e) => structuredClone(e)),
    save: async (e) => { store.set(e.id, structuredClone(e)); },
    getPhoto: async () => undefined,
    releasePhoto: async () => {},
    putPhoto: async () => {},
    // Through JSON, as on the wire: a NUL travels as \u0000 and comes back as the same character.
    push: async (batch) => JSON.parse(JSON.stringify({ results: batch.map((record) => {
      if (record.id.includes('\u0000')) {
        return { id: echo(record.id), status: 'rejected', errors: { id: ['Identificador inválido.'] },
          flags: [], missing_photos: [], received_at: null };
      }
      stored.add(record.id);
      return { id: record.id, status: 'accepted', errors: {}, flags: [], missing_photos: [], received_at: null };
    }) })),
  };
  return { store, stored, io };
}

const clock = { random: () => 0.5, now: () => new Date(2026, 4, 10, 14, 3) };

for (const [label, echo] of [['echoed exactly', (id) => id], ['echoed escaped', (id) => id.replace('\u0000', '\\u0000')],
  ['answered without an id', () => null]]) {
  test(`a NUL in one record's id (${label}): refused alone, the others sent, the run not stopped`, async () => {
    const t = setup({ echo });
    const out = await replay(t.io, clock);
    assert.equal(out.sent, 3);
    assert.equal(out.unavailable, undefined, 'the server is not taken for unwell');
    assert.deepEqual([...t.stored].sort(), [goodId(1), goodId(3), goodId(4)]);
    const refused = t.store.get(NUL_ID);
    assert.equal(refused.state, 'recusado');
    assert.equal(refused.permanent, true);
    assert.match(refused.error, /id: Identificador inválido/);
  });
}
