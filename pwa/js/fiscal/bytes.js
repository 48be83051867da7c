// Byte helpers shared by signing, the record chain and photos (browser and Node 20).

export const utf8 = (text) => new TextEncoder().encode(text);

export function b64url(bytes) {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Hex SHA-256 of bytes (Uint8Array/ArrayBuffer) or of a string's UTF-8 bytes. */
export async function sha256Hex(data) {
  const bytes = typeof data === 'string' ? utf8(data) : data;
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

/** Random URL-safe token: `n` random bytes, base64url (32 bytes → 43 characters). */
export function randomToken(n = 32) {
  return b64url(crypto.getRandomValues(new Uint8Array(n)));
}

export function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
