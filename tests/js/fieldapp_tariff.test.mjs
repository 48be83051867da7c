// The tariff table on the fiscal's phone: kept across deltas, shown with its act, validity and
// lines, "não cadastrada" when none; the checklist item it goes next to (Paranatinga G-VI c).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { mergeField } from '../../pwa/js/fiscal/field-merge.js';
import { brl, isTariffItem, tariffView } from '../../pwa/js/fiscal/tariff.js';

const TABLE = {
  act: 'Decreto 12/2026', valid_from: '2026-02-01', valid_until: null, basis: 'Lei 311/2007, art. 35',
  renewal_overdue: false, infraction: 'Lei 311/2007, art. 50, Grupo VI, c (cobrar tarifa superior ou inferior)',
  items: [{ description: 'Corrida urbana', amount: '8.00' }, { description: 'Zona rural (km)', amount: '1250.5' }],
};

test('the table survives a delta without the key and is replaced (or removed) by one with it', () => {
  const first = mergeField(null, { cursor: 1, snapshot: true, tariff: TABLE });
  assert.deepEqual(first.tariff, TABLE);
  assert.deepEqual(mergeField(first, { cursor: 2 }).tariff, TABLE); // older server: no key
  assert.equal(mergeField(first, { cursor: 3, tariff: null }).tariff, null); // table withdrawn
});

test('view: act, validity, amounts in reais; missing when none or empty', () => {
  const view = tariffView(TABLE);
  assert.equal(view.missing, false);
  assert.equal(view.act, 'Decreto 12/2026');
  assert.equal(view.validity, 'desde 01/02/2026');
  assert.deepEqual(view.lines.map((l) => l.amount), ['R$ 8,00', 'R$ 1.250,50']);
  assert.equal(view.warning, null);
  assert.equal(tariffView({ ...TABLE, valid_until: '2026-12-31' }).validity, 'de 01/02/2026 a 31/12/2026');
  assert.match(tariffView({ ...TABLE, renewal_overdue: true }).warning, /renovar anualmente/);
  assert.equal(tariffView(null).missing, true);
  assert.equal(tariffView({ ...TABLE, items: [] }).missing, true);
  assert.equal(brl('0.5'), 'R$ 0,50');
});

test('only the fare question and the overcharge infraction of the Paranatinga pack get the table', () => {
  const pack = JSON.parse(readFileSync(new URL('../../shared_rules/packs/paranatinga-lei-311-2007.json', import.meta.url)));
  const hits = JSON.stringify(pack).match(/"(label_pt|prompt_pt)":"[^"]*"/g).map((l) => Object.values(JSON.parse(`{${l}}`))[0])
    .filter((label) => isTariffItem({ label_pt: label }));
  assert.deepEqual(hits, [
    'Grupo VI, c) Cobrar tarifa superior ou inferior ao estabelecido em lei',
    'Tarifa cobrada diferente da tabela oficial',
    'A tarifa cobrada do passageiro difere da tabela oficial (acima ou abaixo)?',
  ]);
  for (const slug of ['sapezal-lei-125-1999', 'nortelandia-lei-030-1998', 'federal-base']) {
    const other = JSON.stringify(JSON.parse(readFileSync(new URL(`../../shared_rules/packs/${slug}.json`, import.meta.url), 'utf8')));
    const texts = other.match(/"(label_pt|prompt_pt)":"[^"]*"/g).map((l) => Object.values(JSON.parse(`{${l}}`))[0]);
    assert.deepEqual(texts.filter((t) => isTariffItem({ label_pt: t })), [], slug);
  }
  assert.equal(isTariffItem({ label_pt: 'Grupo I, e) Dificultar a cobrança da tarifa ou devolução do troco' }), false);
  assert.equal(isTariffItem({ label_pt: 'Capacete', citations: [{ text: 'cobrar tarifa superior' }] }), true);
});

test('the fare question is in the Paranatinga checklist only, when a passenger is on board, and proposes G-VI c', async () => {
  const { nodeIo } = await import('./rules_io.mjs');
  const { loadMunicipality, checklist, evaluate } = await import('../../pwa/js/rules/index.js');
  const io = { ...nodeIo, packsDir: 'shared_rules/packs', configDir: 'shared_rules/config' };
  const fare = (slug, facts) => checklist(loadMunicipality(slug, io), '2026-06-10', facts).find((i) => i.fact === 'conduct.fare_off_table');
  const item = fare('paranatinga', { 'passenger.present': true });
  assert.equal(item.input, 'yes_no_na');
  assert.equal(item.applicable, true);
  assert.deepEqual(item.citations.map((c) => [c.art, c.inciso]), [['11', 'XXII']]);
  assert.equal(isTariffItem(item), true);
  assert.equal(fare('paranatinga', { 'passenger.present': false }).applicable, false);
  assert.equal(fare('sapezal', { 'passenger.present': true }), undefined);
  assert.equal(fare('nortelandia', { 'passenger.present': true }), undefined);
  const out = evaluate(loadMunicipality('paranatinga', io), '2026-06-10', { 'passenger.present': true, 'conduct.fare_off_table': true });
  const g6c = out.infractions.find((i) => i.id === 'par.inf.g6_c');
  assert.deepEqual([g6c.citation.art, g6c.citation.inciso, g6c.citation.alinea], ['50', 'VI', 'c']);
  assert.deepEqual(g6c.triggered_by, ['par.req.tarifa_tabela']);
  assert.equal(g6c.amount.value, 65);
});
