// Device signing and the record chain: what the server verifies (SYNC_CONTRACT.md) — the
// signature over exactly the body's UTF-8 bytes, hash = sha256 of those bytes, prev_hash links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify as nodeVerify } from 'node:crypto';

import * as noble from '../../pwa/node_modules/@noble/ed25519/index.js';
import { chainProblems, sealRecord } from '../../pwa/js/fiscal/chain.js';
import { generateDeviceKey, setNoble } from '../../pwa/js/fiscal/device-key.js';

setNoble(noble);

const b64urlToBuf = (s) => Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');

function verifyWithNode(publicKey, record) {
  // Independent verifier (OpenSSL through node:crypto), raw key wrapped as SPKI.
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKey)]);
  const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  return nodeVerify(null, Buffer.from(record.body, 'utf8'), key, b64urlToBuf(record.signature));
}

for (const forceNoble of [false, true]) {
  test(`records signed with the ${forceNoble ? '@noble fallback' : 'WebCrypto'} key verify and chain`, async () => {
    const { stored, publicKey } = await generateDeviceKey({ forceNoble });
    assert.equal(stored.kind, forceNoble ? 'noble' : 'webcrypto');
    if (!forceNoble) assert.equal(stored.privateKey.extractable, false);
    const fields = { clock: { device_at: '2026-11-30T12:00:00-04:00', gps_at: null }, answers: { 'vehicle.red_plate': false }, name: 'João Ação' };
    const first = await sealRecord({ id: 'a', kind: 'inspection', deviceId: 7, chain: null, fields, key: stored });
    const second = await sealRecord({ id: 'b', kind: 'auto', deviceId: 7, chain: first.chain, fields, key: stored });
    for (const sealed of [first, second]) {
      assert.ok(verifyWithNode(publicKey, sealed.record));
      assert.equal(sealed.hash, createHash('sha256').update(Buffer.from(sealed.record.body, 'utf8')).digest('hex'));
    }
    const body1 = JSON.parse(first.record.body);
    const body2 = JSON.parse(second.record.body);
    assert.deepEqual([body1.seq, body1.prev_hash, body1.device_id], [1, null, 7]);
    assert.deepEqual([body2.seq, body2.prev_hash], [2, first.hash]);
    assert.deepEqual(await chainProblems([first.record.body, second.record.body]), []);
    // One changed byte breaks the signature.
    const tampered = { ...second.record, body: second.record.body.replace('Ação', 'Acao') };
    assert.equal(verifyWithNode(publicKey, tampered), false);
  });
}

test('a missing record shows as a gap and a broken link', async () => {
  const { stored } = await generateDeviceKey();
  let chain = null;
  const bodies = [];
  for (const id of ['a', 'b', 'c']) {
    const sealed = await sealRecord({ id, kind: 'inspection', deviceId: 1, chain, fields: {}, key: stored });
    bodies.push(sealed.record.body);
    chain = sealed.chain;
  }
  assert.deepEqual(await chainProblems([bodies[0], bodies[2]]), [{ id: 'c', problem: 'gap' }, { id: 'c', problem: 'broken_chain' }]);
});
