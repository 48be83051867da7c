// Operator mode: first access (code → token), the operator's own crachá kept on the phone so it
// shows offline, and sign-out. Screens read the crachá only through this module.
//
// Stored: meta/"operator-session" = {token, municipality}; credential/"operator" = the /me
// answer (no CPF, no address: the server never sends them) + photo Blob + fetched_at.
import { apiBlob, apiJson } from './api.js';
import { clear, del, get, put } from './db.js';

const SESSION_KEY = 'operator-session';
const BADGE_KEY = 'operator';

export function listMunicipalities() {
  return apiJson('/operator/municipalities');
}

export async function activate(municipality, code) {
  const answer = await apiJson('/operator/activate', {
    method: 'POST',
    body: { municipality, code: code.trim() },
  });
  await put('meta', { token: answer.token, municipality, expires_at: answer.expires_at }, SESSION_KEY);
  // The code is spent now: a failed first download must not send the operator back to the
  // code form. The crachá screen retries with the saved token.
  try {
    return await refreshBadge();
  } catch (error) {
    if (error.status === 401) throw error;
    return null;
  }
}

export async function hasSession() {
  return Boolean(await get('meta', SESSION_KEY));
}

/** The crachá as last saved on this phone, or null. */
export function savedBadge() {
  return get('credential', BADGE_KEY);
}

/**
 * Fetch the current crachá and save it. A refused token (revoked device, expired access) wipes
 * the operator's data from the phone, as a lost phone must not keep showing a valid crachá.
 */
export async function refreshBadge() {
  const session = await get('meta', SESSION_KEY);
  if (!session) return null;
  let me;
  try {
    me = await apiJson('/operator/me', { token: session.token });
  } catch (error) {
    if (error.status === 401) await signOut();
    throw error;
  }
  const previous = await savedBadge();
  let photo = null;
  if (me.photo_url) {
    try {
      photo = await apiBlob(me.photo_url, { token: session.token });
    } catch {
      photo = previous ? previous.photo : null; // keep the last photo rather than none
    }
  }
  const badge = { ...me, photo, fetched_at: new Date().toISOString() };
  await put('credential', badge, BADGE_KEY);
  // This contact also refreshes what the phone needs to verify a fiscal's copy offline.
  import('./copy-verifier.js').then(({ keepCopyVerifier }) => keepCopyVerifier(me.municipality?.ibge))
    .catch((error) => console.error('copy verifier not kept', error));
  return badge;
}

export async function signOut() {
  await del('meta', SESSION_KEY);
  await del('credential', BADGE_KEY);
  await del('credential', AUTOS_KEY);
  // Filings not yet protocolled stay (operator-outbox.js): a refused token must not lose them,
  // and they go with the next access. Only "Sair deste celular", asked twice, wipes them.
}

/** Sign-out chosen by the operator: also their filings and attachments kept on the phone. */
export async function signOutAndWipe() {
  await signOut();
  await clear('operator_outbox');
  await clear('operator_files');
}

/** The last list of autos saved on the phone (notices, receipts and PIX codes readable offline). */
export async function savedAutos() {
  return (await get('credential', AUTOS_KEY)) || null;
}

async function token() {
  const session = await get('meta', SESSION_KEY);
  if (!session) throw Object.assign(new Error('Sem acesso neste celular.'), { status: 401 });
  return session.token;
}

/** A notice opened in the app; for an intimação eletrônica, the ciência it records. */
export async function readNotice(id) {
  return apiJson(`/operator/notices/${id}/read`, { method: 'POST', token: await token() });
}

export async function noticePreferences() {
  return apiJson('/operator/notices/preferences', { token: await token() });
}

export async function setOptionalOptOut(optOut) {
  return apiJson('/operator/notices/preferences', { method: 'PUT', token: await token(), body: { optional_opt_out: optOut } });
}

const AUTOS_KEY = 'operator-autos';

/** The autos the server holds for this operator; the last copy saved on the phone when offline. */
export async function fetchAutos() {
  const session = await get('meta', SESSION_KEY);
  if (!session) return null;
  try {
    const answer = await apiJson('/operator/autos', { token: session.token });
    const saved = { autos: answer.autos, fetched_at: new Date().toISOString() };
    await put('credential', saved, AUTOS_KEY);
    return { ...saved, fresh: true };
  } catch (error) {
    if (error.status === 401) { await signOut(); throw error; }
    const saved = await get('credential', AUTOS_KEY);
    return saved ? { ...saved, fresh: false, error } : { autos: null, fresh: false, error };
  }
}

/**
 * Status to show, judged on this phone too: a crachá saved weeks ago must not keep saying
 * "Ativo" after its validity date. Returns {code, label}.
 */
export function effectiveStatus(badge, today = new Date()) {
  const isoToday = localIsoDate(today);
  if (badge.status === 'ativo' && badge.valid_until && badge.valid_until < isoToday) {
    return { code: 'vencido', label: 'Vencido' };
  }
  return { code: badge.status, label: badge.status_label || badge.status };
}

export function localIsoDate(date) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
