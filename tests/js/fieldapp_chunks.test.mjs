// The registry extract's layout in IndexedDB v5 (data/db.js): rows grouped into chunks by id (packed) and
// a permit-number look-up, so a 50,000-permit snapshot is a few hundred puts (issue 40); and the
// in-memory copy built in slices (field-merge.js keepFieldInSlices) is the one keepField builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { CHUNK_SHIFT, chunkKey, chunkRecords, chunkRow, chunkRows, numberBucket, numberEntryId, numberKey, packRows } from '../../pwa/js/data/db.js';
import { keepField, keepFieldInSlices } from '../../pwa/js/fiscal/field-merge.js';

const rows = (n) => ({
  permits: Array.from({ length: n }, (_, i) => ({ id: n - i, number: `SAP-${n - i}`, holder_operator_id: 10000 + n - i, vehicle_id: 20000 + n - i, ponto_id: 1 + ((n - i) % 3) })),
  operators: Array.from({ length: n }, (_, i) => ({ id: 10000 + i + 1, name: `Operador ${i + 1}` })),
  vehicles: Array.from({ length: n }, (_, i) => ({ id: 20000 + i + 1, plate: `QQA${String(i + 1).padStart(4, '0')}` })),
  pontos: [1, 2, 3].map((id) => ({ id, name: `Ponto ${id}` })),
  penalties: [],
});

test('every row lands once, in the chunk of its id, sorted; each permit number finds its rows\' ids', () => {
  const data = rows(3000);
  const records = chunkRecords(data);
  const byKey = new Map(records.map(([key, value]) => [key.join('|'), value]));
  for (const kind of ['permits', 'operators', 'vehicles', 'pontos']) {
    const kept = records.filter(([key]) => key[0] === kind).flatMap(([, value]) => chunkRows(value));
    assert.equal(kept.length, data[kind].length, kind);
    for (const row of data[kind]) assert.deepEqual(chunkRow(byKey.get(chunkKey(kind, row.id).join('|')), row.id), row, `${kind} ${row.id}`);
    for (const [key, value] of records.filter(([k]) => k[0] === kind)) {
      const ids = chunkRows(value).map((r) => r.id);
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
      assert.ok(ids.every((id) => Math.floor(id / 2 ** CHUNK_SHIFT) === key[1]));
    }
  }
  // 3,000 permits: 6 chunks (512 ids each) per kind, not 3,000 records.
  assert.equal(records.filter(([key]) => key[0] === 'permits').length, 6);
  // Each number's entry names the permit and the rows its verdict shows (holder, vehicle, ponto).
  for (const p of data.permits) {
    const entry = byKey.get(`number|${numberBucket(p.number)}`)[numberKey(p.number)];
    assert.deepEqual(entry, [p.id, p.holder_operator_id, p.vehicle_id, p.ponto_id]);
    assert.equal(numberEntryId(entry), p.id);
  }
  assert.equal(numberEntryId(42), 42); // a bare id, as an earlier version wrote the look-up
  // A company permit names its first driver; a permit without vehicle or ponto, nulls.
  const company = chunkRecords({ permits: [{ id: 7, number: 'E-7', driver_ids: [31, 32] }] });
  assert.deepEqual(company.find(([key]) => key[0] === 'number')[1], { 'E-7': [7, 31, null, null] });
  assert.equal(numberBucket(' sap-42 '), numberBucket('SAP-42'));
});

test('a chunk holds its rows as arrays under one list of keys, and gives back the very rows; an earlier version\'s chunk of row objects reads the same', () => {
  // Rows as decodeColumns leaves them: a key only where the row has a value, in no fixed order.
  const rows = [
    { id: 3, number: 'N-3', status: 'ativo', valid_until: '2027-01-31', holder_operator_id: 9 },
    { id: 5, number: 'N-5', driver_ids: [7, 8], holder_company: 'Moto Já Ltda', status: 'suspenso' },
    { status: 'ativo', id: 8, number: 'N-8', transitions: [{ requirement: 'x', until: null }], ponto_id: 0, vehicle_id: 2 },
  ];
  const packed = packRows(rows);
  assert.ok(packed.rows.every(Array.isArray), 'rows as arrays');
  assert.equal(new Set(packed.cols).size, packed.cols.length, 'each key once');
  assert.deepEqual(chunkRows(packed), rows);
  for (const row of rows) assert.deepEqual(chunkRow(packed, row.id), row);
  assert.equal(chunkRow(packed, 4), undefined);
  assert.ok(!('holder_operator_id' in chunkRow(packed, 5)), 'a key the row lacked stays absent');
  assert.equal(chunkRow(packed, 8).ponto_id, 0); // falsy values kept
  // Before this layout, the chunk was the array of rows itself.
  assert.deepEqual(chunkRows(rows), rows);
  assert.deepEqual(chunkRow(rows, 5), rows[1]);
  assert.deepEqual(chunkRows(undefined), []);
  assert.equal(chunkRow(undefined, 1), undefined);
});

test('a row without a valid id is refused before anything is written', () => {
  assert.throws(() => chunkRecords({ permits: [{ id: 1, number: '1' }, { number: 'x' }] }), (e) => e.name === 'DataError');
});

test('the copy built in slices answers the look-ups as the one built at once, and pauses', async () => {
  const field = rows(5000);
  let pauses = 0;
  // A budget of 0 ms: a pause every 64 rows at most.
  const sliced = await keepFieldInSlices(field, async () => { pauses += 1; }, 0);
  const whole = keepField(field);
  assert.ok(pauses > 100, `${pauses} pauses`);
  for (const n of ['SAP-1', 'sap-4999', 'SAP-2500', 'SAP-9999']) assert.deepEqual(sliced.index.byNumber(n), whole.index.byNumber(n));
  assert.deepEqual(sliced.index.byPlate('QQA0042'), whole.index.byPlate('QQA0042'));
  assert.deepEqual(sliced.index.byName('operador 12'), whole.index.byName('operador 12'));
  for (const kind of ['permits', 'operators', 'vehicles']) assert.deepEqual([...sliced.positions[kind]], [...whole.positions[kind]]);
});
