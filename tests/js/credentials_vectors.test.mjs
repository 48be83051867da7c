// The JS credential verifier against the shared vectors, once with WebCrypto Ed25519 and once
// with the @noble/ed25519 fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as noble from '../../pwa/node_modules/@noble/ed25519/index.js';
import { prepareTrust, verify, setNoble } from '../../pwa/js/credentials/verify.js';
import { b45encode, b45decode } from '../../pwa/js/credentials/base45.js';
import { b32encode, b32decode } from '../../pwa/js/credentials/base32.js';

setNoble(noble);
const vectors = JSON.parse(readFileSync(new URL('../vectors/credentials/vectors.json', import.meta.url)));

for (const forceNoble of [false, true]) {
  test(`vectors (${forceNoble ? '@noble/ed25519' : 'WebCrypto'})`, async () => {
    let n = 0;
    for (const group of vectors.groups) {
      const trust = await prepareTrust(group.trust, { forceNoble });
      const now = Date.parse(group.now);
      for (const c of group.cases) {
        const r = await verify(c.payload, trust, now);
        assert.deepEqual([r.verdict, r.reason_code], [c.expected.verdict, c.expected.reason_code], `${group.name}:${c.name}`);
        assert.equal(r.data_age_seconds, (now - Date.parse(group.trust.generated_at)) / 1000);
        n++;
      }
    }
    assert.equal(n, vectors.groups.reduce((s, g) => s + g.cases.length, 0));
  });
}

test('valid verdict carries the signed fields', async () => {
  const group = vectors.groups[0];
  const r = await verify(group.cases[0].payload, await prepareTrust(group.trust), Date.parse(group.now));
  assert.deepEqual(r.credential, {
    version: 1, kid: 2, ibge_code: 5106307, serial: 1, expires_on: '2026-12-31', permit_number: 'PNT-2026/0001',
  });
  assert.equal(r.reason_pt, 'Credencial autêntica, permissão ativa.');
});

test('reasons name the permit as the law does (permit_noun in the trust data)', async () => {
  const group = vectors.groups.find((g) => g.cases.some((c) => c.name === 'permit_caducado'));
  const c = group.cases.find((x) => x.name === 'permit_caducado');
  const sapezal = { ...group.trust, municipality: { ...group.trust.municipality, permit_noun: 'alvará de autorização', permit_feminine: false } };
  const r = await verify(c.payload, await prepareTrust(sapezal), Date.parse(group.now));
  assert.equal(r.verdict, 'CADUCADO');
  assert.equal(r.reason_pt, 'Alvará de autorização caducado (não renovado no prazo).');
  const neutral = await verify(c.payload, await prepareTrust(group.trust), Date.parse(group.now));
  assert.equal(neutral.reason_pt, 'Permissão caducada (não renovada no prazo).');
  const random = await verify('HELLO WORLD', await prepareTrust(group.trust), Date.parse(group.now));
  assert.equal(random.reason_pt, 'Este QR não é um crachá Motofiscal.');
});

test('base45 RFC 9285 vectors', () => {
  const enc = new TextEncoder();
  for (const [raw, text] of [['AB', 'BB8'], ['Hello!!', '%69 VD92EX0'], ['base-45', 'UJCLQE7W581'], ['ietf!', 'QED8WEX0']]) {
    assert.equal(b45encode(enc.encode(raw)), text);
    assert.deepEqual(b45decode(text), enc.encode(raw));
  }
  for (const bad of ['A', 'GGW', 'ZZZ', '::', 'abc', 'ÇÇÇ']) assert.throws(() => b45decode(bad));
});

test('base32 RFC 4648 vectors (no padding), strict decoding', () => {
  const enc = new TextEncoder();
  for (const [raw, text] of [['', ''], ['f', 'MY'], ['fo', 'MZXQ'], ['foo', 'MZXW6'], ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'], ['foobar', 'MZXW6YTBOI']]) {
    assert.equal(b32encode(enc.encode(raw)), text);
    assert.deepEqual(b32decode(text), enc.encode(raw));
  }
  // Lower case, padding, digits outside 2-7, lengths 1/3/6 mod 8, a spare bit set ("MZ").
  for (const bad of ['my', 'MY======', 'MY1', 'M', 'MZX', 'MZXW6Y', 'MZ', 'MY\n', 'MÝ']) {
    assert.throws(() => b32decode(bad), bad);
  }
  const data = Uint8Array.from({ length: 120 }, (_, i) => (i * 37) & 0xff);
  for (let n = 0; n < 40; n++) assert.deepEqual(b32decode(b32encode(data.subarray(n, n * 3))), data.slice(n, n * 3));
});
