// "Pronto para uso sem internet" only when the worker controls the page, the shell is cached and
// every piece of field data is stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { missingForOffline } from '../../pwa/js/fiscal/readiness.js';

const all = { trust: true, rules: true, field: true, numbers: true };

test('ready only with control, shell and all field data', () => {
  assert.deepEqual(missingForOffline({ controlled: true, shellCached: true, stored: all }), []);
});

test('data downloaded but the worker not yet in control: not ready', () => {
  assert.deepEqual(missingForOffline({ controlled: false, shellCached: true, stored: all }),
    ['o aplicativo ainda está sendo guardado no aparelho']);
});

test('a missing piece of field data is named', () => {
  assert.deepEqual(missingForOffline({ controlled: true, shellCached: true, stored: { ...all, rules: false, numbers: false } }),
    ['regras da lei', 'números de auto']);
});
