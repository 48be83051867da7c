// The outbox replay against a simulated server that follows SYNC_CONTRACT.md (same id + same
// body → duplicate, other body → conflict, photos addressed by hash). Failures are injected at
// the transport, the way a dropped connection or a dead server looks to the phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { backoffMs, isPending, replay, RevokedError } from '../../pwa/js/fiscal/outbox.js';

function phone(entries, photos = {}) {
  const store = new Map(entries.map((e) => [e.id, structuredClone(e)]));
  const photoStore = new Map(Object.entries(photos).map(([sha, blob]) => [sha, { sha256: sha, blob, uploaded: false }]));
  return { store, photoStore };
}

function server({ failPushAt = new Set(), failPhotoAt = new Set(), status = {} } = {}) {
  const records = new Map();
  const photos = new Map();
  const log = [];
  let pushes = 0;
  let puts = 0;
  return {
    records, photos, log,
    io(ph) {
      return {
        list: async () => [...ph.store.values()].map((e) => structuredClone(e)),
        save: async (e) => { ph.store.set(e.id, structuredClone(e)); },
        getPhoto: async (sha) => ph.photoStore.get(sha),
        savePhoto: async (p) => { ph.photoStore.set(p.sha256, p); },
        releasePhoto: async (sha) => { const p = ph.photoStore.get(sha); if (p?.uploaded) ph.photoStore.set(sha, { sha256: sha, uploaded: true, blob: null }); },
        putPhoto: async (sha, p) => {
          puts += 1;
          if (failPhotoAt.has(puts)) throw Object.assign(new Error('network'), { status: 0 });
          log.push(`photo:${sha}`);
          photos.set(sha, p.blob);
        },
        push: async (batch) => {
          pushes += 1;
          if (failPushAt.has(pushes)) throw Object.assign(new Error('network'), { status: 0 });
          log.push(`push:${batch.length}`);
          return { results: batch.map((record) => {
            if (status[record.id]) return { id: record.id, ...status[record.id] };
            log.push(`record:${record.id}`);
            const body = JSON.parse(record.body);
            const missing = (body.photos || []).filter((sha) => !photos.has(sha));
            const known = records.get(record.id);
            if (known && known.body !== record.body) return { id: record.id, status: 'conflict' };
            records.set(record.id, record);
            return { id: record.id, status: known ? 'duplicate' : 'accepted', missing_photos: missing, flags: [] };
          }) };
        },
      };
    },
  };
}

const entry = (seq, photos = []) => ({
  id: `00000000-0000-4000-8000-00000000000${seq}`, seq, kind: 'inspection', state: 'pronto', photos,
  record: { id: `00000000-0000-4000-8000-00000000000${seq}`, body: JSON.stringify({ seq, photos }), signature: 'sig' },
});

test('records go oldest first in one push, after their photos, and leave only once acknowledged', async () => {
  const ph = phone([entry(2, ['bb']), entry(1, ['aa'])], { aa: 'A', bb: 'B' });
  const srv = server();
  const out = await replay(srv.io(ph));
  assert.deepEqual(out, { sent: 2, failed: 0, retryInMs: null });
  assert.deepEqual(srv.log, ['photo:aa', 'photo:bb', 'push:2', `record:${entry(1).id}`, `record:${entry(2).id}`]);
  assert.deepEqual([...ph.store.values()].map((e) => e.state), ['enviado', 'enviado']);
  assert.ok([...ph.photoStore.values()].every((p) => p.blob === null && p.uploaded), 'Blobs freed after the acknowledgement');
});

test('pushes carry at most `batch` records, in seq order', async () => {
  const ph = phone([1, 2, 3, 4, 5].map((n) => entry(n)));
  const srv = server();
  assert.equal((await replay(srv.io(ph), { batch: 2 })).sent, 5);
  assert.deepEqual(srv.log.filter((l) => l.startsWith('push')), ['push:2', 'push:2', 'push:1']);
  assert.deepEqual(srv.log.filter((l) => l.startsWith('record')), [1, 2, 3, 4, 5].map((n) => `record:${entry(n).id}`));
});

test('a dropped connection stops the run in order, keeps everything, and a later run finishes once', async () => {
  const ph = phone([entry(1, ['aa']), entry(2), entry(3)], { aa: 'A' });
  const srv = server({ failPushAt: new Set([2]) });
  const first = await replay(srv.io(ph), { random: () => 0.5, batch: 1 });
  assert.equal(first.sent, 1);
  assert.equal(first.retryInMs, 2000);
  const second = ph.store.get(entry(2).id);
  assert.equal(second.state, 'aguardando', 'an unreachable server is a wait, not an error (issue 18 item 8)');
  assert.match(second.error, /^Servidor indisponível — nova tentativa às \d\d:\d\d\.$/);
  assert.equal(ph.store.get(entry(3).id).state, 'pronto', 'nothing after a failed record goes before it');
  const again = await replay(srv.io(ph));
  assert.equal(again.sent, 2);
  assert.equal(srv.records.size, 3);
  assert.ok([...ph.store.values()].every((e) => e.state === 'enviado'));
});

test('a failed batch push leaves every record of it queued, in order', async () => {
  const ph = phone([entry(1), entry(2), entry(3)]);
  const srv = server({ failPushAt: new Set([1]) });
  const first = await replay(srv.io(ph), { random: () => 0.5 });
  assert.deepEqual(first, { sent: 0, failed: 1, retryInMs: 2000, unavailable: true });
  assert.deepEqual([1, 2, 3].map((n) => ph.store.get(entry(n).id).state), ['aguardando', 'pronto', 'pronto']);
  assert.equal((await replay(srv.io(ph))).sent, 3);
  assert.equal(srv.records.size, 3);
});

test('a photo upload cut mid-way is retried and the record is sent after it', async () => {
  const ph = phone([entry(1, ['aa', 'bb'])], { aa: 'A', bb: 'B' });
  const srv = server({ failPhotoAt: new Set([2]) });
  assert.equal((await replay(srv.io(ph))).sent, 0);
  assert.equal(srv.records.size, 0, 'no record before all its photos');
  assert.ok(ph.photoStore.get('aa').uploaded && !ph.photoStore.get('bb').uploaded);
  assert.equal((await replay(srv.io(ph))).sent, 1);
  assert.deepEqual([...srv.photos.keys()], ['aa', 'bb']);
});

test('an acknowledgement lost on the way back is replayed as a duplicate: one copy on the server', async () => {
  const ph = phone([entry(1)]);
  const srv = server();
  const io = srv.io(ph);
  await io.push([entry(1).record]); // reached the server, but the phone never heard the answer
  assert.equal((await replay(io)).sent, 1);
  assert.equal(srv.records.size, 1);
  assert.equal(ph.store.get(entry(1).id).state, 'enviado');
});

test('conflict is kept and shown; a rejection is not retried automatically', async () => {
  const ph = phone([entry(1), entry(2)]);
  const srv = server({ status: {
    [entry(1).id]: { status: 'conflict' },
    [entry(2).id]: { status: 'rejected', errors: { clock: ['Campo obrigatório.'] } },
  } });
  const out = await replay(srv.io(ph));
  assert.equal(out.failed, 2);
  assert.equal(ph.store.get(entry(1).id).state, 'conflito');
  const rejected = ph.store.get(entry(2).id);
  assert.equal(rejected.state, 'recusado');
  assert.match(rejected.error, /clock: Campo obrigatório/);
  assert.equal(isPending(rejected), false);
  assert.equal(isPending(ph.store.get(entry(1).id)), false);
});

test('a foreign record (its id is not this device\'s) is refused like a rejection and the next ones go on', async () => {
  const ph = phone([entry(1), entry(2)]);
  const srv = server({ status: {
    [entry(1).id]: { status: 'foreign', errors: { id: ['Este identificador não pertence a este aparelho.'] } },
  } });
  await replay(srv.io(ph));
  const foreign = ph.store.get(entry(1).id);
  assert.equal(foreign.state, 'recusado');  // set aside like a rejection (poison records)
  assert.match(foreign.error, /não pertence a este aparelho/);
  assert.equal(isPending(foreign), false);
  assert.equal(ph.store.get(entry(2).id).state, 'enviado');
});

test('an auto signed after its inspection was sent may cite the same, already released, photo', async () => {
  const ph = phone([entry(1, ['aa'])], { aa: 'A' });
  const srv = server();
  await replay(srv.io(ph));
  assert.equal(ph.photoStore.get('aa').blob, null);
  ph.store.set(entry(2).id, entry(2, ['aa', 'sig']));
  ph.photoStore.set('sig', { sha256: 'sig', blob: 'S', uploaded: false });
  assert.equal((await replay(srv.io(ph))).sent, 1);
  assert.deepEqual([...srv.photos.keys()], ['aa', 'sig']);
});

test('a refused token (401 expired, 403 device_revoked) stops the run and leaves the record ready', async () => {
  for (const refusal of [{ status: 401, code: 'unauthorized' }, { status: 403, code: 'device_revoked' }]) {
    const ph = phone([entry(1)]);
    const io = { ...server().io(ph), push: async () => { throw Object.assign(new Error('no'), refusal); } };
    await assert.rejects(replay(io), (error) => error instanceof RevokedError && error.cause.code === refusal.code);
    assert.equal(ph.store.get(entry(1).id).state, 'pronto');
  }
});

test('backoff doubles from 2 s and stops at 5 minutes', () => {
  const mid = () => 0.5;
  assert.deepEqual([1, 2, 3, 4].map((n) => backoffMs(n, mid)), [2000, 4000, 8000, 16000]);
  assert.equal(backoffMs(30, mid), 300000);
  assert.ok(backoffMs(1, () => 0) >= 1500 && backoffMs(1, () => 0.999) <= 2500);
});

test('randomized faults, 60 runs: server dies mid-batch, network cut mid-photo, page killed mid-outbox — nothing lost, nothing duplicated', async () => {
  let seed = 42;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (let run = 0; run < 60; run += 1) {
    const entries = Array.from({ length: 6 }, (_, i) => entry(i + 1, [`p${i}`, `q${i}`]));
    const ph = phone(entries, Object.fromEntries(entries.flatMap((e) => e.photos.map((p) => [p, p.toUpperCase()]))));
    const srv = server();
    const base = srv.io(ph);
    let rounds = 0;
    while ([...ph.store.values()].some(isPending) && rounds < 200) {
      rounds += 1;
      const killAt = Math.floor(random() * 20); // the page dies after this many storage writes
      let writes = 0;
      const faulty = {
        ...base,
        save: async (e) => {
          writes += 1;
          if (writes > killAt) throw new Error('page killed'); // nothing written from here on
          await base.save(e);
        },
        putPhoto: async (sha, p) => {
          if (random() < 0.2) throw Object.assign(new Error('cut'), { status: 0 });
          await base.putPhoto(sha, p);
          if (random() < 0.1) throw Object.assign(new Error('cut after upload'), { status: 0 });
        },
        push: async (records) => {
          if (random() < 0.2) throw Object.assign(new Error('server down'), { status: 0 });
          const answer = await base.push(records);
          if (random() < 0.2) throw Object.assign(new Error('answer lost'), { status: 0 });
          return answer;
        },
      };
      await replay(faulty, { random }).catch((error) => { if (error.message !== 'page killed') throw error; });
      // A killed page leaves "enviando" behind; the next start replays it like any pending record.
    }
    assert.ok(rounds < 200, `run ${run} never finished`);
    assert.equal(srv.records.size, 6, `run ${run}: lost records`);
    for (const e of entries) assert.equal(srv.records.get(e.id).body, e.record.body);
    assert.equal(srv.photos.size, 12, `run ${run}: lost photos`);
    assert.ok([...ph.store.values()].every((e) => e.state === 'enviado'));
  }
});

test('no network: the record waits untouched, the run says so, never "Servidor indisponível" (issue 34)', async () => {
  const { OFFLINE_TEXT, stateWords, syncSummary } = await import('../../pwa/js/fiscal/outbox.js');
  const ph = phone([entry(1), entry(2)]);
  const srv = server({ failPushAt: new Set([1]) });
  const io = { ...srv.io(ph), online: () => false };
  const run = await replay(io, { random: () => 0.5 });
  assert.equal(run.offline, true);
  assert.equal(run.unavailable, undefined, 'the server was never reached: it is not said to be unavailable');
  assert.deepEqual([1, 2].map((n) => ph.store.get(entry(n).id).state), ['pronto', 'pronto']);
  assert.ok([1, 2].every((n) => !ph.store.get(entry(n).id).error));
  const words = syncSummary(run, { pending: 2, refused: 0 });
  assert.deepEqual(words, { tone: 'warn', text: 'Sem conexão — será enviado quando houver sinal.' });
  assert.equal(words.text, OFFLINE_TEXT);
  // Each record reads "Guardado no aparelho" offline, whatever an earlier run left on it.
  const waiting = { ...entry(3), state: 'aguardando', error: 'Servidor indisponível — nova tentativa às 10:00.' };
  assert.deepEqual(stateWords(waiting, false), { label: 'Guardado no aparelho', reason: OFFLINE_TEXT, css: 'guardado' });
  assert.equal(stateWords(waiting, true).reason, waiting.error, 'online, the server\'s words stand');
  assert.equal(stateWords({ ...entry(4), state: 'enviado' }, false).label, 'Enviado');
  // The network back, the same records go.
  assert.equal((await replay({ ...srv.io(ph), online: () => true })).sent, 2);
});

test('network up, server silent: "Servidor indisponível", with the time of the next try', async () => {
  const { syncSummary } = await import('../../pwa/js/fiscal/outbox.js');
  const ph = phone([entry(1)]);
  const srv = server({ failPushAt: new Set([1]) });
  const run = await replay({ ...srv.io(ph), online: () => true }, { random: () => 0.5 });
  assert.equal(run.unavailable, true);
  assert.match(syncSummary(run, { pending: 1, refused: 0 }).text, /^Servidor indisponível — nova tentativa às \d\d:\d\d\.$/);
});
