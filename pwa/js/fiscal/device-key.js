// The device's own Ed25519 key pair, which signs every record this phone sends.
//
// WebCrypto first: the private key is generated non-extractable, so even a script running in
// this origin cannot copy it out, only use it. Browsers without Ed25519 in WebCrypto
// (NotSupportedError / TypeError) fall back to @noble/ed25519 with a random 32-byte secret — the
// secret is then stored as bytes, which is weaker, and the record says which kind it is.
// Pure of storage: callers keep the returned `stored` object (IndexedDB can hold CryptoKeys).

let noble = null;
export function setNoble(module) { noble = module; } // Node tests inject pwa/node_modules'
async function loadNoble() {
  if (!noble) noble = await import(new URL('../../vendor/@noble/ed25519/index.js', import.meta.url).href);
  return noble;
}

function unsupported(error) {
  return error?.name === 'NotSupportedError' || error instanceof TypeError;
}

/** → {stored, publicKey: Uint8Array(32)}; `stored` goes to IndexedDB as is. */
export async function generateDeviceKey({ forceNoble = false } = {}) {
  if (!forceNoble) {
    try {
      const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
      const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
      return { stored: { kind: 'webcrypto', privateKey: pair.privateKey, publicKey }, publicKey };
    } catch (error) {
      if (!unsupported(error)) throw error;
    }
  }
  const ed = await loadNoble();
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const publicKey = await ed.getPublicKeyAsync(secret);
  return { stored: { kind: 'noble', secret, publicKey }, publicKey };
}

/** Ed25519 signature (64 bytes) of `bytes` with a stored device key. */
export async function signBytes(stored, bytes) {
  if (stored.kind === 'webcrypto') {
    return new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, stored.privateKey, bytes));
  }
  const ed = await loadNoble();
  return ed.signAsync(bytes, stored.secret);
}
