// Base45 (RFC 9285), strict — mirror of server/modules/credentials/base45.py: rejects characters
// outside the alphabet, lengths of 1 mod 3 and non-canonical groups.
export const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';
const INDEX = new Map([...ALPHABET].map((c, i) => [c, i]));

export class Base45Error extends Error {}

export function b45encode(bytes) {
  let out = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    const n = bytes[i] * 256 + bytes[i + 1];
    out += ALPHABET[n % 45] + ALPHABET[Math.floor(n / 45) % 45] + ALPHABET[Math.floor(n / 2025)];
  }
  if (bytes.length % 2) {
    const n = bytes[bytes.length - 1];
    out += ALPHABET[n % 45] + ALPHABET[Math.floor(n / 45)];
  }
  return out;
}

export function b45decode(text) {
  if (text.length % 3 === 1) throw new Base45Error('length');
  const values = [];
  for (const ch of text) {
    const v = INDEX.get(ch);
    if (v === undefined) throw new Base45Error('alphabet');
    values.push(v);
  }
  // A non-ASCII character counts as one code point but several UTF-16 units: recheck the length.
  if (values.length !== text.length) throw new Base45Error('alphabet');
  const out = [];
  for (let i = 0; i < values.length; i += 3) {
    if (i + 2 < values.length) {
      const n = values[i] + values[i + 1] * 45 + values[i + 2] * 2025;
      if (n > 0xffff) throw new Base45Error('group');
      out.push(n >> 8, n & 0xff);
    } else {
      const n = values[i] + values[i + 1] * 45;
      if (n > 0xff) throw new Base45Error('group');
      out.push(n);
    }
  }
  return Uint8Array.from(out);
}
