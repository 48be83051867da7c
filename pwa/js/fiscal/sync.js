// Runs the outbox replay (outbox.js) against IndexedDB and the server, and decides when:
// app start, back online, back to the foreground, "Sincronizar agora", the service worker's
// Background Sync event (Chromium), and after a failure with exponential backoff. One run at a
// time per phone (Web Locks across tabs where present).
import { send } from '../data/api.js';
import { del, get, getAll, put } from '../data/db.js';
import { flushVoids } from './field-data.js';
import { replay, RevokedError, isPending } from './outbox.js';
import { handleUnauthorized, isUnauthorized, registerKey, session } from './session.js';

const listeners = new Set();
let running = null;
let followUp = null; // the one run queued behind `running`
let timer = null;

export function onSyncChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
const notify = (info) => listeners.forEach((fn) => { try { fn(info); } catch (e) { console.error(e); } });

/** The outbox's storage and server calls (outbox.js `io`); bench/sync_day.py drives replay with it. */
export function outboxIo(token) {
  return {
    list: () => getAll('outbox'),
    save: async (entry) => { await put('outbox', entry); notify({ entry }); },
    getPhoto: (sha) => get('photos', sha),
    savePhoto: (photo) => put('photos', photo),
    releasePhoto: async (sha) => {
      const photo = await get('photos', sha);
      if (photo?.uploaded) await put('photos', { sha256: sha, uploaded: true, blob: null, released_at: new Date().toISOString() });
    },
    putPhoto: (sha, photo) => send(`/sync/photos/${sha}`, {
      method: 'PUT', token, raw: photo.blob, headers: { 'Content-Type': photo.type || photo.blob.type },
    }),
    // A photo whose PUT began: after a reset, HEAD asks whether it arrived before sending again.
    photoTried: async (sha) => Boolean(await get('meta', `photo-put:${sha}`)),
    notePhotoTry: (sha) => put('meta', new Date().toISOString(), `photo-put:${sha}`),
    forgetPhotoTry: (sha) => del('meta', `photo-put:${sha}`),
    hasPhoto: (sha) => send(`/sync/photos/${sha}`, { method: 'HEAD', token }).then(() => true,
      (error) => { if (error.status === 404) return false; throw error; }),
    // gzip: a day's records are ~20× smaller (JSON of signed records: docs/benchmarks/sync-day.md).
    push: (records) => withTimeout(send('/sync/push', { method: 'POST', token, body: { records }, gzip: true }).then((r) => r.json())),
    online: () => navigator.onLine, // no network: the record waits, "Sem conexão" (outbox.js)
  };
}

// A push that gets no answer in this time counts as a timeout: the outbox splits the batch in
// case one record is what the server chokes on (outbox.js), instead of waiting forever.
export const PUSH_TIMEOUT_MS = 60_000;

function withTimeout(promise, ms = PUSH_TIMEOUT_MS) {
  let timer;
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('O servidor não respondeu a tempo.'),
      { status: 0, code: 'timeout', timeout: true })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Replay now. A trigger that comes while a run is going (a record sealed mid-sync, "Sincronizar
 * agora" pressed during the start's run) gets one more run after it: the going run listed the
 * outbox before that record existed, and without the follow-up the record would wait for the next
 * app start or network change. Triggers during a run share that one follow-up. Resolves with the
 * summary of the run that covers the trigger.
 */
export function syncNow(reason = 'manual') {
  if (running) {
    if (!followUp) {
      followUp = running.catch(() => {}).then(() => { followUp = null; return syncNow(reason); });
    }
    return followUp;
  }
  clearTimeout(timer);
  const run = async () => {
    const s = await session();
    if (!s || s.expired) return { sent: 0, failed: 0 };
    await flushVoids(s.token).catch(() => {}); // retried at the next run
    if (!(await getAll('outbox')).some(isPending)) return { sent: 0, failed: 0 };
    // No network: nothing to try (the screens say "Sem conexão"); the "online" event starts the next run.
    if (!navigator.onLine) return { sent: 0, failed: 0, retryInMs: null, offline: true };
    try {
      await registerKey(); // the server verifies signatures with it
    } catch (error) {
      if (isUnauthorized(error)) return refusedToken(error);
      // no key on the server yet: records are accepted but flagged; send anyway
    }
    try {
      const result = await replay(outboxIo(s.token));
      if (result.retryInMs !== null) timer = setTimeout(() => syncNow('retry'), result.retryInMs);
      notify({ done: result, reason });
      return result;
    } catch (error) {
      if (error instanceof RevokedError) return refusedToken(error.cause);
      throw error;
    }
  };
  const locked = navigator.locks ? navigator.locks.request('motofiscal-sync', run) : run();
  running = locked.finally(() => { running = null; });
  return running;
}

async function refusedToken(error) {
  const why = await handleUnauthorized(error);
  notify({ unauthorized: why });
  location.hash = why === 'revoked' ? '#/fiscal/entrar?revogado=1' : '#/fiscal/entrar?expirado=1';
  return { sent: 0, failed: 0, unauthorized: why };
}

/** Ask for Background Sync (where it exists) so the browser wakes us when the network returns. */
export async function requestBackgroundSync() {
  try {
    const registration = await navigator.serviceWorker?.ready;
    if (registration?.sync) await registration.sync.register('outbox');
  } catch { /* not supported or not allowed: the page triggers cover it */ }
}

let started = false;
/** Hook the automatic triggers once per page. */
export function startAutoSync() {
  if (started) return;
  started = true;
  window.addEventListener('online', () => syncNow('online'));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') syncNow('visible');
  });
  navigator.serviceWorker?.addEventListener('message', (event) => {
    if (event.data?.type === 'SYNC_OUTBOX') syncNow('background');
  });
  syncNow('start').catch((e) => console.error(e));
}

/** {pending, errors, refused, conflicts} for the home badge and the sync words. */
export async function outboxCounts() {
  const all = await getAll('outbox');
  return {
    pending: all.filter(isPending).length,
    errors: all.filter((e) => e.state === 'erro').length,
    refused: all.filter((e) => e.state === 'recusado').length,
    conflicts: all.filter((e) => e.state === 'conflito').length,
  };
}
