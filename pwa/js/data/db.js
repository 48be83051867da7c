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
];

export const DB_VERSION = MIGRATIONS.length;
export const STORES = ['meta', 'credential', 'reference', 'drafts', 'outbox', 'photos'];

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
