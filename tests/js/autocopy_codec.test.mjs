// The operator's signed copy (pwa/js/autocopy/codec.js): what the phone encodes is what the page
// decodes; a device signature over the body verifies with the device's public key (WebCrypto and
// @noble/ed25519, the crachá verifier's two paths); any changed byte fails it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as noble from '../../pwa/node_modules/@noble/ed25519/index.js';
import { generateDeviceKey, setNoble as setKeyNoble, signBytes } from '../../pwa/js/fiscal/device-key.js';
import { makeKeyVerifier, setNoble } from '../../pwa/js/credentials/verify.js';
import { b32decode, b32encode } from '../../pwa/js/credentials/base32.js';
import { copyFragment, copyOfRecord, CopyError, decodeCopy, encodeCopy, splitFragment } from '../../pwa/js/autocopy/codec.js';
import { randomToken } from '../../pwa/js/fiscal/bytes.js';

setNoble(noble);
setKeyNoble(noble);

function recordBody(token) {
  return {
    kind: 'auto', number: 'SAP-2026-000123', plate: 'QBA1C23', permit_number: 'MT-0042', place: 'Av. Tancredo Neves, 1200 — São José',
    clock: { device_at: '2026-03-05T09:47:31-04:00', gps_at: null }, public_token: token,
    infractions: [
      { id: 'a', label_pt: 'Passageiro sem capacete', citation: { law: 'x', art: '12' }, amount: { value: 50, unit: 'UFIR' }, amount_brl: 231.55, decision: 'confirmed' },
      { id: 'b', label_pt: 'Colete sem numeração', citation: { law: 'x', art: '14' }, amount: { value: 30, unit: 'UFIR' }, amount_brl: null, decision: 'confirmed' },
      { id: 'c', label_pt: 'Dificultar a fiscalização', citation: null, amount: null, amount_brl: null, decision: 'confirmed' },
      { id: 'd', label_pt: 'Removida', citation: null, amount: null, amount_brl: null, decision: 'removed' },
    ],
    defence: { deadline_days: 15, instance: 'Secretário Municipal de Obras', due: '2026-03-20' },
  };
}
const citation = (c) => (c ? `Lei 125/1999, art. ${c.art}` : '');

test('the copy of a record round-trips through bytes and base32', () => {
  const token = randomToken(32);
  const copy = copyOfRecord(recordBody(token), { ibge: 5107875, deviceId: 70001, citation });
  const back = decodeCopy(encodeCopy(copy));
  assert.equal(back.ibge, 5107875);
  assert.equal(back.device_id, 70001);
  assert.equal(back.public_token, token);
  assert.equal(back.issued_at, '2026-03-05T13:47:00.000Z');
  assert.equal(back.issued_at_local, '2026-03-05T09:47');
  assert.equal(back.utc_offset_minutes, -240);
  assert.deepEqual([back.number, back.plate, back.permit_number, back.place], ['SAP-2026-000123', 'QBA1C23', 'MT-0042', 'Av. Tancredo Neves, 1200 — São José']);
  assert.deepEqual(back.defence, { days: 15, due: '2026-03-20', instance: 'Secretário Municipal de Obras' });
  assert.deepEqual(back.infractions, [
    { label: 'Passageiro sem capacete', citation: 'Lei 125/1999, art. 12', amount_cents: 23155 },
    { label: 'Colete sem numeração', citation: 'Lei 125/1999, art. 14', amount_text: '30 UFIR' },
    { label: 'Dificultar a fiscalização', citation: '' },
  ]);
});

test('no defence deadline and a long place survive; garbage does not decode', () => {
  const body = { ...recordBody(randomToken(32)), defence: { deadline_days: null, instance: null, due: null }, place: 'x'.repeat(300) };
  const back = decodeCopy(encodeCopy(copyOfRecord(body, { ibge: 5107875, deviceId: 1 })));
  assert.deepEqual(back.defence, { days: null, due: null, instance: null });
  assert.equal(back.place.length, 300);
  const bytes = encodeCopy(copyOfRecord(body, { ibge: 5107875, deviceId: 1 }));
  assert.throws(() => decodeCopy(bytes.subarray(0, bytes.length - 1)), CopyError);
  assert.throws(() => decodeCopy(Uint8Array.from([...bytes, 0])), CopyError);
  assert.throws(() => decodeCopy(Uint8Array.from([2, ...bytes.subarray(1)])), (e) => e.code === 'unsupported_version');
  assert.throws(() => splitFragment('#abc'), (e) => e.code === 'bad_base32');
  assert.throws(() => splitFragment(''), (e) => e.code === 'empty');
});

for (const forceNoble of [false, true]) {
  test(`device signature verifies, a changed byte does not (${forceNoble ? '@noble/ed25519' : 'WebCrypto'})`, async () => {
    const { stored, publicKey } = await generateDeviceKey({ forceNoble });
    const bytes = encodeCopy(copyOfRecord(recordBody(randomToken(32)), { ibge: 5107875, deviceId: 9, citation }));
    const fragment = copyFragment(bytes, await signBytes(stored, bytes));
    assert.match(fragment, /^[A-Z2-7]+$/); // QR alphanumeric mode, URL-safe
    const verifyWith = await makeKeyVerifier(publicKey, forceNoble);
    const good = splitFragment(`#${fragment}`);
    assert.equal(await verifyWith(good.signature, good.bodyBytes), true);
    const raw = b32decode(fragment);
    let checked = 0;
    for (const at of [1, 9, 45, 60, raw.length - 70, raw.length - 1]) {
      const bad = Uint8Array.from(raw);
      bad[at] ^= 0x01;
      let parts;
      try { parts = splitFragment(b32encode(bad)); } catch (e) { assert.ok(e instanceof CopyError); checked++; continue; }
      assert.equal(await verifyWith(parts.signature, parts.bodyBytes), false, `byte ${at}`);
      checked++;
    }
    assert.equal(checked, 6);
    const other = await generateDeviceKey({ forceNoble });
    assert.equal(await (await makeKeyVerifier(other.publicKey, forceNoble))(good.signature, good.bodyBytes), false);
  });
}
