// Pure parts of the field app's operator mode, run in Node (no browser needed).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { effectiveStatus, localIsoDate } from '../../pwa/js/data/operator.js';
import { formatDate, formatPlate } from '../../pwa/js/ui/format.js';

test('a saved crachá past its validity shows Vencido even though the server said ativo', () => {
  const badge = { status: 'ativo', status_label: 'Ativo', valid_until: '2026-11-28' };
  assert.deepEqual(effectiveStatus(badge, new Date(2026, 10, 29)), { code: 'vencido', label: 'Vencido' });
  assert.deepEqual(effectiveStatus(badge, new Date(2026, 10, 28)), { code: 'ativo', label: 'Ativo' });
});

test('other statuses are shown as the server sent them', () => {
  const badge = { status: 'suspenso', status_label: 'Suspenso', valid_until: '2020-01-01' };
  assert.deepEqual(effectiveStatus(badge, new Date(2026, 10, 29)), { code: 'suspenso', label: 'Suspenso' });
});

test('local ISO date uses the phone calendar day, not UTC', () => {
  assert.equal(localIsoDate(new Date(2026, 0, 5, 23, 30)), '2026-01-05');
});

test('pt-BR date and plate formatting', () => {
  assert.equal(formatDate('2027-06-17'), '17/06/2027');
  assert.equal(formatDate(null), '—');
  assert.equal(formatPlate('ABC1234'), 'ABC-1234');
  assert.equal(formatPlate('NOU7D25'), 'NOU7D25');
});
