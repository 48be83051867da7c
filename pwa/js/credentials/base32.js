// Base32 (RFC 4648 §6, upper-case), no padding, strict — mirror of
// server/modules/credentials/base32.py: rejects characters outside the alphabet (lower case and
// '=' included), lengths of 1, 3 or 6 mod 8 and non-zero trailing bits.
export const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const INDEX = new Map([...ALPHABET].map((c, i) => [c, i]));

export class Base32Error extends Error {}

export function b32encode(bytes) {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(acc << (5 - bits)) & 31];
  return out;
}

export function b32decode(text) {
  if ([1, 3, 6].includes(text.length % 8)) throw new Base32Error('length');
  const out = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const v = INDEX.get(text[i]);
    if (v === undefined) throw new Base32Error('alphabet');
    acc = (acc << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
    acc &= (1 << bits) - 1;
  }
  if (acc !== 0) throw new Base32Error('non_canonical'); // another text of the same bytes
  return Uint8Array.from(out);
}
