// The operator's signed copy (pwa/js/autocopy/codec.js): what the phone encodes is what the page
// decodes; a device signature over the body verifies with the device's public key (WebCrypto and
// @noble/ed25519, the crachá verifier's two paths); any changed byte fails it; a version-1 copy
// (base32, texts in place) written before version 2 still decodes and verifies; three of the
// longest infractions any pack has fit a QR of version ≤ 15 at error correction M.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import * as noble from '../../pwa/node_modules/@noble/ed25519/index.js';
import { generateDeviceKey, setNoble as setKeyNoble, signBytes } from '../../pwa/js/fiscal/device-key.js';
import { makeKeyVerifier, setNoble } from '../../pwa/js/credentials/verify.js';
import { b32encode } from '../../pwa/js/credentials/base32.js';
import {
  bytesToDigits, copyFragment, copyOfRecord, CopyError, copyOrigin, COPY_PATH, decodeCopy, digitsToBytes, encodeCopy, splitFragment,
} from '../../pwa/js/autocopy/codec.js';
import { compress, decompress } from '../../pwa/js/autocopy/lz.js';
import dictionary1 from '../../pwa/js/autocopy/dictionary-1.js';
import { citationLabel } from '../../pwa/js/fiscal/checklist-model.js';
import { qrModel } from '../../pwa/js/ui/qr-code.js';
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
// Bytes before the amounts for a device id under 128: version, IBGE, device id, token, minutes,
// offset, defence days and due, count.
const HEAD = 1 + 3 + 1 + 32 + 4 + 1 + 1 + 2 + 1;
const citation = (c) => (c ? `Lei 125/1999, art. ${c.art}` : '');

test('the copy of a record round-trips through bytes and decimal digits', () => {
  const token = randomToken(32);
  const copy = copyOfRecord(recordBody(token), { ibge: 5107875, deviceId: 70001, citation });
  const bytes = encodeCopy(copy);
  assert.equal(bytes[0], 2);
  const back = decodeCopy(bytes);
  assert.equal(back.version, 2);
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
  assert.equal(back.extra, undefined);
  const fragment = copyFragment(bytes, new Uint8Array(64).fill(7));
  assert.match(fragment, /^[0-9]+$/); // QR numeric mode, URL-safe
  assert.deepEqual(splitFragment(`#${fragment}`).copy, back);
});

test('no defence deadline, a NUL and a long place survive; garbage does not decode', () => {
  const body = { ...recordBody(randomToken(32)), defence: { deadline_days: null, instance: null, due: null }, place: `x\0${'y'.repeat(300)}` };
  const back = decodeCopy(encodeCopy(copyOfRecord(body, { ibge: 5107875, deviceId: 1 })));
  assert.deepEqual(back.defence, { days: null, due: null, instance: null });
  assert.equal(back.place, `x${'y'.repeat(300)}`); // NUL separates the texts: never inside one
  const bytes = encodeCopy(copyOfRecord(body, { ibge: 5107875, deviceId: 1 }));
  // One byte short: refused, or other texts (which the signature then refuses).
  assert.throws(() => assert.deepEqual(decodeCopy(bytes.subarray(0, bytes.length - 1)), back));
  assert.throws(() => decodeCopy(Uint8Array.from([3, ...bytes.subarray(1)])), (e) => e.code === 'unsupported_version');
  const otherDictionary = Uint8Array.from(bytes);
  // version, IBGE, device id 1 (1 byte), token, minutes, offset, defence, count, amounts (0 +
  // 23155 as a 3-byte varint; 1; 2), the law's words, then the dictionary id.
  otherDictionary[HEAD + 4 + 1 + 1 + 1] = 9;
  assert.throws(() => decodeCopy(otherDictionary), (e) => e.code === 'unsupported_dictionary');
  assert.throws(() => splitFragment('#abc'), (e) => e.code === 'bad_base32');
  assert.throws(() => splitFragment('#1234'), (e) => e.code === 'bad_digits'); // 4 digits: no byte count
  assert.throws(() => splitFragment(''), (e) => e.code === 'empty');
});

test('a later writer may append texts: this reader keeps them apart', () => {
  const copy = copyOfRecord(recordBody(randomToken(32)), { ibge: 5107875, deviceId: 3, citation });
  const bytes = encodeCopy(copy);
  // Re-pack the texts with one more at the end, as a newer phone would.
  const head = bytes.subarray(0, HEAD + 4 + 1 + 1 + 1 + 1); // … amounts (see above), the law's words, dictionary id
  const texts = ['SAP-2026-000123', 'QBA1C23', 'MT-0042', 'Av. Tancredo Neves, 1200 — São José', 'Secretário Municipal de Obras',
    'Passageiro sem capacete', 'Lei 125/1999, art. 12', 'Colete sem numeração', 'Lei 125/1999, art. 14', '30 UFIR',
    'Dificultar a fiscalização', '', 'Alvará de autorização'];
  const packed = compress(new TextEncoder().encode(texts.join('\0')), new TextEncoder().encode(dictionary1));
  const back = decodeCopy(Uint8Array.from([...head, ...packed]));
  assert.deepEqual(back.extra, ['Alvará de autorização']);
  assert.equal(back.infractions[2].label, 'Dificultar a fiscalização');
});

test('bytes ↔ digits: every length, leading zeros, and nothing else', () => {
  for (let n = 0; n <= 30; n += 1) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n) & 0xff);
    bytes.fill(0, 0, Math.min(n, 2)); // leading zero bytes must survive
    const digits = bytesToDigits(bytes);
    assert.equal(digits.length, Math.floor(n / 7) * 17 + [0, 3, 5, 8, 10, 13, 15][n % 7]);
    assert.deepEqual(digitsToBytes(digits), bytes);
  }
  assert.deepEqual(digitsToBytes(bytesToDigits(new Uint8Array(7).fill(255))), new Uint8Array(7).fill(255));
  assert.throws(() => digitsToBytes('99999999999999999'), (e) => e.code === 'bad_digits'); // > 2^56 − 1
  assert.throws(() => digitsToBytes('256'), (e) => e.code === 'bad_digits');
  assert.throws(() => digitsToBytes('12a'), (e) => e.code === 'bad_digits');
});

test('LZ: round trips with and without the dictionary; a bad stream is refused', () => {
  const dict = new TextEncoder().encode(dictionary1);
  for (const text of ['', 'a', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'Conduzir com falta de atenção e urbanidade\0Lei 311/2007, art. 50, inciso I, alínea "a"',
    'ção'.repeat(200), Array.from({ length: 500 }, (_, i) => String.fromCharCode(32 + ((i * 7919) % 95))).join('')]) {
    const data = new TextEncoder().encode(text);
    for (const d of [dict, new Uint8Array()]) assert.deepEqual(decompress(compress(data, d), d), data);
  }
  assert.throws(() => decompress(Uint8Array.from([1, 0xff, 0xff, 0]), new Uint8Array(10)), (e) => e.code === 'bad_distance');
  assert.throws(() => decompress(Uint8Array.from([1, 0, 1]), dict), (e) => e.code === 'truncated');
  // 16 groups of 8 matches of 259 bytes each: more than any copy's texts.
  const bomb = Array.from({ length: 16 }, () => [0xff, ...Array.from({ length: 8 }, () => [0, 1, 255]).flat()]).flat();
  assert.throws(() => decompress(Uint8Array.from(bomb), Uint8Array.of(65)), (e) => e.code === 'too_long');
});

test('dictionary 1 is frozen: copies signed with it decode only with these bytes', () => {
  // Changing it breaks every copy already printed or saved: make dictionary-2.js instead.
  assert.equal(createHash('sha256').update(dictionary1, 'utf8').digest('hex'), '8a15aa2dceef425618a365491bf150ed4c1fd0f060d184afbf94f53f4bc7e1ae');
});

// The three longest infractions of each pack, with a real-length origin, at M: version ≤ 15.
const packsDir = new URL('../../shared_rules/packs/', import.meta.url);
const packs = readdirSync(packsDir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(new URL(f, packsDir))));
for (const pack of packs.filter((p) => p.id !== 'federal-base')) {
  test(`three of the longest ${pack.id} infractions fit version ≤ 15 at error correction M`, () => {
    const rules = { packs };
    const longest = [...pack.infractions].sort((a, b) => (b.label_pt.length + JSON.stringify(b.citation).length) - (a.label_pt.length + JSON.stringify(a.citation).length)).slice(0, 3);
    const body = { ...recordBody(randomToken(32)), number: 'PAR-2026-000123', place: 'Av. Brasil esquina com a Rua Mato Grosso, em frente ao Mercado Central',
      defence: { deadline_days: 10, instance: 'Chefe do Poder Executivo (Prefeito)', due: '2026-03-20' },
      infractions: longest.map((i) => ({ ...i, amount_brl: 1234.56, decision: 'confirmed' })) };
    const bytes = encodeCopy(copyOfRecord(body, { ibge: 5106307, deviceId: 123456, citation: (c) => citationLabel(rules, c) }));
    const origin = 'https://fiscalizacao.paranatinga.mt.gov.br';
    const qr = qrModel([`${origin}${COPY_PATH}`, copyFragment(bytes, new Uint8Array(64))], 'M');
    const version = (qr.getModuleCount() - 17) / 4;
    console.log(`${pack.id}: ${bytes.length} body bytes (texts ${longest.map((i) => i.label_pt.length).join('+')} chars), version ${version} at M`);
    assert.ok(version <= 15, `version ${version}`);
  });
}

// Version 1, written here byte by byte from docs/sync-api.md's table (not by the codec).
function v1Body({ ibge, deviceId, token, minutes, quarters, texts, days, due, instance, infractions }) {
  const out = [1, ibge >> 16, (ibge >> 8) & 0xff, ibge & 0xff, deviceId >>> 24, (deviceId >> 16) & 0xff, (deviceId >> 8) & 0xff, deviceId & 0xff, ...token,
    minutes >>> 24, (minutes >> 16) & 0xff, (minutes >> 8) & 0xff, minutes & 0xff, quarters & 0xff];
  const str = (s) => { const b = [...new TextEncoder().encode(s)]; out.push(b.length, ...b); };
  texts.forEach(str);
  out.push(days, due >> 8, due & 0xff);
  str(instance);
  out.push(infractions.length);
  for (const inf of infractions) {
    str(inf.label); str(inf.citation);
    if (inf.cents !== undefined) out.push(0, inf.cents >>> 24, (inf.cents >> 16) & 0xff, (inf.cents >> 8) & 0xff, inf.cents & 0xff);
    else out.push(2);
  }
  return Uint8Array.from(out);
}

for (const forceNoble of [false, true]) {
  test(`device signature verifies, a changed byte does not (${forceNoble ? '@noble/ed25519' : 'WebCrypto'})`, async () => {
    const { stored, publicKey } = await generateDeviceKey({ forceNoble });
    const bytes = encodeCopy(copyOfRecord(recordBody(randomToken(32)), { ibge: 5107875, deviceId: 9, citation }));
    const fragment = copyFragment(bytes, await signBytes(stored, bytes));
    const verifyWith = await makeKeyVerifier(publicKey, forceNoble);
    const good = splitFragment(`#${fragment}`);
    assert.equal(await verifyWith(good.signature, good.bodyBytes), true);
    const raw = digitsToBytes(fragment);
    let checked = 0;
    for (const at of [1, 9, 45, 60, raw.length - 70, raw.length - 1]) {
      const bad = Uint8Array.from(raw);
      bad[at] ^= 0x01;
      let parts;
      try { parts = splitFragment(bytesToDigits(bad)); } catch (e) { assert.ok(e instanceof CopyError); checked++; continue; }
      assert.equal(await verifyWith(parts.signature, parts.bodyBytes), false, `byte ${at}`);
      checked++;
    }
    assert.equal(checked, 6);
    const other = await generateDeviceKey({ forceNoble });
    assert.equal(await (await makeKeyVerifier(other.publicKey, forceNoble))(good.signature, good.bodyBytes), false);

    // A version-1 copy signed before version 2 existed: same page, same verdict.
    const token = new Uint8Array(32).fill(5);
    const v1 = v1Body({ ibge: 5107875, deviceId: 9, token, minutes: 3384827, quarters: -16, texts: ['SAP-2025-000007', 'QBA1C23', 'MT-0042', 'Rua A, 10'],
      days: 255, due: 0xffff, instance: '', infractions: [{ label: 'Mais de um passageiro', citation: 'Lei 125/1999, art. 13', cents: 5000 }, { label: 'Sem colete', citation: '' }] });
    const old = splitFragment(`#${b32encode(Uint8Array.from([...v1, ...(await signBytes(stored, v1))]))}`);
    assert.equal(await verifyWith(old.signature, old.bodyBytes), true);
    assert.equal(old.copy.version, 1);
    assert.equal(old.copy.issued_at_local, '2026-06-08T09:47');
    assert.deepEqual([old.copy.number, old.copy.place, old.copy.defence.days], ['SAP-2025-000007', 'Rua A, 10', null]);
    assert.deepEqual(old.copy.infractions, [{ label: 'Mais de um passageiro', citation: 'Lei 125/1999, art. 13', amount_cents: 5000 }, { label: 'Sem colete', citation: '' }]);
  });
}

test('version 2 carries the law\'s words; a version 1 copy still decodes, without them', () => {
  const body = { ...recordBody(randomToken(32)), defence: { deadline_days: 3, instance: 'Prefeito', due: null, kind: 'recurso' } };
  const copy = copyOfRecord(body, { ibge: 5106307, deviceId: 9, citation, permitNoun: 'permissão' });
  const bytes = encodeCopy(copy);
  assert.equal(bytes[0], 2);
  assert.deepEqual(decodeCopy(bytes).terms, { permit: 'permissão', step: 'recurso' });
  const sapezal = copyOfRecord({ ...body, defence: { ...body.defence, kind: 'defesa' } }, { ibge: 5107875, deviceId: 9, permitNoun: 'alvará de autorização' });
  assert.deepEqual(decodeCopy(encodeCopy(sapezal)).terms, { permit: 'alvará de autorização', step: 'defesa' });
  // A word the table does not know is not guessed.
  const unknown = copyOfRecord(body, { ibge: 5107875, deviceId: 9, permitNoun: 'concessão' });
  assert.deepEqual(decodeCopy(encodeCopy(unknown)).terms, { permit: null, step: 'recurso' });
  // Version 1 (a phone before issue 34) carried no words: none is guessed.
  const v1 = v1Body({ ibge: 5107875, deviceId: 9, token: new Uint8Array(32).fill(5), minutes: 3384827, quarters: -16,
    texts: ['SAP-2025-000007', 'QBA1C23', 'MT-0042', 'Rua A, 10'], days: 255, due: 0xffff, instance: '', infractions: [] });
  const old = decodeCopy(v1);
  assert.deepEqual(old.terms, { permit: null, step: null });
  assert.equal(old.number, 'SAP-2025-000007');
});

test("the copy names the municipality's own public address when the field data has one (issue 36)", () => {
  const here = 'http://127.0.0.1:5000';
  assert.equal(copyOrigin('https://MotoFiscal.Sapezal.mt.gov.br', here), 'https://motofiscal.sapezal.mt.gov.br');
  assert.equal(copyOrigin('https://motofiscal.sapezal.mt.gov.br:8443', here), 'https://motofiscal.sapezal.mt.gov.br:8443');
  for (const unusable of [null, undefined, '', 'ftp://x.br', 'https://x.br/caminho', 'javascript:alert(1)']) {
    assert.equal(copyOrigin(unusable, here), here);
  }
});
