// A photo whose upload was cut after it reached the server (the answer lost, the app closed) is
// not sent again: the next run asks with HEAD first (issue 40, item 3). A photo never tried goes
// straight up, without the extra round trip.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { replay } from '../../pwa/js/fiscal/outbox.js';

const ID = '00000000-0000-4000-8000-000000000001';

function setup({ loseAnswerOfPut = 0 } = {}) {
  const server = { photos: new Map(), puts: 0, heads: 0, records: new Set() };
  const outbox = new Map([[ID, { id: ID, seq: 1, kind: 'inspection', state: 'pronto', photos: ['aa'],
    record: { id: ID, body: JSON.stringify({ photos: ['aa'] }), signature: 's' } }]]);
  const photos = new Map([['aa', { sha256: 'aa', blob: 'JPEG', uploaded: false }]]);
  const meta = new Map();
  const io = {
    list: async () => [...outbox.values()].map((e) => structuredClone(e)),
    save: async (e) => { outbox.set(e.id, structuredClone(e)); },
    getPhoto: async (sha) => structuredClone(photos.get(sha)),
    savePhoto: async (p) => { photos.set(p.sha256, structuredClone(p)); },
    releasePhoto: async () => {},
    photoTried: async (sha) => meta.has(`photo-put:${sha}`),
    notePhotoTry: async (sha) => { meta.set(`photo-put:${sha}`, 'now'); },
    forgetPhotoTry: async (sha) => { meta.delete(`photo-put:${sha}`); },
    hasPhoto: async (sha) => { server.heads += 1; return server.photos.has(sha); },
    putPhoto: async (sha, p) => {
      server.puts += 1;
      server.photos.set(sha, p.blob);
      if (server.puts === loseAnswerOfPut) throw Object.assign(new Error('network'), { status: 0 });
    },
    push: async (batch) => ({ results: batch.map((r) => { server.records.add(r.id); return { id: r.id, status: 'accepted', missing_photos: [], flags: [] }; }) }),
  };
  return { io, server, outbox, meta };
}

test('after an upload cut once it had arrived, HEAD finds the photo and it is not sent again', async () => {
  const { io, server, outbox, meta } = setup({ loseAnswerOfPut: 1 });
  assert.equal((await replay(io)).sent, 0); // the answer never came: the run stops, nothing lost
  assert.equal(server.puts, 1);
  assert.equal((await replay(io)).sent, 1);
  assert.equal(server.puts, 1, 'the bytes went up once');
  assert.equal(server.heads, 1);
  assert.equal(outbox.get(ID).state, 'enviado');
  assert.equal(meta.size, 0, 'the marker is dropped once the photo is known uploaded');
});

test('a photo never tried is put without asking first', async () => {
  const { io, server } = setup();
  assert.equal((await replay(io)).sent, 1);
  assert.deepEqual([server.puts, server.heads], [1, 0]);
});
