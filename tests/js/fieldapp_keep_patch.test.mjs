// The kept rows and indexes patched by deltas (field-merge.js keepAnswer) answer every look-up
// exactly as the same rows indexed from scratch (keepField of mergeField): permit number, plate,
// name, size, and the rows themselves, over random deltas that change, add and remove permits,
// operators, vehicles and pontos.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { keepAnswer, keepField, mergeField } from '../../pwa/js/fiscal/field-merge.js';

function rng(seed) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

const NAMES = ['Ana Silva', 'João Souza', 'Maria Lima', 'José Rocha', 'Luana Dias'];

function snapshot(n) {
  const rows = (make) => Array.from({ length: n }, (_, i) => make(i + 1));
  return {
    snapshot: true, cursor: 1, generated_at: '2026-12-01T00:00:00Z',
    permits: rows((id) => ({ id, number: `${String(id).padStart(3, '0')}/2026`, status: 'ativo', holder_operator_id: id, vehicle_id: id, ponto_id: 1 + (id % 3) })),
    operators: rows((id) => ({ id, name: `${NAMES[id % NAMES.length]} ${id}` })),
    vehicles: rows((id) => ({ id, plate: `ABC${String(id % 7).padStart(4, '0')}` })),
    pontos: [1, 2, 3].map((id) => ({ id, name: `Ponto ${id}` })),
    penalties: [],
  };
}

function randomDelta(random, cursor, nextId) {
  const pick = (n) => 1 + Math.floor(random() * n);
  const permits = [];
  const operators = [];
  const vehicles = [];
  for (let k = 0; k < 3; k += 1) {
    const id = random() < 0.3 ? nextId() : pick(40);
    permits.push({ id, number: random() < 0.1 ? `X${id}` : `${String(id).padStart(3, '0')}/2026`, status: random() < 0.5 ? 'ativo' : 'suspenso', holder_operator_id: pick(40), vehicle_id: pick(40), ponto_id: pick(3) });
  }
  operators.push({ id: pick(40), name: `${NAMES[pick(5) - 1]} mudado ${cursor}` });
  vehicles.push({ id: pick(40), plate: `QQQ${pick(9)}A${pick(9)}${pick(9)}` });
  const pontos = random() < 0.2 ? [{ id: pick(3), name: `Ponto renomeado ${cursor}` }] : [];
  const removed = random() < 0.3 ? { permits: [pick(40)], operators: random() < 0.3 ? [pick(40)] : [] } : {};
  return { snapshot: false, cursor, generated_at: '2026-12-02T00:00:00Z', permits, operators, vehicles, pontos, penalties: [], removed };
}

const rowsOf = (answer) => Object.fromEntries(['permits', 'operators', 'vehicles', 'pontos', 'penalties'].map((k) => [k, answer[k] || []]));

function lookups(kept) {
  const out = { size: kept.index.size };
  for (const p of kept.field.permits) {
    const v = kept.index.byNumber(p.number);
    out[`n:${p.number}`] = v && [v.permit.id, v.operator?.name ?? null, v.vehicle?.plate ?? null, v.ponto?.name ?? null, v.permit.status];
    out[`p:${v?.plate}`] = kept.index.byPlate(v?.plate || '').map((x) => x.permit.id).sort((a, b) => a - b);
  }
  for (const name of ['ana', 'jose', 'mudado', 'luana']) out[`q:${name}`] = kept.index.byName(name).map((x) => x.permit.id).sort((a, b) => a - b);
  out.rows = Object.fromEntries(['permits', 'operators', 'vehicles', 'pontos'].map((k) => [k, [...kept.field[k]].sort((a, b) => a.id - b.id)]));
  return out;
}

test('deltas patched into the kept copy answer as the same rows indexed anew', () => {
  const random = rng(7);
  let next = 40;
  const first = snapshot(40);
  let kept = keepAnswer(null, first, rowsOf(first));
  let field = mergeField(null, first);
  for (let cursor = 2; cursor < 60; cursor += 1) {
    const delta = randomDelta(random, cursor, () => (next += 1));
    kept = keepAnswer(kept, delta, rowsOf(delta));
    field = mergeField(field, delta);
    assert.deepEqual(lookups(kept), lookups(keepField(field)), `after delta ${cursor}`);
  }
});
