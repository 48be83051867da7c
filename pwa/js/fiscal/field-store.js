// The registry extract in IndexedDB (issues 24, 40): rows in chunks of the store `field_chunks`
// (layout: data/db.js FIELD_CHUNKS — rows by id >> 9, and a permit-number → id look-up), beside
// its meta in reference "field" = {data: {cursor, generated_at, municipality, photo_url, tariff,
// calendar}, etag, fetched_at}. An answer of GET /field/data is written in ONE transaction — a
// snapshot replaces every chunk, a delta rewrites the few chunks its rows and removed ids fall
// in — together with the new cursor, so the cursor moves only when the rows it stands for are
// stored (a failed write leaves both as they were).
import {
  chunkKey, chunkRecords, chunkRow, chunkRows, FIELD_KINDS, NUMBER_BUCKETS, numberBucket, numberEntryId, numberKey, openDb, permitOperatorId,
  packRows, permitRefs, transact, validId,
} from '../data/db.js';
import { decodeColumns, KINDS, mergeMeta, permitView } from './field-merge.js';

const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });

/** Store one answer; resolves with its decoded rows ({kind: [row]}) once durable. `timings`, when
 *  given, gets `decoded`: the performance.now() at which the rows were decoded (the bench's split). */
export async function storeAnswer(answer, { etag, fetchedAt, timings = {} }) {
  const rows = Object.fromEntries(KINDS.map((kind) => [kind, decodeColumns(answer[kind] || [])]));
  timings.decoded = performance.now();
  for (const kind of KINDS) {
    for (const row of rows[kind]) if (!validId(row?.id)) throw new DOMException(`${kind}: linha sem id`, 'DataError');
  }
  const writeMeta = (stores) => {
    const saved = stores.reference.get('field');
    saved.onsuccess = () => {
      stores.reference.put({ data: mergeMeta(saved.result?.data, answer), etag, fetched_at: fetchedAt }, 'field');
    };
  };
  if (answer.snapshot) {
    // Grouped before the transaction: a few hundred puts of ~512 rows instead of one per row.
    const records = chunkRecords(rows);
    await transact(['reference', 'field_chunks'], (stores) => {
      stores.field_chunks.clear();
      for (const [key, value] of records) stores.field_chunks.put(value, key);
      writeMeta(stores);
    });
  } else {
    await transact(['reference', 'field_chunks'], (stores) => {
      patchChunks(stores.field_chunks, rows, answer.removed || {});
      writeMeta(stores);
    });
  }
  return rows;
}

// A delta's rows and removed ids patched into their chunks, then the permit numbers whose
// look-up entry changed (the number, or a row it names). Requests chained by callbacks inside
// the caller's transaction.
function patchChunks(store, rows, removed) {
  const keys = new Map();
  const want = (kind, id) => { const key = chunkKey(kind, id); keys.set(key.join('|'), key); };
  for (const kind of FIELD_KINDS) {
    for (const row of rows[kind] || []) want(kind, row.id);
    for (const id of removed[kind] || []) want(kind, id);
  }
  const chunks = new Map(); // "kind|bucket" → rows as stored
  let pending = keys.size;
  if (!pending) return;
  for (const [name, key] of keys) {
    const got = store.get(key);
    got.onsuccess = () => {
      chunks.set(name, chunkRows(got.result));
      pending -= 1;
      if (!pending) write();
    };
  }
  const write = () => {
    const numbers = []; // [old number or null, new number or null, permit id, new refs or null]
    const byChunk = new Map();
    const edit = (kind, id) => {
      const name = chunkKey(kind, id).join('|');
      if (!byChunk.has(name)) byChunk.set(name, new Map(chunks.get(name).map((row) => [row.id, row])));
      return byChunk.get(name);
    };
    for (const kind of FIELD_KINDS) {
      for (const row of rows[kind] || []) {
        const at = edit(kind, row.id);
        if (kind === 'permits') numbers.push(numberChange(at.get(row.id), row));
        at.set(row.id, row);
      }
      for (const id of removed[kind] || []) {
        const at = edit(kind, id);
        if (kind === 'permits' && at.has(id)) numbers.push([at.get(id).number ?? null, null, id, null]);
        at.delete(id);
      }
    }
    for (const [name, rowsById] of byChunk) {
      const key = keys.get(name);
      if (rowsById.size) store.put(packRows([...rowsById.values()].sort((a, b) => a.id - b.id)), key);
      else store.delete(key);
    }
    patchNumbers(store, numbers.filter(Boolean));
  };
}

// A permit row's change of look-up entry, or null when its number and refs stay as they were.
function numberChange(before, after) {
  const refs = permitRefs(after);
  const was = before?.number ?? null;
  const is = after.number ?? null;
  if (was !== null && is !== null && numberKey(was) === numberKey(is)
      && permitRefs(before).every((id, i) => id === refs[i])) return null;
  return [was, is, after.id, refs];
}

function patchNumbers(store, changes) {
  const buckets = new Map();
  for (const [before, after] of changes) {
    for (const number of [before, after]) if (number !== null) buckets.set(numberBucket(number), null);
  }
  let pending = buckets.size;
  for (const bucket of buckets.keys()) {
    const got = store.get(['number', bucket]);
    got.onsuccess = () => {
      buckets.set(bucket, got.result || {});
      pending -= 1;
      if (pending) return;
      const holder = (number) => numberEntryId(buckets.get(numberBucket(number))[numberKey(number)]);
      for (const [before, after, id, refs] of changes) {
        if (before !== null && holder(before) === id) delete buckets.get(numberBucket(before))[numberKey(before)];
        const free = after !== null && holder(after);
        if (after !== null && (free === undefined || free === id)) buckets.get(numberBucket(after))[numberKey(after)] = refs;
      }
      for (const [b, numbers] of buckets) store.put(numbers, ['number', b]);
    };
  }
}

/** "Nothing changed" (304): only the time of the check moves. */
export async function touchField(fetchedAt) {
  await transact(['reference'], (stores) => {
    const saved = stores.reference.get('field');
    saved.onsuccess = () => { if (saved.result) stores.reference.put({ ...saved.result, fetched_at: fetchedAt }, 'field'); };
  });
}

// Chunks per read when the whole extract is read (~1,000 rows): each read is its own short
// transaction and its own task, so a tap, a frame or a verdict's look-up runs between them; and
// between them the reader may wait (`paused`) or stop (`cancelled`).
const PAGE = 2;
const kindRange = (kind, after) => IDBKeyRange.bound([kind, after], [kind, Infinity], after !== -Infinity, false);

async function readPage(db, kind, after) {
  const tx = db.transaction(['reference', 'field_chunks'], 'readonly');
  const store = tx.objectStore('field_chunks');
  const [meta, values, keys] = await Promise.all([
    request(tx.objectStore('reference').get('field')),
    request(store.getAll(kindRange(kind, after), PAGE)),
    request(store.getAllKeys(kindRange(kind, after), PAGE)),
  ]);
  return { stamp: meta ? `${meta.data?.cursor}|${meta.etag}` : null, meta, values, keys };
}

/**
 * {data: {…meta, permits: […], operators: […], …}, etag, fetched_at} as stored (rows in id
 * order), or null. Read ~1,000 rows a transaction; before each, `await paused()` (the field
 * data's gate: a verdict in progress holds it) and `cancelled()` (true: give up, AbortError). A
 * download landing between two reads (another cursor or ETag) starts the read again.
 */
export async function readField({ paused = async () => {}, cancelled = () => false } = {}) {
  const db = await openDb();
  for (let attempt = 0; ; attempt += 1) {
    let first;
    let moved = false;
    const rows = Object.fromEntries(FIELD_KINDS.map((kind) => [kind, []]));
    for (const kind of FIELD_KINDS) {
      let after = -Infinity;
      for (;;) {
        await paused();
        if (cancelled()) throw new DOMException('leitura do cadastro cancelada', 'AbortError');
        const page = await readPage(db, kind, after);
        if (first === undefined) first = page;
        if (page.stamp !== first.stamp) { moved = true; break; }
        for (const chunk of page.values) for (const row of chunkRows(chunk)) rows[kind].push(row);
        if (page.keys.length < PAGE) break;
        after = page.keys[page.keys.length - 1][1];
      }
      if (moved) break;
    }
    if (!moved || attempt === 3) {
      const { meta } = first;
      return meta ? { ...meta, data: { ...meta.data, ...rows } } : null;
    }
  }
}

/** Every stored row of one kind, in id order (one transaction). */
export async function readKind(kind) {
  const db = await openDb();
  const chunks = await request(db.transaction('field_chunks').objectStore('field_chunks').getAll(kindRange(kind, -Infinity)));
  return chunks.flatMap(chunkRows);
}

/** One stored row by kind and id, or undefined. */
export async function readRow(kind, id) {
  const db = await openDb();
  const chunk = await request(db.transaction('field_chunks').objectStore('field_chunks').get(chunkKey(kind, id)));
  return chunkRow(chunk, id);
}

// Look-up buckets per read of readNumberLookup: ~6,000 entries at 50,000 permits, one short task.
const LOOKUP_PAGE = 32;

/**
 * The permit-number look-up's records, [bucket] → {NUMBER: entry}, read in short transactions
 * with `await paused()` before each (as readField's pages). What a tab holds in memory so that a
 * verdict reads its permit in one round trip (readPermitView's `lookup`); read in pages, so it
 * may mix two downloads' states: readPermitView checks every entry against the rows it reads.
 */
export async function readNumberLookup({ paused = async () => {} } = {}) {
  const db = await openDb();
  const buckets = new Array(NUMBER_BUCKETS);
  for (let from = 0; from < NUMBER_BUCKETS; from += LOOKUP_PAGE) {
    await paused();
    const store = db.transaction('field_chunks', 'readonly').objectStore('field_chunks');
    const range = IDBKeyRange.bound(['number', from], ['number', from + LOOKUP_PAGE], false, true);
    const [keys, values] = await Promise.all([request(store.getAllKeys(range)), request(store.getAll(range))]);
    keys.forEach((key, i) => { buckets[key[1]] = values[i]; });
  }
  return buckets;
}

/**
 * One permit's view by its number, for a verdict asked before the rows are in memory: a few
 * hundred rows instead of the whole extract (readField). null when the phone does not hold the
 * permit. With `lookup` (readNumberLookup's buckets, kept by the caller) whose entry names the
 * permit's rows, ONE round trip: its four chunks read side by side (issue 40: each request in a
 * row cost 7–25 ms at 4× CPU right after a decode, at 50,000 permits). The rows read decide: an
 * entry that no longer matches its permit (another tab's download, a page of the look-up read
 * before a delta) falls back to the stored look-up.
 */
export async function readPermitView(number, lookup = null) {
  const entry = lookup?.[numberBucket(number)]?.[numberKey(number)];
  if (Array.isArray(entry)) {
    const view = await readByRefs(number, entry);
    if (view !== undefined) return view;
  }
  return readThroughLookup(number);
}

// The kinds a permit's refs name, in permitRefs' order, and the name each row has in a view.
const REF_ROWS = [['permits', 'permit'], ['operators', 'operator'], ['vehicles', 'vehicle'], ['pontos', 'ponto']];

// The view of the permit `refs` names, read in one transaction; undefined when the permit read
// does not carry this number and these refs any more.
async function readByRefs(number, refs) {
  return readRows(await openDb(), (row, settle) => {
    REF_ROWS.forEach(([kind, name], i) => row(kind, refs[i], name));
    settle();
  }, ({ permit, ...rows }) => {
    const current = permit && numberKey(permit.number ?? '') === numberKey(number)
      && permitRefs(permit).every((id, i) => id === refs[i]);
    return current ? permitView(permit, rows) : undefined;
  });
}

// One permit's view through the stored number look-up and the chunks its ids fall in, in one
// transaction (three requests in a row).
async function readThroughLookup(number) {
  return readRows(await openDb(), (row, settle, store) => {
    const look = store.get(['number', numberBucket(number)]);
    look.onsuccess = () => {
      const id = numberEntryId(look.result?.[numberKey(number)]);
      row('permits', id, 'permit', (permit) => {
        if (!permit) return;
        row('operators', permitOperatorId(permit), 'operator');
        row('vehicles', permit.vehicle_id, 'vehicle');
        row('pontos', permit.ponto_id, 'ponto');
      });
      settle();
    };
  }, (rows) => (rows.permit ? permitView(rows.permit, rows) : null));
}

// A read-only transaction of `field_chunks` whose requests `start(row, settle, store)` makes:
// row(kind, id, name, then) reads one row by id out of its chunk into rows[name] (nothing for a
// null id), and start calls settle() once it has asked what it asks first. Resolves with
// finish(rows) when the last row asked is in, not on the transaction's completion: nothing is
// written, and completion is one more round trip to the database, a wait for a core on a loaded
// phone.
function readRows(db, start, finish) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction('field_chunks', 'readonly');
    const store = tx.objectStore('field_chunks');
    const rows = {};
    let pending = 1; // start's own
    const settle = () => {
      pending -= 1;
      if (!pending) resolve(finish(rows));
    };
    const row = (kind, id, name, then = () => {}) => {
      if (id === null || id === undefined) return;
      pending += 1;
      const got = store.get(chunkKey(kind, id));
      got.onsuccess = () => {
        rows[name] = chunkRow(got.result, id) || null;
        then(rows[name]);
        settle();
      };
    };
    start(row, settle, store);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('transaction aborted'));
  });
}
