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
    for (const [kind, indexes] of Object.entries(FIELD_STORES)) {
      const store = db.createObjectStore(kind, { keyPath: 'id' });
      for (const index of indexes) store.createIndex(index, index);
    }
    const reference = tx.objectStore('reference');
    const request = reference.get('field');
    request.onsuccess = () => {
      const saved = request.result;
      if (!saved?.data) return;
      const { data } = saved;
      for (const kind of Object.keys(FIELD_STORES)) {
        const target = tx.objectStore(kind);
        for (const row of data[kind] || []) target.put(row);
      }
      const meta = Object.fromEntries(Object.entries(data).filter(([key]) => !(key in FIELD_STORES)));
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
];

// Registry rows by kind → the indexes the roadside look-ups use (permit number, plate, the
// permits of an operator or a vehicle, a subject's penalties). As step v3 creates them: a new
// store or index is a new step.
export const FIELD_STORES = {
  permits: ['number', 'holder_operator_id', 'vehicle_id'],
  operators: [],
  vehicles: ['plate'],
  pontos: [],
  penalties: ['operator_id', 'permit_id'],
};

export const DB_VERSION = MIGRATIONS.length;
export const STORES = ['meta', 'credential', 'reference', 'drafts', 'outbox', 'photos', ...Object.keys(FIELD_STORES),
  'operator_outbox', 'operator_files'];

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
