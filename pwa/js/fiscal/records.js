// Inspections in progress (drafts) and signed records (outbox). Every answer is written to
// IndexedDB as soon as it is given, so a killed tab, a dead battery or an update loses nothing.
// Sealing a record (chain.js) and queueing it happen in one transaction with the chain state.
import { del, get, getAll, put, transact } from '../data/db.js';
import { sha256Hex, uuid } from './bytes.js';
import { sealRecord } from './chain.js';
import { deviceKey, session } from './session.js';
import { requestBackgroundSync, syncNow } from './sync.js';

// Drafts created but not yet in IndexedDB: id → {draft, written (Promise)}.
const unwritten = new Map();

async function writeNewDraft(draft) {
  // A crachá only looked at (verdict shown, no inspection started) leaves nothing behind.
  for (const old of await getAll('drafts')) if (old.mode === 'fiscal' && old.step === 'verdict' && old.id !== draft.id) await del('drafts', old.id);
  await put('drafts', draft);
}

/**
 * A new draft. With {background: true} it is returned before it is in IndexedDB (the scanner
 * shows the verdict first: the write costs a slow phone ~100 ms). Losing it to a killed tab in
 * that moment loses nothing meaningful: a draft at step "verdict" holds no answer, only the
 * verdict, which scanning the crachá again recomputes. getDraft/saveDraft see it meanwhile.
 */
export async function newDraft(fields, { background = false } = {}) {
  const draft = {
    id: uuid(), mode: 'fiscal', state: 'rascunho', step: 'verdict', started_at: new Date().toISOString(),
    answers: {}, answer_sources: {}, item_photos: {}, decisions: {}, ...fields,
  };
  const written = writeNewDraft(draft).finally(() => unwritten.delete(draft.id));
  unwritten.set(draft.id, { draft, written });
  if (background) written.catch((error) => console.error('draft not saved', error));
  else await written;
  return draft;
}

export const getDraft = (id) => (unwritten.has(id) ? Promise.resolve(unwritten.get(id).draft) : get('drafts', id));
export const saveDraft = async (draft) => {
  await unwritten.get(draft.id)?.written.catch(() => {}); // keep the order: first write first
  return put('drafts', { ...draft, updated_at: new Date().toISOString() });
};
/** Inspections in progress (a verdict merely looked at is not one). */
export const listDrafts = async () => (await getAll('drafts')).filter((d) => d.mode === 'fiscal' && d.step !== 'verdict');
export const getRecord = (id) => get('outbox', id);
export const listRecords = () => getAll('outbox');

/** Keep a photo (Blob) addressed by its SHA-256; returns the hash. */
export async function storePhoto(blob) {
  const sha256 = await sha256Hex(new Uint8Array(await blob.arrayBuffer()));
  if (!(await get('photos', sha256))) await put('photos', { sha256, blob, type: blob.type, uploaded: false, stored_at: new Date().toISOString() });
  return sha256;
}
export const getPhoto = (sha) => get('photos', sha);

async function withChainLock(fn) {
  return navigator.locks ? navigator.locks.request('motofiscal-chain', fn) : fn();
}

/**
 * Sign `fields` as a record of `kind` and queue it. `id` is the record's uuid (the draft's for an
 * inspection). `draftUpdate(draft)` → the draft to keep (or null to delete it), in the same
 * transaction. Returns the outbox entry.
 */
export async function commitRecord({ id, kind, fields, photos, summary, draftId, draftUpdate }) {
  const s = await session();
  const key = await deviceKey();
  if (!s || !key) throw new Error('Aparelho não cadastrado.');
  const entry = await withChainLock(async () => {
    const existing = await get('outbox', id);
    if (existing) return existing; // sealed already (double tap, or a retry after a crash)
    const chain = await get('meta', 'fiscal-chain');
    const draft = draftId ? await get('drafts', draftId) : null;
    const sealed = await sealRecord({ id, kind, deviceId: s.device_id, chain, fields, key });
    const value = {
      id, kind, seq: sealed.chain.seq, record: sealed.record, hash: sealed.hash,
      photos: [...new Set(photos || [])], state: 'pronto', error: null, attempts: 0,
      created_at: new Date().toISOString(), summary,
    };
    await transact(['meta', 'outbox', 'drafts'], (st) => {
      st.meta.put(sealed.chain, 'fiscal-chain');
      st.outbox.put(value);
      if (draft) {
        const next = draftUpdate ? draftUpdate(draft) : null;
        if (next) st.drafts.put(next); else st.drafts.delete(draftId);
      }
    });
    return value;
  });
  requestBackgroundSync();
  syncNow('new').catch(() => {});
  return entry;
}

export function deviceClock(gpsAt = null) {
  const d = new Date();
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const local = new Date(d.getTime() + offset * 60000).toISOString().slice(0, 19);
  return { device_at: `${local}${sign}${pad(offset / 60)}:${pad(offset % 60)}`, gps_at: gpsAt };
}
