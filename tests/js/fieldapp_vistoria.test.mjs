// The vistoria on the phone: the vehicle's state for the crachá verdict (from the field data's
// vehicle row) and finding a motorcycle by permit number or plate, with or without a permit.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { indexField } from '../../pwa/js/fiscal/field-merge.js';
import { findVehicles, vistoriaState } from '../../pwa/js/fiscal/vistoria-model.js';

const TODAY = '2026-06-15';

test('state: valid, expired, rejected, in review, approved without a period, none', () => {
  const cases = [
    [{ vistoria_result: 'aprovada', vistoria_on: '2026-01-10', vistoria_until: '2027-01-10' }, 'valida', 'Válida até 10/01/2027'],
    [{ vistoria_result: 'aprovada', vistoria_on: '2025-01-10', vistoria_until: '2026-01-10' }, 'vencida', 'Vencida em 10/01/2026'],
    [{ vistoria_result: 'reprovada', vistoria_on: '2026-06-01', vistoria_until: '2026-05-31' }, 'reprovada', 'Reprovada em 01/06/2026'],
    [{ vistoria_result: 'em_revisao', vistoria_on: '2026-06-01' }, 'em_revisao', 'Aprovação de 01/06/2026 em revisão na prefeitura'],
    [{ vistoria_result: 'aprovada', vistoria_on: '2026-06-01' }, 'sem_prazo', 'Aprovada em 01/06/2026 (validade não configurada pela prefeitura)'],
    [{ vistoria_until: '2026-06-15' }, 'valida', 'Válida até 15/06/2026'], // an older server: dates only
    [{}, 'nenhuma', 'Nenhuma vistoria registrada'],
  ];
  for (const [vehicle, state, label] of cases) assert.deepEqual(vistoriaState(vehicle, TODAY), { state, label });
});

test('find: by permit number, by plate (both formats), and a vehicle without a permit by plate', () => {
  const field = {
    permits: [{ id: 1, number: '12/2026', vehicle_id: 10, holder_operator_id: 5 }],
    operators: [{ id: 5, name: 'Ana' }],
    vehicles: [{ id: 10, plate: 'ABC1D23' }, { id: 11, plate: 'XYZ1234' }],
  };
  const index = indexField(field);
  const byNumber = findVehicles(field, index, '12/2026');
  assert.deepEqual(byNumber.map((f) => [f.vehicle.id, f.permit?.id, f.operator?.name]), [[10, 1, 'Ana']]);
  assert.deepEqual(findVehicles(field, index, 'abc1d23').map((f) => [f.vehicle.id, f.permit?.id]), [[10, 1]]);
  const loose = findVehicles(field, index, 'XYZ-1234');
  assert.deepEqual(loose.map((f) => [f.vehicle.id, f.permit, f.plate]), [[11, null, 'XYZ1234']]);
  assert.deepEqual(findVehicles(field, index, 'nada'), []);
});
