// The auto's fields from their declared sources (SPEC §8): what the phone knows fills every field
// but the place; fields two laws both require appear once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { autoAtoms, defenceText, localDateTime, plateText } from '../../pwa/js/fiscal/auto-sources.js';
import { autoForm, compose } from '../../pwa/js/rules/index.js';

const read = (name) => JSON.parse(readFileSync(new URL(`../../shared_rules/packs/${name}.json`, import.meta.url)));
const sapezal = () => compose([read('federal-base'), read('sapezal-lei-125-1999')], { spec_version: '1.0.0', municipality: 'sapezal' });

const draft = {
  plate: 'QBX1A23', permit_number: '007/2026',
  subject: { name: 'José da Conceição', cnh: '02650306461', permit_number: '007/2026', vehicle: { make: 'Honda', model: 'CG 160', plate_category: 'aluguel' } },
};
const confirmed = [
  { label_pt: 'Condutor sem colete', citation: { law: 'L125', art: '27', inciso: 'III' } },
  { label_pt: 'Condutor sem capacete', citation: { law: 'L125', art: '27', inciso: 'II' } },
];
const base = {
  draft, confirmed, fiscal: { name: 'Ana Fiscal', registration: 'M-42' }, municipality: { name: 'Sapezal' },
  at: new Date(2026, 10, 30, 9, 5), fiscalSigned: true, operatorSigned: false, operatorRefused: true,
  defence: { days: null, instance_pt: null },
};

test('every Sapezal auto field is filled from the sources once the place is typed', () => {
  const rules = sapezal();
  const empty = autoForm(rules, '2026-11-30', autoAtoms({ rules, ...base, place: '' }));
  const missing = empty.flatMap((g) => g.missing);
  assert.deepEqual(missing, ['place'], 'only the place is left to the fiscal');
  const form = autoForm(rules, '2026-11-30', autoAtoms({ rules, ...base, place: 'Av. Brasil, 100' }));
  assert.deepEqual(form.flatMap((g) => g.missing), []);
  const by = Object.fromEntries(form.map((g) => [g.id, g.value]));
  assert.equal(by['fed.auto.local_data_hora'], 'Av. Brasil, 100 — 30/11/2026 09:05');
  assert.equal(by['sap.auto.nome'], 'José da Conceição');
  // One plate format (issue 34): the Mercosul plate as embossed, no hyphen.
  assert.equal(by['sap.auto.alvara_placa'], 'nº 007/2026 — placa QBX1A23');
  assert.equal(by['fed.auto.veiculo'], 'placa QBX1A23 — Honda CG 160, motocicleta de aluguel');
  assert.equal(by['fed.auto.prontuario'], 'CNH nº 02650306461');
  assert.equal(by['fed.auto.orgao_agente'], 'Prefeitura Municipal de Sapezal — Ana Fiscal, matrícula M-42');
  assert.match(by['sap.auto.descricao'], /^Condutor sem colete; Condutor sem capacete — .*art\. 27.*III.*art\. 27.*II/);
  assert.match(by['sap.auto.assinatura_prazo'], /^O autuado recusou-se a assinar — Prazo de defesa: fixado pela prefeitura/);
  // Asked once: one group holds both "Local, data e hora" fields.
  assert.equal(form.filter((g) => g.source.includes('place')).length, 1);
  assert.deepEqual(form.flatMap((g) => g.typed), ['place']);
});

test('an unidentified stop leaves the name to the fiscal, never invents one', () => {
  const rules = sapezal();
  const atoms = autoAtoms({ rules, ...base, draft: { plate: null, subject: { name: null, unidentified: true } }, place: 'Praça' });
  const form = autoForm(rules, '2026-11-30', atoms);
  assert.deepEqual(form.find((g) => g.id === 'sap.auto.nome').missing, ['subject_name']);
  assert.equal(atoms.subject_cnh, '');
});

test('local date and time are the phone clock, zero-padded', () => {
  assert.equal(localDateTime(new Date(2026, 0, 2, 3, 4)), '02/01/2026 03:04');
});

test('one plate format: the old plate with its hyphen, the Mercosul plate as embossed', () => {
  assert.equal(plateText('abc1234'), 'ABC-1234');
  assert.equal(plateText('ABC-1234'), 'ABC-1234');
  assert.equal(plateText('qbx 1a23'), 'QBX1A23');
  assert.equal(plateText(''), '');
});

test('the defence deadline names the step as the law does', () => {
  assert.equal(defenceText({ days: 3, kind: 'recurso', instance_pt: 'Secretário Municipal de Infra-estrutura' }),
    'Prazo de recurso: 3 dias, Secretário Municipal de Infra-estrutura');
  assert.equal(defenceText({ days: null, kind: 'defesa' }), 'Prazo de defesa: fixado pela prefeitura (a lei não fixa)');
  assert.equal(defenceText({ days: 15, kind: 'defesa_previa' }), 'Prazo de defesa prévia: 15 dias');
});
