// The operator's defences and appeals (issue 37): written on the phone, with or without signal,
// and sent through the same outbox replay as the fiscal's records (fiscal/outbox.js `replay`):
// attachments first, each by its SHA-256 (PUT, idempotent), then the filing under its UUID; an
// entry leaves the queue only with the server's answer (accepted/duplicate), a resend is answered
// with the same receipt, nothing is ever deleted before that.
//
// Stores (db.js v4): operator_outbox — {id, seq, kind: 'filing', state, record: {id, auto_id,
// text, attachments, drafted_at}, photos: [sha256…], receipt, error, created_at}; a draft is an
// entry in state "rascunho" (the replay skips it); operator_files — {sha256, blob, type, name,
// size, uploaded}.
import { send } from './api.js';
import { get, getAll, put, del } from './db.js';
import { isPending, replay } from '../fiscal/outbox.js';
import { sha256Hex } from '../fiscal/bytes.js';

const SESSION_KEY = 'operator-session';
export const MAX_ATTACHMENTS = 6;
export const PDF_MAX_BYTES = 5 * 1024 * 1024;
export const TEXT_MIN = 10;
export const TEXT_MAX = 20000;

const listeners = new Set();
export function onFilingsChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
const notify = (info) => listeners.forEach((fn) => { try { fn(info); } catch (e) { console.error(e); } });

export function filings() {
  return getAll('operator_outbox');
}

/** The open draft for an auto (one at a time), or a new one (not stored until it has content). */
export async function draftFor(autoId) {
  const found = (await filings()).find((e) => e.record.auto_id === autoId && e.state === 'rascunho');
  if (found) return found;
  return {
    id: crypto.randomUUID(), kind: 'filing', state: 'rascunho', seq: Date.now(), photos: [],
    record: { id: null, auto_id: autoId, text: '', attachments: [], drafted_at: null },
    created_at: new Date().toISOString(),
  };
}

export async function saveDraft(entry) {
  entry.record.id = entry.id;
  entry.record.attachments = [...entry.photos];
  entry.record.drafted_at = new Date().toISOString();
  await put('operator_outbox', entry);
  notify({ entry });
  return entry;
}

export async function discardDraft(entry) {
  if (entry.state !== 'rascunho') return;
  await del('operator_outbox', entry.id);
  notify({ entry });
}

/** Keep an attachment on the phone (photo already compressed by the screen, or a PDF) → sha256. */
export async function keepFile(blob, name) {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const sha256 = await sha256Hex(bytes);
  const existing = await get('operator_files', sha256);
  if (!existing) await put('operator_files', { sha256, blob, type: blob.type, name, size: blob.size, uploaded: false });
  return sha256;
}

export function fileOf(sha256) {
  return get('operator_files', sha256);
}

/** "Enviar": the draft becomes a filing the outbox owns (no more edits), then a sync is tried. */
export async function seal(entry) {
  const text = entry.record.text.trim();
  if (text.length < TEXT_MIN) throw new Error(`Escreva ao menos ${TEXT_MIN} caracteres.`);
  entry.record.text = text;
  entry.state = 'pronto';
  entry.seq = Date.now();
  await saveDraft(entry);
  return syncFilings('sealed');
}

function operatorIo(token, receipts) {
  return {
    list: () => getAll('operator_outbox'),
    save: async (entry) => {
      if (receipts.has(entry.id)) entry.receipt = receipts.get(entry.id);
      await put('operator_outbox', entry);
      notify({ entry });
    },
    getPhoto: (sha) => get('operator_files', sha),
    savePhoto: (file) => put('operator_files', file),
    releasePhoto: async (sha) => {
      const file = await get('operator_files', sha);
      if (file?.uploaded) await put('operator_files', { ...file, blob: null, released_at: new Date().toISOString() });
    },
    putPhoto: (sha, file) => send(`/operator/attachments/${sha}`, {
      method: 'PUT', token, raw: file.blob, headers: { 'Content-Type': file.type || file.blob.type },
    }),
    push: async (records) => {
      const answer = await (await send('/operator/filings', { method: 'POST', token, body: { records } })).json();
      for (const result of answer.results || []) if (result.receipt) receipts.set(result.id, result.receipt);
      return answer;
    },
  };
}

let running = null;
let followUp = null;
let timer = null;

/** Send every sealed filing now (one run per phone; a trigger during a run gets one more run). */
export function syncFilings(reason = 'manual') {
  if (running) {
    if (!followUp) followUp = running.catch(() => {}).then(() => { followUp = null; return syncFilings(reason); });
    return followUp;
  }
  clearTimeout(timer);
  const run = async () => {
    const session = await get('meta', SESSION_KEY);
    if (!session || !(await filings()).some(isPending)) return { sent: 0, failed: 0, retryInMs: null };
    try {
      const result = await replay(operatorIo(session.token, new Map()));
      if (result.retryInMs !== null) timer = setTimeout(() => syncFilings('retry'), result.retryInMs);
      notify({ done: result, reason });
      return result;
    } catch (error) {
      // A refused token (a new access code was issued, or it expired): the filings stay on the
      // phone, untouched, and go with the next access.
      notify({ done: { sent: 0, failed: 0, unauthorized: true }, reason });
      return { sent: 0, failed: 0, unauthorized: true, error };
    }
  };
  const locked = navigator.locks ? navigator.locks.request('motofiscal-operator-sync', run) : run();
  running = locked.finally(() => { running = null; });
  return running;
}

let started = false;
/** Send when signal returns or the app comes back to the foreground; once per page. */
export function startOperatorSync() {
  if (started) return;
  started = true;
  window.addEventListener('online', () => syncFilings('online'));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') syncFilings('visible');
  });
  syncFilings('start').catch((e) => console.error(e));
}

/** Unsent filings (sealed, not yet acknowledged) — sign-out asks before losing them. */
export async function unsentCount() {
  return (await filings()).filter(isPending).length;
}
