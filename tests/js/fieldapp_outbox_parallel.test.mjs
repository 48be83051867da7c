// The outbox uses the link (issue 24 item 4): photos go up a few at a time and run ahead of the
// pushes, while the pushes stay one at a time in seq order (the server checks the hash chain).
// A simulated server whose every call takes a few ms, as a slow link's latency would.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { PARALLEL_PHOTOS, replay } from '../../pwa/js/fiscal/outbox.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

function rig(records, photosEach) {
  const store = new Map();
  const photoStore = new Map();
  for (let seq = 1; seq <= records; seq += 1) {
    const id = `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
    const photos = Array.from({ length: photosEach }, (_, k) => `p${seq}-${k}`);
    for (const sha of photos) photoStore.set(sha, { sha256: sha, blob: sha.toUpperCase(), uploaded: false });
    store.set(id, { id, seq, kind: 'inspection', state: 'pronto', photos,
      record: { id, body: JSON.stringify({ seq, photos }), signature: 'sig' } });
  }
  const server = { photos: new Set(), records: [], inFlight: 0, maxPhotosInFlight: 0, pushesInFlight: 0,
    maxPushesInFlight: 0, photosDuringPush: 0, log: [] };
  const io = {
    list: async () => [...store.values()].map((e) => structuredClone(e)),
    save: async (e) => { store.set(e.id, structuredClone(e)); },
    getPhoto: async (sha) => photoStore.get(sha),
    savePhoto: async (p) => { photoStore.set(p.sha256, p); },
    releasePhoto: async (sha) => { photoStore.set(sha, { sha256: sha, uploaded: true, blob: null }); },
    putPhoto: async (sha) => {
      server.inFlight += 1;
      server.maxPhotosInFlight = Math.max(server.maxPhotosInFlight, server.inFlight);
      if (server.pushesInFlight) server.photosDuringPush += 1;
      await tick();
      server.inFlight -= 1;
      assert.ok(!server.photos.has(sha), `photo ${sha} uploaded twice`);
      server.photos.add(sha);
    },
    push: async (batch) => {
      server.pushesInFlight += 1;
      server.maxPushesInFlight = Math.max(server.maxPushesInFlight, server.pushesInFlight);
      await tick();
      server.pushesInFlight -= 1;
      return { results: batch.map((record) => {
        const body = JSON.parse(record.body);
        for (const sha of body.photos) assert.ok(server.photos.has(sha), `record ${body.seq} pushed before its photo ${sha}`);
        server.records.push(body.seq);
        return { id: record.id, status: 'accepted', missing_photos: [], flags: [] };
      }) };
    },
  };
  return { io, server, store };
}

test('photos go up a few at a time, never more than PARALLEL_PHOTOS, each record after its own', async () => {
  const { io, server, store } = rig(12, 3);
  const out = await replay(io, { batch: 5 });
  assert.equal(out.sent, 12);
  assert.ok(server.maxPhotosInFlight > 1, 'photos were sent one at a time');
  assert.ok(server.maxPhotosInFlight <= PARALLEL_PHOTOS, `${server.maxPhotosInFlight} photos in flight`);
  assert.equal(server.photos.size, 36);
  assert.deepEqual(server.records, Array.from({ length: 12 }, (_, i) => i + 1), 'records in seq order, each once');
  assert.ok([...store.values()].every((e) => e.state === 'enviado'));
});

test('the next push\'s photos upload while a push is answered; pushes stay one at a time', async () => {
  const { io, server } = rig(10, 2);
  await replay(io, { batch: 3 });
  assert.equal(server.maxPushesInFlight, 1, 'two pushes in flight would race the hash chain');
  assert.ok(server.photosDuringPush > 0, 'the link sat idle while each push was answered');
});

test('a run stopped by a cut link resumes: uploaded photos are not sent again, nothing is lost', async () => {
  const { io, server, store } = rig(6, 2);
  let puts = 0;
  const cut = { ...io, putPhoto: async (sha, p) => {
    puts += 1;
    if (puts === 5) throw Object.assign(new Error('network'), { status: 0 });
    await io.putPhoto(sha, p);
  } };
  const first = await replay(cut, { batch: 2 });
  assert.equal(first.unavailable, true);
  assert.ok(server.photos.size >= 4 && server.photos.size < 12);
  const second = await replay(io, { batch: 2 });
  assert.equal(first.sent + second.sent, 6);
  assert.equal(server.photos.size, 12); // putPhoto asserts that none went up twice
  assert.deepEqual(server.records, [1, 2, 3, 4, 5, 6]);
  assert.ok([...store.values()].every((e) => e.state === 'enviado'));
});
