// The field app's IndexedDB: one schema, owned here, changed only by appending migrations.
//
// MIGRATIONS[i] upgrades the database from version i to i + 1. Never edit or remove a step
// that has shipped, and never delete a store that can hold unsent records (drafts, outbox):
// an update must not wipe what the fiscal has not synced yet. Add a step instead.

const DB_NAME = 'motofiscal';

const MIGRATIONS = [
  // v1 — first shell.
  (db) => {
    db.createObjectStore('meta');       // key → value: session, device settings, sync times
    db.createObjectStore('credential'); // "operator" → the operator's own crachá (operator mode)
    db.createObjectStore('reference');  // fiscal mode reference data by kind (registry, keys, packs)
    db.createObjectStore('drafts', { keyPath: 'id' }); // open inspections/autos, client UUID keys
    db.createObjectStore('outbox', { keyPath: 'id' }); // records awaiting server ack, client UUID keys
  },
  // v2 — fiscal mode: evidence photos and signatures (JPEG/PNG Blobs) addressed by SHA-256, kept
  // until the server has acknowledged every record that references them.
  (db) => {
    db.createObjectStore('photos', { keyPath: 'sha256' });
  },
  // v3 — the registry extract as rows, one store per kind (issue 24): a delta writes its rows
  // only, instead of reading and rewriting one record of every permit. Indexed for the
  // look-ups of the verdict and the search. The single record of older versions
  // (reference "field" = {data: {cursor, …, permits: […], …}}) is moved into the stores in
  // this same upgrade: same cursor, so the next download is still a delta.
  (db, tx) => {
    for (const [kind, indexes] of Object.entries(V3_FIELD_STORES)) {
      const store = db.createObjectStore(kind, { keyPath: 'id' });
      for (const index of indexes) store.createIndex(index, index);
    }
    const reference = tx.objectStore('reference');
    const request = reference.get('field');
    request.onsuccess = () => {
      const saved = request.result;
      if (!saved?.data) return;
      const { data } = saved;
      for (const kind of Object.keys(V3_FIELD_STORES)) {
        const target = tx.objectStore(kind);
        for (const row of data[kind] || []) target.put(row);
      }
      const meta = Object.fromEntries(Object.entries(data).filter(([key]) => !(key in V3_FIELD_STORES)));
      reference.put({ ...saved, data: meta }, 'field');
    };
  },
  // v4 — operator mode (issue 37): the operator's own outbox of defences and appeals (drafts
  // with state "rascunho", then queued like the fiscal's records) and their attachments (photo or
  // PDF Blobs by SHA-256), kept until the server has acknowledged the filing that cites them.
  (db) => {
    db.createObjectStore('operator_outbox', { keyPath: 'id' });
    db.createObjectStore('operator_files', { keyPath: 'sha256' });
  },
  // v5 — the registry extract in chunks (issue 40): 150,000 rows written one put each took 13.7 s
  // at 4× CPU for a 50,000-permit city's first download. Store `field_chunks` (the layout below,
  // FIELD_CHUNKS). The rows of v3's stores move into it in this same upgrade (same cursor: the next
  // download is still a delta), then those stores go: they hold only what the server sends again.
  (db, tx) => {
    const chunks = db.createObjectStore('field_chunks');
    const kinds = Object.keys(V3_FIELD_STORES);
    // Read after v3's own move (a v2 phone upgrades through both at once): v3 puts its rows in
    // the callback of its read of reference "field"; this read's callback runs after it, so the
    // reads below queue behind those puts.
    tx.objectStore('reference').get('field').onsuccess = () => {
      const rows = {};
      let pending = kinds.length;
      for (const kind of kinds) {
        const request = tx.objectStore(kind).getAll();
        request.onsuccess = () => {
          rows[kind] = request.result;
          pending -= 1;
          if (pending) return;
          for (const [key, value] of chunkRecords(rows)) chunks.put(value, key);
          for (const name of kinds) db.deleteObjectStore(name);
        };
      }
    };
  },
];

// v3's registry stores by kind → their indexes, as step v3 created them (v5 moved their rows into
// `field_chunks` and dropped them; kept here for phones upgrading from v2 or earlier).
const V3_FIELD_STORES = {
  permits: ['number', 'holder_operator_id', 'vehicle_id'],
  operators: [],
  vehicles: ['plate'],
  pontos: [],
  penalties: ['operator_id', 'permit_id'],
};

// --- the registry extract's layout in `field_chunks` (v5) ---------------------------------------
// Rows of a kind by id: key [kind, id >> CHUNK_SHIFT] → the rows of those 512 ids, sorted by id
// and packed (packRows, below) (a municipality's ids are mostly consecutive: ~100 records for
// 50,000 rows). A verdict's
// look-up by permit number: key ['number', numberBucket(number)] → {NUMBER: permitRefs} (a bare
// permit id in what an earlier version wrote: numberEntryId reads both). The refs name the four
// chunks a verdict reads, so a phone that holds the buckets in memory reads them in one round
// trip (field-store.js readPermitView). A delta reads and rewrites the few chunks its rows fall in. Kept here, beside the schema, so that the
// start-up graph (db-early.js → db.js) gains no module.
export const FIELD_KINDS = ['permits', 'operators', 'vehicles', 'pontos', 'penalties'];
export const CHUNK_SHIFT = 9;
export const NUMBER_BUCKETS = 256;

export const chunkKey = (kind, id) => [kind, Math.floor(Number(id) / 2 ** CHUNK_SHIFT)];

/** A permit number as the look-ups compare it (the in-memory index too: field-merge.js). */
export const numberKey = (number) => String(number).trim().toUpperCase();

/** The operator a permit's crachá names: the holder, or (company permits) its first driver. */
export const permitOperatorId = (p) => p.holder_operator_id ?? (p.driver_ids || [])[0] ?? p.operator_id;

/** A permit's entry in its number's look-up: [permit id, operator id, vehicle id, ponto id]
 *  (null where it has none): the ids of the rows its verdict shows. */
export const permitRefs = (p) => [p.id, permitOperatorId(p) ?? null, p.vehicle_id ?? null, p.ponto_id ?? null];

/** The permit id of a look-up entry: permitRefs, or a bare id (written before the refs). */
export const numberEntryId = (entry) => (Array.isArray(entry) ? entry[0] : entry);

/** The bucket of a permit number's look-up record (FNV-1a over its UTF-16 units). */
export function numberBucket(number) {
  const text = numberKey(number);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % NUMBER_BUCKETS;
}

/** Whole rows {kind: [row]} → [[key, value]] records of `field_chunks`. A row without a valid id
 *  is refused (DataError, as a keyPath store refused it): nothing of the answer is written. */
export function chunkRecords(rows) {
  const records = new Map();
  const add = (key, make) => {
    const id = key.join('|');
    if (!records.has(id)) records.set(id, [key, make()]);
    return records.get(id)[1];
  };
  for (const kind of FIELD_KINDS) {
    for (const row of rows[kind] || []) {
      if (!validId(row?.id)) throw new DOMException(`${kind}: linha sem id`, 'DataError');
      add(chunkKey(kind, row.id), () => []).push(row);
    }
  }
  for (const record of records.values()) record[1] = packRows(record[1].sort((a, b) => a.id - b.id));
  for (const p of rows.permits || []) {
    if (p.number === null || p.number === undefined) continue;
    const numbers = add(['number', numberBucket(p.number)], () => ({}));
    const key = numberKey(p.number);
    if (!(key in numbers)) numbers[key] = permitRefs(p); // the first, as the in-memory index keeps it
  }
  return [...records.values()];
}

// A chunk's value: {cols, rows}, each row an array of its values in the order of `cols` (a key the
// row lacks: nothing there). Read back, 512 rows as arrays cost ~60 % of the same rows as objects,
// whose every record repeats the keys (4× CPU: ~2.4 against ~3.9 ms a chunk; a verdict reads
// three): the structured clone is most of an IndexedDB read's time on the page's thread. An
// earlier version's chunk is the array of row objects itself; chunkRows and chunkRow read both.
// (A key whose value is undefined is not kept: JSON, which the rows come from, has none.)

/** Rows (sorted by id) → a chunk's value. */
export function packRows(rows) {
  const cols = [];
  const at = new Map();
  const packed = new Array(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i];
    const values = [];
    for (const key of Object.keys(row)) {
      let j = at.get(key);
      if (j === undefined) { j = cols.length; cols.push(key); at.set(key, j); }
      values[j] = row[key];
    }
    packed[i] = values;
  }
  return { cols, rows: packed };
}

function unpackRow(cols, values) {
  const row = {};
  for (let j = 0; j < values.length; j += 1) if (values[j] !== undefined) row[cols[j]] = values[j];
  return row;
}

/** A chunk's rows as objects, in id order ([] for none). */
export function chunkRows(value) {
  if (!value) return [];
  if (Array.isArray(value)) return value; // an earlier version's chunk
  const out = new Array(value.rows.length);
  for (let i = 0; i < out.length; i += 1) out[i] = unpackRow(value.cols, value.rows[i]);
  return out;
}

/** One row of a chunk by id, or undefined: only that row is made an object. */
export function chunkRow(value, id) {
  if (!value) return undefined;
  if (Array.isArray(value)) return value.find((row) => row.id === id);
  const j = value.cols.indexOf('id');
  const values = value.rows.find((v) => v[j] === id);
  return values && unpackRow(value.cols, values);
}

export const validId = (id) => Number.isSafeInteger(id) && id >= 0;

export const DB_VERSION = MIGRATIONS.length;
export const STORES = ['meta', 'credential', 'reference', 'drafts', 'outbox', 'photos', 'operator_outbox', 'operator_files',
  'field_chunks'];

let opening = null;

export function openDb() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, DB_VERSION);
      request.onupgradeneeded = (event) => {
        const db = request.result;
        const tx = request.transaction; // lets a step add an index to an existing store
        for (let version = event.oldVersion; version < DB_VERSION; version += 1) {
          MIGRATIONS[version](db, tx);
        }
      };
      request.onsuccess = () => {
        const db = request.result;
        // Another tab runs a newer app: let it upgrade; this tab reopens on next access.
        db.onversionchange = () => { db.close(); opening = null; };
        resolve(db);
      };
      request.onerror = () => { opening = null; reject(request.error); };
      request.onblocked = () => console.warn('IndexedDB upgrade blocked by another open tab');
    });
  }
  return opening;
}

async function run(storeName, mode, action) {
  const db = await openDb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(storeName, mode);
    const request = action(tx.objectStore(storeName));
    let result;
    request.onsuccess = () => { result = request.result; };
    // Resolve on commit, not on request success: the data is durable only then.
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('transaction aborted'));
  });
}

export const get = (store, key) => run(store, 'readonly', (s) => s.get(key));
export const getAll = (store) => run(store, 'readonly', (s) => s.getAll());
// key is needed only for stores without a keyPath (meta, credential, reference).
export const put = (store, value, key) => run(store, 'readwrite', (s) => (key === undefined ? s.put(value) : s.put(value, key)));
export const del = (store, key) => run(store, 'readwrite', (s) => s.delete(key));
export const clear = (store) => run(store, 'readwrite', (s) => s.clear());
export const count = (store) => run(store, 'readonly', (s) => s.count());
/** The keys of `store` that begin with `prefix` (text keys), in one request. */
export const keysStartingWith = (store, prefix) => run(store, 'readonly', (s) => s.getAllKeys(IDBKeyRange.bound(prefix, `${prefix}\uffff`)));

/**
 * One readwrite transaction over several stores: `fn(stores)` issues its requests synchronously
 * (no await inside, or IndexedDB commits early). Resolves once everything is durable, or rejects
 * with nothing written — used where a record and its chain state must change together.
 */
export async function transact(storeNames, fn) {
  const db = await openDb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(storeNames, 'readwrite');
    const stores = Object.fromEntries(storeNames.map((n) => [n, tx.objectStore(n)]));
    let result;
    try {
      result = fn(stores);
    } catch (error) {
      tx.abort();
      reject(error);
      return;
    }
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('transaction aborted'));
  });
}

/**
 * One readonly transaction over several stores, so that what is read belongs together (a
 * download cannot land between two reads): `fn(stores)` returns {name: request}; resolves with
 * {name: result} once the transaction completes.
 */
export async function readTogether(storeNames, fn) {
  const db = await openDb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(storeNames, 'readonly');
    const requests = fn(Object.fromEntries(storeNames.map((n) => [n, tx.objectStore(n)])));
    tx.oncomplete = () => resolve(Object.fromEntries(Object.entries(requests).map(([k, r]) => [k, r.result])));
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('transaction aborted'));
  });
}
