// 10,000 random mutations of valid payloads, in both envelopes: none may verify as VÁLIDO in the
// JS verifier. In the URL form only the code after "/V/" is mutated: scheme and host are not signed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { prepareTrust, verify } from '../../pwa/js/credentials/verify.js';
import { ALPHABET, b45encode, b45decode } from '../../pwa/js/credentials/base45.js';
import { ALPHABET as B32, b32encode, b32decode } from '../../pwa/js/credentials/base32.js';
import { PREFIX, URL_PATH } from '../../pwa/js/credentials/body.js';

const vectors = JSON.parse(readFileSync(new URL('../vectors/credentials/vectors.json', import.meta.url)));
const main = vectors.groups[0];
const valid = vectors.groups.slice(0, 2).flatMap((g) => g.cases)
  .filter((c) => c.expected.verdict === 'VÁLIDO').map((c) => c.payload);
const chars = ALPHABET + B32 + 'abcxyz\n\t#&é=';

function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(text, rand) {
  if (text.startsWith(PREFIX)) return mutateCode(text, rand, PREFIX, b45decode, b45encode);
  const cut = text.indexOf(URL_PATH) + URL_PATH.length;
  return text.slice(0, cut) + mutateCode(text.slice(cut), rand, '', b32decode, b32encode);
}

function mutateCode(text, rand, prefix, decode, encode) {
  const int = (n) => Math.floor(rand() * n);
  const i = int(text.length);
  switch (int(7)) {
    case 0: return text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ (1 << int(7))) + text.slice(i + 1);
    case 1: return text.slice(0, i) + chars[int(chars.length)] + text.slice(i + 1);
    case 2: return text.slice(0, i) + chars[int(chars.length)] + text.slice(i);
    case 3: return text.slice(0, i) + text.slice(i + 1);
    case 4: return text.slice(0, i);
    case 5: {
      const raw = decode(text.slice(prefix.length));
      for (let k = 1 + int(3); k > 0; k--) raw[int(raw.length)] ^= 1 << int(8);
      return prefix + encode(raw);
    }
    default: {
      const a = [...text];
      const j = int(a.length);
      [a[i], a[j]] = [a[j], a[i]];
      return a.join('');
    }
  }
}

test('10,000 mutants never verify as VÁLIDO', async () => {
  const trust = await prepareTrust(main.trust);
  const now = Date.parse(main.now);
  for (const p of valid) assert.equal((await verify(p, trust, now)).verdict, 'VÁLIDO');
  const rand = mulberry32(20261129);
  const seen = {};
  let tested = 0;
  while (tested < 10000) {
    const original = valid[Math.floor(rand() * valid.length)];
    const mutant = mutate(original, rand);
    if (mutant === original) continue;
    const r = await verify(mutant, trust, now);
    assert.notEqual(r.verdict, 'VÁLIDO', `${original} -> ${JSON.stringify(mutant)}`);
    seen[r.reason_code] = (seen[r.reason_code] ?? 0) + 1;
    tested++;
  }
  assert.ok((seen.bad_signature ?? 0) > 1000, JSON.stringify(seen));
});
