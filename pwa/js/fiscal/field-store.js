// The registry extract in IndexedDB, row by row (issue 24): one store per kind (data/db.js
// FIELD_STORES), keyed by id, beside its meta in reference "field" = {data: {cursor, generated_at,
// municipality, photo_url, tariff, calendar}, etag, fetched_at}. An answer of GET /field/data
// is written in ONE transaction — a snapshot replaces every row, a delta puts its rows and
// deletes its removed ids — together with the new cursor, so the cursor moves only when the
// rows it stands for are stored (a failed write leaves both as they were).
import { readTogether, transact } from '../data/db.js';
import { decodeColumns, KINDS, mergeMeta } from './field-merge.js';

/** Store one answer; resolves with its decoded rows ({kind: [row]}) once durable. */
export async function storeAnswer(answer, { etag, fetchedAt }) {
  const rows = Object.fromEntries(KINDS.map((kind) => [kind, decodeColumns(answer[kind] || [])]));
  await transact(['reference', ...KINDS], (stores) => {
    for (const kind of KINDS) {
      if (answer.snapshot) stores[kind].clear();
      for (const row of rows[kind]) stores[kind].put(row);
      for (const id of answer.removed?.[kind] || []) stores[kind].delete(id);
    }
    const saved = stores.reference.get('field');
    saved.onsuccess = () => {
      stores.reference.put({ data: mergeMeta(saved.result?.data, answer), etag, fetched_at: fetchedAt }, 'field');
    };
  });
  return rows;
}

/** "Nothing changed" (304): only the time of the check moves. */
export async function touchField(fetchedAt) {
  await transact(['reference'], (stores) => {
    const saved = stores.reference.get('field');
    saved.onsuccess = () => { if (saved.result) stores.reference.put({ ...saved.result, fetched_at: fetchedAt }, 'field'); };
  });
}

/** {data: {…meta, permits: […], operators: […], …}, etag, fetched_at} as stored, or null. */
export async function readField() {
  const read = await readTogether(['reference', ...KINDS], (stores) => ({
    meta: stores.reference.get('field'),
    ...Object.fromEntries(KINDS.map((kind) => [kind, stores[kind].getAll()])),
  }));
  if (!read.meta) return null;
  return { ...read.meta, data: { ...read.meta.data, ...Object.fromEntries(KINDS.map((kind) => [kind, read[kind]])) } };
}
