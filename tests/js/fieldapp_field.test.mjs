// Field data on the phone (snapshot + deltas), the roadside look-ups, the checklist model and
// the photo size rule — pure parts of the fiscal app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { indexField, isPlate, mergeField, normalisePlate } from '../../pwa/js/fiscal/field-merge.js';
import { citationLabel, engineFacts, groupItems, groupOf, isVisible, NOT_CHECKED, registryFacts } from '../../pwa/js/fiscal/checklist-model.js';
import { targetSize } from '../../pwa/js/fiscal/photos.js';
import { compose, checklist } from '../../pwa/js/rules/index.js';

const snapshot = {
  cursor: 5, snapshot: true, generated_at: '2026-11-30T10:00:00+00:00',
  permits: [{ id: 1, number: '001/2026', status: 'ativo', holder_operator_id: 10, vehicle_id: 100, ponto_id: 7 },
    { id: 2, number: '002/2026', status: 'suspenso', driver_ids: [11], vehicle_id: 101 }],
  operators: [{ id: 10, name: 'José da Conceição' }, { id: 11, name: 'Maria Souza' }],
  vehicles: [{ id: 100, plate: 'NOU7D25' }, { id: 101, plate: 'ABC1234' }],
  pontos: [{ id: 7, name: 'Praça' }], penalties: [{ id: 1, operator_id: 10, infraction_id: 'x', applied_on: '2026-01-01' }],
  removed: {},
};

test('a delta upserts and removes by id; a later snapshot replaces everything', () => {
  const first = mergeField(null, snapshot);
  const delta = mergeField(first, { cursor: 6, snapshot: false, permits: [{ id: 2, number: '002/2026', status: 'ativo', driver_ids: [11], vehicle_id: 101 }],
    removed: { operators: [], permits: [1] }, penalties: [{ id: 2, operator_id: 11, infraction_id: 'y', applied_on: '2026-02-01' }] });
  assert.equal(delta.cursor, 6);
  assert.deepEqual(delta.permits.map((p) => [p.id, p.status]), [[2, 'ativo']]);
  assert.equal(delta.operators.length, 2);
  assert.deepEqual(delta.penalties.map((p) => p.id), [1, 2]);
  const again = mergeField(delta, { ...snapshot, cursor: 9, permits: [] });
  assert.deepEqual([again.cursor, again.permits.length], [9, 0]);
});

test('plates in both formats, typed any way', () => {
  assert.equal(normalisePlate('abc-1234'), 'ABC1234');
  assert.equal(normalisePlate(' nou 7d25 '), 'NOU7D25');
  for (const plate of ['ABC-1234', 'abc1234', 'NOU7D25', 'nou7d25']) assert.ok(isPlate(plate), plate);
  for (const text of ['001/2026', 'AB1234', 'Maria']) assert.equal(isPlate(text), false, text);
});

test('look-ups by permit number, plate and accent-free name', () => {
  const index = indexField(mergeField(null, snapshot));
  const byNumber = index.byNumber('001/2026');
  assert.deepEqual([byNumber.operator.name, byNumber.plate, byNumber.ponto.name], ['José da Conceição', 'NOU7D25', 'Praça']);
  assert.equal(index.byPlate('abc-1234')[0].operator.name, 'Maria Souza', 'company permit: its driver');
  assert.equal(index.byName('jose da conc')[0].permit.number, '001/2026');
  assert.deepEqual(index.byName('jo'), [], 'too short to search');
});

const sapezal = (() => {
  const read = (name) => JSON.parse(readFileSync(new URL(`../../shared_rules/packs/${name}.json`, import.meta.url)));
  return compose([read('federal-base'), read('sapezal-lei-125-1999')], { spec_version: '1.0.0', municipality: 'sapezal' });
})();

test('registry facts prefill only what the packs declare as registry facts', () => {
  const facts = registryFacts(sapezal, { permit_id: 1, permit_status: 'ativo', valid_until: '2027-06-18',
    facts: { 'vehicle.engine_cc': 125, 'vehicle.red_plate': true, 'no.such.fact': 1 } });
  assert.deepEqual(facts, { 'vehicle.engine_cc': 125, 'permit.exists': true, 'permit.status': 'ativo', 'permit.valid_until': '2027-06-18' });
  assert.equal(registryFacts(sapezal, { unidentified: true, facts: {} })['permit.exists'], false);
});

test('"não verificado" and blanks stay out of the evaluator facts; numbers typed with a comma count', () => {
  const facts = engineFacts(sapezal, { 'vehicle.red_plate': NOT_CHECKED, 'equipment.mirrors_count': '2', 'equipment.foot_protector_cm': '12,5', 'vehicle.condition_ok': false, 'unknown.fact': true });
  assert.deepEqual(facts, { 'equipment.mirrors_count': 2, 'equipment.foot_protector_cm': 12.5, 'vehicle.condition_ok': false });
});

test('checklist items fall into the fiscal groups, passenger items only when a passenger is there', () => {
  const without = checklist(sapezal, '2026-11-30', { 'passenger.present': false }).filter((i) => i.applicable !== false);
  const withPassenger = checklist(sapezal, '2026-11-30', { 'passenger.present': true }).filter((i) => i.applicable !== false);
  assert.ok(!without.some((i) => i.fact === 'passenger.helmet'));
  assert.ok(withPassenger.some((i) => i.fact === 'passenger.helmet'));
  const groups = groupItems(withPassenger).map((g) => g.key);
  assert.deepEqual(groups, ['situacao', 'moto', 'condutor', 'passageiro']);
  assert.equal(groupOf('vehicle.documents_valid'), 'condutor', 'the papers the driver shows');
  assert.equal(groupOf('equipment.mirrors_count'), 'moto');
  assert.equal(groupOf('conduct.rude'), 'condutor');
  // The situation first: "passageiro a bordo?" decides what else is shown.
  const situation = groupItems(withPassenger)[0].items.map((i) => i.fact);
  assert.ok(situation.includes('passenger.present') && situation.includes('context.raining'));
  // Questions on one thing together: every vest question in one run, the gear before the papers
  // and the papers before the conduct.
  const driver = groupItems(withPassenger).find((g) => g.key === 'condutor').items.map((i) => i.fact);
  const vest = driver.map((f, n) => (f.startsWith('driver.vest') ? n : -1)).filter((n) => n >= 0);
  assert.ok(vest.length >= 3);
  assert.equal(vest[vest.length - 1] - vest[0], vest.length - 1, driver.join(' '));
  assert.ok(driver.indexOf('driver.helmet') < driver.indexOf('driver.carries_cnh'));
  assert.ok(driver.indexOf('driver.carries_cnh') < driver.indexOf('conduct.rude'));
});

test('an item waiting on an unanswered question about the situation is not shown yet', () => {
  const before = checklist(sapezal, '2026-11-30', {});
  const shown = (items) => items.filter((i) => isVisible(i, items)).map((i) => i.fact);
  assert.ok(!shown(before).includes('passenger.helmet'), 'passageiro a bordo? not answered yet');
  assert.ok(shown(before).includes('driver.helmet_visor'), 'the visor waits on the helmet, a compliance question: shown with it');
  const aboard = checklist(sapezal, '2026-11-30', { 'passenger.present': true });
  assert.ok(shown(aboard).includes('passenger.helmet'));
  const none = checklist(sapezal, '2026-11-30', { 'passenger.present': false });
  assert.ok(!shown(none).includes('passenger.helmet') && !shown(none).includes('context.raining'));
});

test('citations read like the law', () => {
  assert.equal(citationLabel(sapezal, { law: 'L125', art: '4', paragrafo: '2' }), 'Lei 125/1999, art. 4, § 2º');
  assert.equal(citationLabel(sapezal, { law: 'L125', art: '28', inciso: 'I' }), 'Lei 125/1999, art. 28, inciso I');
});

test('photos: long edge 1600 px, never enlarged', () => {
  assert.deepEqual(targetSize(4000, 3000), { width: 1600, height: 1200 });
  assert.deepEqual(targetSize(3000, 4000), { width: 1200, height: 1600 });
  assert.deepEqual(targetSize(800, 600), { width: 800, height: 600 });
});

test('format=columns decodes to the same rows (ids delta-encoded, nulls dropped)', async () => {
  const { decodeColumns } = await import('../../pwa/js/fiscal/field-merge.js');
  const columns = { id: [3, 1, 5], number: ['001/2026', '002/2026', '003/2026'], ponto_id: [7, null, 8] };
  assert.deepEqual(decodeColumns(columns), [
    { id: 3, number: '001/2026', ponto_id: 7 }, { id: 4, number: '002/2026' }, { id: 9, number: '003/2026', ponto_id: 8 }]);
  const merged = mergeField(null, { cursor: 1, snapshot: true, permits: columns, photo_url: '/api/v1/field/photos/{id}' });
  assert.deepEqual(merged.permits.map((p) => p.id), [3, 4, 9]);
  assert.equal(merged.photo_url, '/api/v1/field/photos/{id}');
});

test('format=packed decodes every column encoding to the rows (server/modules/fieldsync/field_codec.py)', async () => {
  const { decodeColumns } = await import('../../pwa/js/fiscal/field-merge.js');
  // Written by hand from docs/sync-api.md: three permits, one without dates, ponto or suffix.
  const table = {
    id: { delta: [3, 1, 5] },
    number: { serial: { delta: [41, 1, null] }, width: { dict: [3], codes: [0, 0, null] }, suffix: { dict: ['/2026'], codes: [0, 0, null] } },
    status: { dict: ['ativo', 'suspenso'], codes: [0, 1, 0] },
    valid_until: { base: 20454, width: 3, days: '000---366' },
    holder_operator_id: { delta: [10, null, 2] },
    name: { words: ['da', 'Ana', 'Silva', 'José'], codes: [[1, 0, 2], null, [3, 2]] },
    plate: { width: 7, text: 'ABC1D23NOU7D25XYZ1234' },
  };
  assert.deepEqual(decodeColumns(table), [
    { id: 3, number: '041/2026', status: 'ativo', valid_until: '2026-01-01', holder_operator_id: 10, name: 'Ana da Silva', plate: 'ABC1D23' },
    { id: 4, number: '042/2026', status: 'suspenso', plate: 'NOU7D25' },
    { id: 9, status: 'ativo', valid_until: '2027-01-02', holder_operator_id: 12, name: 'José Silva', plate: 'XYZ1234' },
  ]);
  assert.deepEqual(decodeColumns({}), []);
});

test('format=packed2 decodes its denser codes to the same rows (docs/sync-api.md)', async () => {
  const { decodeColumns } = await import('../../pwa/js/fiscal/field-merge.js');
  // By hand: codes as characters ("-" null), base-62 days (20454 = 2026-01-01; "5u" = 5×62+56 = 366),
  // plates as shapes + every letter + every digit, and a table over 62 values still as codes.
  const table = {
    id: { delta: [3, 1, 5] },
    status: { dict: ['ativo', 'suspenso'], text: '01-' },
    valid_until: { base: 20454, width: 2, b62: '00--5u' },
    plate: { shape: { dict: ['LLLDLDD', 'LLLDDDD'], text: '0-1' }, letters: 'ABCDXYZ', digits: '1231234' },
    model: { dict: ['CG 160'], codes: [0, null, 0] },
  };
  assert.deepEqual(decodeColumns(table), [
    { id: 3, status: 'ativo', valid_until: '2026-01-01', plate: 'ABC1D23', model: 'CG 160' },
    { id: 4, status: 'suspenso' },
    { id: 9, valid_until: '2027-01-02', plate: 'XYZ1234', model: 'CG 160' },
  ]);
});
