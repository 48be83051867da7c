// The roadside verdict follows a permit's recorded transition (issue 36, item 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { transitionNotices, withTransitions } from '../../pwa/js/fiscal/transitions.js';

const evaluation = {
  failed: [
    { requirement: 'sap.req.idade_veiculo', label_pt: 'Moto com no máximo 3 anos de uso', infractions: ['sap.inf.veiculo'] },
    { requirement: 'sap.req.capacete', label_pt: 'Capacete', infractions: ['sap.inf.capacete'] },
  ],
  infractions: [
    { id: 'sap.inf.veiculo', triggered_by: ['sap.req.idade_veiculo'] },
    { id: 'sap.inf.capacete', triggered_by: ['sap.req.capacete'] },
    { id: 'sap.inf.geral', triggered_by: ['sap.req.idade_veiculo', 'sap.req.capacete'] },
  ],
};

test('a transition in force turns the failed requirement into a notice and drops what only it triggered', () => {
  const out = withTransitions(evaluation, [{ r: 'sap.req.idade_veiculo', u: '2027-03-31', t: 'prazo de adequação até 31/03/2027 (Decreto nº 12/2026)' }], '2026-12-05');
  assert.deepEqual(out.infractions.map((i) => i.id), ['sap.inf.capacete', 'sap.inf.geral']);
  assert.deepEqual(out.infractions[1].triggered_by, ['sap.req.capacete']);
  assert.deepEqual(out.failed[0].infractions, []);
  const [notice] = transitionNotices(out);
  assert.match(notice.text, /^Em transição — não é infração: Moto com no máximo 3 anos de uso\..*31\/03\/2027 \(Decreto nº 12\/2026\)\.$/);
});

test('sem prazo definido holds; after the last day the law applies in full', () => {
  const none = withTransitions(evaluation, [{ r: 'sap.req.idade_veiculo', t: 'sem prazo definido' }], '2030-01-01');
  assert.equal(none.infractions.some((i) => i.id === 'sap.inf.veiculo'), false);
  assert.match(transitionNotices(none)[0].text, /sem prazo definido/);
  const over = withTransitions(evaluation, [{ r: 'sap.req.idade_veiculo', u: '2026-12-04', t: 'x' }], '2026-12-05');
  assert.equal(over, evaluation);
  assert.deepEqual(transitionNotices(over), []);
});

test('verdict and checklist lines: the transitions in force, with their label', async () => {
  const { transitionLines } = await import('../../pwa/js/fiscal/transitions.js');
  const lines = transitionLines([
    { r: 'a', l: 'Moto com no máximo 3 anos de uso', t: 'sem prazo definido' },
    { r: 'b', l: 'Outra', u: '2026-01-01', t: 'prazo de adequação até 01/01/2026 (Decreto 1/2025)' },
  ], '2026-12-05');
  assert.deepEqual(lines, ['Moto com no máximo 3 anos de uso: sem prazo definido.']);
});
