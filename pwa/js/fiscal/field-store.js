// The registry extract in IndexedDB, row by row (issue 24): one store per kind (data/db.js
// FIELD_STORES), keyed by id, beside its meta in reference "field" = {data: {cursor, generated_at,
// municipality, photo_url, tariff, calendar}, etag, fetched_at}. An answer of GET /field/data
// is written in ONE transaction — a snapshot replaces every row, a delta puts its rows and
// deletes its removed ids — together with the new cursor, so the cursor moves only when the
// rows it stands for are stored (a failed write leaves both as they were).
import { openDb, transact } from '../data/db.js';
import { decodeColumns, KINDS, mergeMeta, permitOperatorId, permitView } from './field-merge.js';

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

// Rows per request when the whole extract is read: each page arrives as its own task (its
// structured clone read on this thread), so a tap or a frame runs between pages instead of
// waiting behind one ~250 ms task per kind at 10,000 rows and 4× CPU.
const PAGE = 1000;

/** {data: {…meta, permits: […], operators: […], …}, etag, fetched_at} as stored, or null. */
export async function readField() {
  const db = await openDb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(['reference', ...KINDS], 'readonly'); // one snapshot of all pages
    const rows = Object.fromEntries(KINDS.map((kind) => [kind, []]));
    const meta = tx.objectStore('reference').get('field');
    for (const kind of KINDS) {
      const store = tx.objectStore(kind);
      const page = (after) => {
        const request = store.getAll(after === undefined ? null : IDBKeyRange.lowerBound(after, true), PAGE);
        request.onsuccess = () => {
          const got = request.result;
          for (const row of got) rows[kind].push(row);
          if (got.length === PAGE) page(got[got.length - 1].id);
        };
      };
      page();
    }
    tx.oncomplete = () => resolve(meta.result ? { ...meta.result, data: { ...meta.result.data, ...rows } } : null);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('transaction aborted'));
  });
}

/**
 * One permit's view by its number, read through the permits' `number` index and the ids it
 * names, in one transaction: a handful of rows instead of the whole extract (readField), for a
 * verdict asked before the rows are in memory. null when the phone does not hold the permit.
 */
export async function readPermitView(number) {
  const wanted = String(number).trim();
  const db = await openDb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(['permits', 'operators', 'vehicles', 'pontos'], 'readonly');
    const rows = {};
    const withRows = (permit) => {
      rows.permit = permit;
      const fetch = (store, id, name) => {
        if (id === null || id === undefined) return;
        const request = tx.objectStore(store).get(id);
        request.onsuccess = () => { rows[name] = request.result || null; };
      };
      fetch('operators', permitOperatorId(permit), 'operator');
      fetch('vehicles', permit.vehicle_id, 'vehicle');
      fetch('pontos', permit.ponto_id, 'ponto');
    };
    const byNumber = tx.objectStore('permits').index('number');
    const exact = byNumber.get(wanted);
    exact.onsuccess = () => {
      if (exact.result) { withRows(exact.result); return; }
      if (wanted.toUpperCase() === wanted) return; // the in-memory index compares upper case too
      const upper = byNumber.get(wanted.toUpperCase());
      upper.onsuccess = () => { if (upper.result) withRows(upper.result); };
    };
    tx.oncomplete = () => resolve(rows.permit ? permitView(rows.permit, rows) : null);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('transaction aborted'));
  });
}
