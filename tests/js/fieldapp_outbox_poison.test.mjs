// Issue 20: one record never blocks the phone's queue. A simulated server that fails the whole
// push whenever it carries a poison record (a 500 as the real server gave for a year-0001 clock,
// a 400 as its request guard gives for a NUL, a timeout), or refuses one record's content in its
// answer; the outbox must find the culprit by splitting and send every other record.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { isPending, replay } from '../../pwa/js/fiscal/outbox.js';

const id = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const entry = (seq) => ({
  id: id(seq), seq, kind: 'inspection', state: 'pronto', photos: [],
  record: { id: id(seq), body: JSON.stringify({ seq }), signature: 'sig' },
});

function setup(count, { poison = {}, down = () => false } = {}) {
  const store = new Map(Array.from({ length: count }, (_, i) => [id(i + 1), entry(i + 1)]));
  const records = new Map();
  const pushes = [];
  const io = {
    list: async () => [...store.values()].map((e) => structuredClone(e)),
    save: async (e) => { store.set(e.id, structuredClone(e)); },
    getPhoto: async () => undefined,
    releasePhoto: async () => {},
    putPhoto: async () => {},
    push: async (batch) => {
      pushes.push(batch.map((r) => JSON.parse(r.body).seq));
      if (down()) throw Object.assign(new Error('Erro 500'), { status: 500 });
      for (const record of batch) {
        const failure = poison[JSON.parse(record.body).seq];
        if (failure?.whole) throw Object.assign(new Error(failure.message || 'falha'), failure.whole);
      }
      return { results: batch.map((record) => {
        const failure = poison[JSON.parse(record.body).seq];
        if (failure?.rejected) return { id: record.id, status: 'rejected', errors: failure.rejected };
        const known = records.has(record.id);
        records.set(record.id, record);
        return { id: record.id, status: known ? 'duplicate' : 'accepted', flags: [], missing_photos: [] };
      }) };
    },
  };
  return { store, records, pushes, io, state: (n) => store.get(id(n)) };
}

const mid = { random: () => 0.5, now: () => new Date(2026, 4, 10, 14, 3) };

test('a record that makes the server fail its whole push (500) is held; the 19 others go through', async () => {
  const t = setup(20, { poison: { 7: { whole: { status: 500 } } } });
  const out = await replay(t.io, mid);
  assert.equal(out.sent, 19);
  assert.equal(t.records.size, 19);
  assert.ok(!t.records.has(id(7)));
  const held = t.state(7);
  assert.equal(held.state, 'aguardando');
  assert.equal(held.held, true);
  assert.equal(isPending(held), true, 'held, not dropped: tried again later');
  assert.match(held.error, /erro 500/);
  assert.match(held.error, /nova tentativa às 14:03/); // 2 s after 14:03:00
  assert.equal(out.retryInMs, 2000);
  assert.ok(t.pushes.length <= 2 * Math.ceil(Math.log2(20)) + 1, `bisection, not one by one: ${t.pushes.length} pushes`);
  // Next run: only the held record is pending; it fails alone again and stays held, nothing else moves.
  const again = await replay(t.io, mid);
  assert.equal(again.sent, 0);
  assert.equal(t.state(7).state, 'aguardando');
  assert.equal(t.state(7).attempts, 2);
});

test('a held record goes after records signed later, so it never delays them', async () => {
  const t = setup(3, { poison: { 1: { whole: { status: 500 } } } });
  await replay(t.io, mid);
  t.store.set(id(4), entry(4));
  t.pushes.length = 0;
  await replay(t.io, { ...mid, batch: 1 });
  assert.deepEqual(t.pushes, [[4], [1]]);
  assert.equal(t.state(4).state, 'enviado');
});

test('a request the server refuses for one record (400 before any view) sets that record aside', async () => {
  const t = setup(10, { poison: { 4: { whole: { status: 400, code: 'invalid_character' },
    message: 'A requisição contém um caractere inválido (NUL).' } } });
  const out = await replay(t.io, mid);
  assert.equal(out.sent, 9);
  const culprit = t.state(4);
  assert.equal(culprit.state, 'recusado');
  assert.equal(isPending(culprit), false);
  assert.match(culprit.error, /caractere inválido \(NUL\)/);
});

test('a timeout on a batch is split like a 500: the others go through', async () => {
  const t = setup(8, { poison: { 8: { whole: { status: 0, timeout: true } } } });
  const out = await replay(t.io, mid);
  assert.equal(out.sent, 7);
  assert.equal(t.state(8).state, 'aguardando');
  assert.match(t.state(8).error, /não respondeu a tempo/);
});

test('a record rejected in the answer is set aside with its reason, its batch stored', async () => {
  const t = setup(5, { poison: { 2: { rejected: { 'body.clock.device_at': ['Data e hora fora do intervalo aceito.'] } } } });
  const out = await replay(t.io, mid);
  assert.equal(out.sent, 4);
  assert.equal(t.pushes.length, 1);
  assert.equal(t.state(2).state, 'recusado');
  assert.match(t.state(2).error, /body\.clock\.device_at: Data e hora fora do intervalo/);
});

test('a server failing every push is not blamed on the records: the run stops, nothing is set aside', async () => {
  let broken = true;
  const t = setup(20, { down: () => broken });
  const out = await replay(t.io, mid);
  assert.equal(out.sent, 0);
  assert.ok(t.pushes.length <= 8, `stops soon: ${t.pushes.length} pushes`);
  assert.ok([...t.store.values()].every(isPending), 'every record still queued');
  assert.ok(![...t.store.values()].some((e) => e.state === 'recusado'));
  assert.ok(out.retryInMs > 0);
  broken = false;
  assert.equal((await replay(t.io, mid)).sent, 20);
  assert.equal(t.records.size, 20);
});

test('poison among faults, 40 seeded runs: 0 lost, 0 duplicated, 0 stuck', async () => {
  let seed = 20;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (let run = 0; run < 40; run += 1) {
    const poisonSeq = 1 + Math.floor(random() * 12);
    const rejectedSeq = 1 + ((poisonSeq + 5) % 12);
    const t = setup(12, { poison: { [poisonSeq]: { whole: { status: 500 } },
      [rejectedSeq]: { rejected: { signature: ['Assinatura longa demais (até 100 caracteres).'] } } } });
    const flaky = { ...t.io, push: async (batch) => {
      if (random() < 0.15) throw Object.assign(new Error('cut'), { status: 0 });
      const answer = await t.io.push(batch);
      if (random() < 0.15) throw Object.assign(new Error('answer lost'), { status: 0 });
      return answer;
    } };
    for (let round = 0; round < 60 && [...t.store.values()].some((e) => isPending(e) && !e.held); round += 1) {
      await replay(flaky, { random, batch: 5 });
    }
    for (let n = 1; n <= 12; n += 1) {
      const e = t.state(n);
      if (n === poisonSeq) assert.equal(e.state, 'aguardando', `run ${run}: poison held`);
      else if (n === rejectedSeq) assert.equal(e.state, 'recusado', `run ${run}: rejected set aside`);
      else {
        assert.equal(e.state, 'enviado', `run ${run}: record ${n} stuck (${e.state})`);
        assert.equal(t.records.get(id(n)).body, e.record.body);
      }
    }
    assert.equal(t.records.size, 10, `run ${run}: the 10 good records, each once`);
  }
});

test('sync words: an unreachable server is an amber wait with the next try; nothing pending is "Tudo enviado"', async () => {
  const { syncSummary } = await import('../../pwa/js/fiscal/outbox.js');
  const now = () => new Date(2026, 4, 10, 14, 3);
  const waiting = syncSummary({ sent: 0, failed: 1, retryInMs: 120_000, unavailable: true }, { pending: 3, refused: 0 }, now);
  assert.deepEqual(waiting, { tone: 'warn', text: 'Servidor indisponível — nova tentativa às 14:05.' });
  const idle = syncSummary({ sent: 0, failed: 0 }, { pending: 0, refused: 0 }, now);
  assert.deepEqual(idle, { tone: 'ok', text: 'Tudo enviado.' });
  assert.doesNotMatch(idle.text, /0 enviado/);
  const done = syncSummary({ sent: 4, failed: 1, retryInMs: null }, { pending: 0, refused: 1 }, now);
  assert.equal(done.tone, 'warn');
  assert.match(done.text, /^Tudo enviado\. 1 recusado\(s\) pelo servidor/);
  const held = syncSummary({ sent: 19, failed: 1, retryInMs: 4000 }, { pending: 1, refused: 0 }, now);
  assert.equal(held.text, '19 enviado(s); 1 aguardando o servidor (nova tentativa às 14:03).');
});

test('an unreachable server leaves the record amber "aguardando", never a red error', async () => {
  const t = setup(2);
  const io = { ...t.io, push: async () => { throw Object.assign(new Error('Sem conexão com o servidor.'), { status: 0 }); } };
  const out = await replay(io, mid);
  assert.equal(out.unavailable, true);
  assert.equal(t.state(1).state, 'aguardando');
  assert.equal(t.state(1).error, 'Servidor indisponível — nova tentativa às 14:03.');
  assert.equal(t.state(2).state, 'pronto');
});
