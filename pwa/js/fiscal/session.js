// Fiscal mode on this phone: enrollment (one online login → device token + device key), the
// offline PIN after inactivity, sign-out and the wipe of a revoked device.
//
// meta/"fiscal-session" = {token, device_id, user, device_name, enrolled_at, key_registered}
// meta/"fiscal-key" = the device key (device-key.js); meta/"fiscal-chain" = {seq, prev_hash}
// meta/"fiscal-pin" = {salt, hash, iterations} (PBKDF2-SHA256; the PIN itself is never stored)
import { apiJson, ApiError } from '../data/api.js';
import { clear, del, get, getAll, put, readTogether } from '../data/db.js';
import { b64url, hex, utf8 } from './bytes.js';
import { generateDeviceKey } from './device-key.js';

const SESSION = 'fiscal-session';
const KEY = 'fiscal-key';
const PIN = 'fiscal-pin';
const ACTIVE = 'mf-fiscal-active'; // localStorage: last interaction (ms), not secret
export const LOCK_AFTER_MS = 10 * 60 * 1000;
const PIN_ITERATIONS = 150000;
const FISCAL_META = [SESSION, KEY, PIN, 'fiscal-chain', 'fiscal-sync'];

export const session = () => get('meta', SESSION);
export const deviceKey = () => get('meta', KEY);

export async function enroll({ username, password, deviceName }) {
  const answer = await apiJson('/auth/token', {
    method: 'POST', body: { username: username.trim(), password, device_name: deviceName.trim() },
  });
  if (answer.user.role !== 'fiscal' || !answer.device_id) {
    if (answer.token) apiJson('/auth/token', { method: 'DELETE', token: answer.token }).catch(() => {});
    throw new ApiError({ status: 403, code: 'not_fiscal', message: 'Este usuário não é fiscal. Use o painel da prefeitura no computador.' });
  }
  // A session that only expired (30-day token) keeps its key and its unsent records: the fiscal
  // logs in again and the same key goes on signing.
  const previous = await session();
  let stored = previous?.expired && previous.user.id === answer.user.id ? await deviceKey() : null;
  let publicKey = stored ? stored.publicKey : null;
  if (!stored) {
    if (previous) await wipe(); // another fiscal on this phone: nothing of the previous one stays
    ({ stored, publicKey } = await generateDeviceKey());
    await put('meta', stored, KEY);
  }
  const record = {
    token: answer.token, expires_at: answer.expires_at, device_id: answer.device_id, user: answer.user,
    device_name: deviceName.trim(), enrolled_at: new Date().toISOString(),
    public_key: b64url(publicKey), key_registered: false,
  };
  await put('meta', record, SESSION);
  await registerKey().catch(() => {}); // retried before every sync until the server has it
  touch();
  return record;
}

/** Send the device's public key to the server once (idempotent there). */
export async function registerKey() {
  const s = await session();
  if (!s || s.key_registered) return s;
  const answer = await apiJson('/devices/me/key', {
    method: 'PUT', token: s.token, body: { algorithm: 'Ed25519', public_key: s.public_key },
  });
  const next = { ...s, key_registered: true, key_fingerprint: answer.key_fingerprint };
  await put('meta', next, SESSION);
  return next;
}

// --- PIN ----------------------------------------------------------------------------------

async function pinHash(pin, salt, iterations) {
  const material = await crypto.subtle.importKey('raw', utf8(pin), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, 256);
  return hex(new Uint8Array(bits));
}

/** What every fiscal screen checks first (the guard), read in one transaction: a cold start waits
 *  on it. → {session, hasPin}. */
export async function enrollment() {
  const { current, pin } = await readTogether(['meta'],
    ({ meta }) => ({ current: meta.get(SESSION), pin: meta.get(PIN) }));
  return { session: current, hasPin: Boolean(pin) };
}

export async function setPin(pin) {
  if (!/^\d{4,8}$/.test(pin)) throw new Error('O PIN deve ter de 4 a 8 números.');
  const salt = crypto.getRandomValues(new Uint8Array(16));
  await put('meta', { salt, iterations: PIN_ITERATIONS, hash: await pinHash(pin, salt, PIN_ITERATIONS), failures: 0 }, PIN);
  touch();
}

/** → true when the PIN matches; after 5 wrong tries in a row each try waits 30 s more. */
export async function checkPin(pin) {
  const saved = await get('meta', PIN);
  if (!saved) return true;
  if (saved.blocked_until && Date.now() < saved.blocked_until) {
    const s = Math.ceil((saved.blocked_until - Date.now()) / 1000);
    throw new Error(`Muitas tentativas. Aguarde ${s} s.`);
  }
  const ok = (await pinHash(pin, saved.salt, saved.iterations)) === saved.hash;
  const failures = ok ? 0 : (saved.failures || 0) + 1;
  const blocked = failures >= 5 ? Date.now() + 30000 * (failures - 4) : null;
  await put('meta', { ...saved, failures, blocked_until: blocked }, PIN);
  if (ok) touch();
  return ok;
}

export function touch() {
  try { localStorage.setItem(ACTIVE, String(Date.now())); } catch { /* private mode: no lock */ }
}

export function isLocked(now = Date.now()) {
  let last = 0;
  try { last = Number(localStorage.getItem(ACTIVE) || 0); } catch { return false; }
  return now - last > LOCK_AFTER_MS;
}

/** The server's answer means this phone was revoked (lost or stolen): wipe it. */
export const isRevocation = (error) => error?.status === 403 && error.code === 'device_revoked';
/** Our token is no longer accepted (expired or logged out elsewhere): log in again, keep data. */
export const isUnauthorized = (error) => error?.status === 401 || isRevocation(error);

/**
 * The server refused our token. 403 device_revoked: a revoked phone wipes every fiscal datum.
 * 401: the token merely expired (30 days) — keep everything, including unsent records, and mark
 * the session so the app asks for a new login before sending. Returns "revoked" or "expired".
 */
export async function handleUnauthorized(error) {
  // Every authenticated endpoint answers 403 device_revoked for a revoked phone (server
  // core.auth.api_auth), so the error at hand says which case this is.
  if (isRevocation(error)) {
    await wipe();
    return 'revoked';
  }
  const s = await session();
  if (s) await put('meta', { ...s, expired: true }, SESSION);
  return 'expired';
}

// --- leaving ------------------------------------------------------------------------------

/** Records on this phone the server has not acknowledged yet (drafts included). */
export async function unsentCount() {
  const outbox = await getAll('outbox');
  const drafts = await getAll('drafts');
  return outbox.filter((e) => e.state !== 'enviado' && e.state !== 'conflito').length
    + drafts.filter((d) => d.mode === 'fiscal' && d.step !== 'verdict').length;
}

/** Delete every fiscal datum from this phone (operator-mode data stays). */
export async function wipe() {
  for (const key of FISCAL_META) await del('meta', key);
  for (const store of ['reference', 'drafts', 'outbox', 'photos', 'field_chunks']) await clear(store);
  try { localStorage.removeItem(ACTIVE); } catch { /* nothing to remove */ }
}

export async function signOut() {
  const s = await session();
  if (s) apiJson('/auth/token', { method: 'DELETE', token: s.token }).catch(() => {});
  await wipe();
}
