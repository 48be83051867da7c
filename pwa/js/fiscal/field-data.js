// Field data kept on the phone for the roadside, and its download: crachá keys and status list,
// composed rules, the registry extract (permits, operators, vehicles, pontos, penalties) and a
// block of auto numbers. First download is a snapshot; later ones ask only for what changed
// (cursor + ETag → 304). reference/<name> = {data, etag, fetched_at}.
import { send } from '../data/api.js';
import { get, keysStartingWith, put, transact } from '../data/db.js';
import { mergeTrust, touchTrust } from '../credentials/trust.js';
import { indexField, keepAnswer, keepFieldInSlices, mergeMeta } from './field-merge.js';
import { readField, readKind, readNumberLookup, readPermitView, storeAnswer, touchField } from './field-store.js';
import { isUnauthorized, registerKey, session } from './session.js';

const LOW_NUMBERS = 5;
export const NUMBERS_WARN_AT = 5;

async function conditional(path, token, saved) {
  const headers = saved?.etag ? { 'If-None-Match': saved.etag } : {};
  const response = await send(path, { token, headers });
  return { response, notModified: response.status === 304, etag: response.headers.get('ETag') };
}

/**
 * Bring everything up to date. onProgress(done, total, label). Returns {steps: {name: "ok" |
 * "unchanged" | "indisponível: …"}}. Throws the ApiError when the token is refused (401 or
 * 403 device_revoked): the caller hands it to session.handleUnauthorized().
 */
export async function download({ onProgress = () => {} } = {}) {
  const s = await session();
  const slug = s.user.municipality;
  const steps = {};
  const plan = [
    ['key', 'Chave do aparelho', () => registerKey()],
    ['trust', 'Crachás e chaves', () => syncTrust(s, slug)],
    ['rules', 'Regras da lei', () => syncRules(s, slug)],
    ['field', 'Cadastro (alvarás, condutores, veículos)', () => syncField(s)],
    ['numbers', 'Números de auto', () => topUpNumbers(s)],
  ];
  for (const [index, [name, label, run]] of plan.entries()) {
    onProgress(index, plan.length, label);
    try {
      const result = await run();
      steps[name] = typeof result === 'string' ? result : 'ok';
    } catch (error) {
      if (isUnauthorized(error)) throw error;
      steps[name] = `indisponível: ${error.message}`;
    }
  }
  onProgress(plan.length, plan.length, 'Pronto');
  await put('meta', { at: new Date().toISOString(), steps }, 'fiscal-sync');
  forgetField();
  return { steps };
}

async function syncTrust(s, slug) {
  const saved = await get('reference', 'trust');
  const cursor = saved?.data?.next_cursor ?? 0;
  const { response, notModified, etag } = await conditional(`/trust/${slug}?cursor=${cursor}&format=grouped`, s.token, saved);
  const data = notModified
    ? touchTrust(saved.data, Date.parse(response.headers.get('Date')))
    : mergeTrust(saved?.data, await response.json());
  await put('reference', { data, etag: etag || saved?.etag, fetched_at: new Date().toISOString() }, 'trust');
  forgetField();
  return notModified ? 'unchanged' : 'ok';
}

async function syncRules(s, slug) {
  const saved = await get('reference', 'rules');
  const { response, notModified, etag } = await conditional(`/rules/${slug}`, s.token, saved);
  if (notModified) return 'unchanged';
  await put('reference', { data: await response.json(), etag, fetched_at: new Date().toISOString() }, 'rules');
  forgetField();
  return 'ok';
}

async function syncField(s) {
  const saved = await get('reference', 'field'); // the meta only: the rows are in their stores
  const cursor = saved?.data?.cursor ?? 0;
  const { response, notModified, etag } = await conditional(`/field/data?cursor=${cursor}&format=packed2`, s.token, saved);
  if (notModified) {
    await touchField(new Date().toISOString());
    forgetField();
    return 'unchanged';
  }
  // format=packed2 carries no rules: syncRules, the step before, fetched them.
  const answer = await response.json();
  const started = performance.now();
  const timings = {};
  const rows = await storeAnswer(answer, { etag, fetchedAt: new Date().toISOString(), timings });
  const stored = performance.now();
  keepRows(saved, answer, rows, etag);
  // bench/fieldapp_perf.py: the first download's write, and the sync step after a delta.
  performance.measure('field-sync', { start: started, end: performance.now(), detail: { snapshot: Boolean(answer.snapshot), store: stored - started, decode: timings.decoded - started } });
  forgetField();
  // Background: the verdict shows them when present. A changed operator row may mean a new
  // photo under the same URL: fetch those again.
  const changed = new Set(answer.snapshot ? [] : rows.operators.map((o) => o.id));
  fetchThumbnails(s, changed).catch(() => {});
  return 'ok';
}

// Thumbnails travel 200 to a request (GET /field/photos?ids=…, a binary pack: id and length as
// u32 big-endian, then the JPEG), in the background once the registry is stored: a new phone of
// a 10,000-operator city makes 50 requests instead of 10,000 (issue 40). Kept for the roadside,
// where there is no signal to fetch one when the verdict shows it.
export const PHOTO_PACK = 200;

async function fetchThumbnails(s, changed) {
  // Which thumbnails the phone holds, in one request: one read per operator took longer than
  // the packs themselves at 50,000 (bench/sync_day.py: they then went out during the next day's
  // sync instead of right after the enrolment).
  const kept = new Set(await keysStartingWith('reference', 'photo:'));
  const wanted = [];
  for (const operator of await readKind('operators')) {
    if (!operator.photo || (!changed.has(operator.id) && kept.has(`photo:${operator.id}`))) continue;
    wanted.push(operator);
  }
  for (let i = 0; i < wanted.length; i += PHOTO_PACK) {
    const ids = wanted.slice(i, i + PHOTO_PACK).map((o) => o.id);
    const response = await send(`/field/photos?ids=${ids.join(',')}`, { token: s.token, accept: '*/*' });
    const photos = unpackPhotos(new Uint8Array(await response.arrayBuffer()));
    await transact(['reference'], (stores) => {
      for (const [id, jpeg] of photos) stores.reference.put(new Blob([jpeg], { type: 'image/jpeg' }), `photo:${id}`);
    });
  }
}

/** The pack's [id, JPEG bytes] pairs. */
export function unpackPhotos(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  for (let at = 0; at + 8 <= bytes.length;) {
    const id = view.getUint32(at);
    const length = view.getUint32(at + 4);
    out.push([id, bytes.subarray(at + 8, at + 8 + length)]);
    at += 8 + length;
  }
  return out;
}

export const operatorPhoto = (id) => get('reference', `photo:${id}`);

// --- auto numbers -------------------------------------------------------------------------

export async function numbers() {
  return (await get('reference', 'numbers')) || { available: [], used: [] };
}

async function topUpNumbers(s) {
  const saved = await numbers();
  if (saved.available.length >= LOW_NUMBERS) return 'unchanged';
  const response = await send('/autos/numbers', { method: 'POST', token: s.token, body: { count: 20 } });
  const block = await response.json();
  await put('reference', { ...saved, available: [...saved.available, ...block.numbers] }, 'numbers');
  return 'ok';
}

/** Take the next number from the device's block (it is then used, even if the auto is dropped). */
export async function takeNumber() {
  const saved = await numbers();
  if (!saved.available.length) throw new Error('Nenhum número de auto disponível neste aparelho. Conecte-se e atualize os dados.');
  const [number, ...rest] = saved.available;
  await put('reference', { ...saved, available: rest, used: [...saved.used, number] }, 'numbers');
  return number;
}

/** A number taken but not used (the auto could not be sealed): reported as voided, like a
 *  spoiled sheet of a paper talonário, at the next contact. */
export async function voidLater(number, reason) {
  const saved = await numbers();
  await put('reference', { ...saved, to_void: [...(saved.to_void || []), { number, reason }] }, 'numbers');
}

export async function flushVoids(token) {
  const saved = await numbers();
  for (const item of saved.to_void || []) {
    await send('/autos/numbers/void', { method: 'POST', token, body: item });
    const now = await numbers();
    await put('reference', { ...now, to_void: (now.to_void || []).filter((v) => v.number !== item.number) }, 'numbers');
  }
}

// --- what the screens read -------------------------------------------------------------------

let cache = { key: null, value: null, settled: null };
let head = { key: null, value: null }; // trust and rules, shared by loadField and loadFieldHead
let generation = 0; // bumped by every write of trust/rules/field in this tab

// The rows as this tab last read or wrote them ({cursor, etag, field, index}): reading 30,000
// rows back from their stores costs ~10× what the single record of earlier versions did
// (docs/benchmarks/field-delta.md), so a download in this tab updates them in memory too, and
// they are read again only when the stored cursor or ETag is not theirs (another tab's download).
let rowsKept = null;

let building = null; // the snapshot whose copy is being built in slices

function keepRows(saved, answer, rows, etag) {
  building = null;
  if (answer.snapshot) {
    // A snapshot's copy is built in slices, not in one task (11.7 s of this thread at 100,000
    // permits and 4× CPU, bench/fieldapp_perf.py); a read asked meanwhile reads the stores.
    rowsKept = null;
    const token = {};
    building = token;
    const field = { ...mergeMeta(null, answer), ...rows };
    keepFieldInSlices(field, paced).then((kept) => {
      if (building === token && rowsKept === null) rowsKept = { cursor: answer.cursor, etag, ...kept };
    }).catch(() => {});
    return;
  }
  const base = rowsKept && rowsKept.cursor === saved?.data?.cursor && rowsKept.etag === saved?.etag ? rowsKept : null;
  // A delta patches the kept rows and indexes (field-merge.js keepAnswer).
  rowsKept = base ? { cursor: answer.cursor, etag, ...keepAnswer(base, answer, rows) } : null;
}

async function rowsOf() {
  const meta = await get('reference', 'field');
  if (!meta) { rowsKept = null; return { field: null, fetched_at: null, index: indexField(null) }; }
  if (!rowsKept || rowsKept.cursor !== meta.data?.cursor || rowsKept.etag !== meta.etag) {
    // Read and indexed in short tasks that wait while a verdict is in progress (holdRows), and
    // given up when this tab writes field data meanwhile (its copy would be out of date).
    // A cancelled read starts again, so its callers get what this tab wrote.
    const started = generation;
    const cancelled = () => generation !== started;
    let read;
    let kept;
    try {
      read = await readField({ paused: paced, cancelled });
      kept = read && await keepFieldInSlices(read.data, paced);
    } catch (error) {
      if (error.name === 'AbortError') return rowsOf();
      throw error;
    }
    if (cancelled()) return rowsOf();
    rowsKept = read && { cursor: read.data.cursor, etag: read.etag, ...kept };
  }
  // The meta as stored (tariff, calendar, the time of the last check), the rows as kept.
  const field = rowsKept ? { ...rowsKept.field, ...meta.data } : meta.data;
  return { field, fetched_at: meta.fetched_at, index: rowsKept?.index || indexField(null) };
}

// --- the rows' read yields to a verdict ---------------------------------------------------------
// The home reads the rows when idle, in short tasks; each waits for the next free moment of
// this thread at background priority, and while a hold is taken (the scanner, from the tap on
// "Ler crachá" to the verdict's first frame) for the hold's release: a verdict never runs
// behind the read (issue 40: 640–705 ms from tap to verdict at 50,000 permits before).
let holds = 0;
let released = Promise.resolve();
let release = () => {};

/** Hold the rows' read until the returned function is called (idempotent). */
export function holdRows() {
  if (holds === 0) released = new Promise((resolve) => { release = resolve; });
  holds += 1;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    holds -= 1;
    if (holds === 0) release();
  };
}

const nextTask = () => (globalThis.scheduler?.postTask
  ? globalThis.scheduler.postTask(() => {}, { priority: 'background' })
  : new Promise((resolve) => setTimeout(resolve, 0)));

async function paced() {
  await nextTask();
  while (holds) { await released; await nextTask(); }
}

/** Drop the in-memory copy: the next loadField() reads IndexedDB again. */
export function forgetField() { generation += 1; }

/** This tab's write generation: a copy read under another one is out of date. */
export function fieldGeneration() { return generation; }

/**
 * {trust, rules, field, index, syncedAt} as saved; index answers permit/plate/name look-ups.
 * Kept in memory: reading the registry rows out of IndexedDB (structured clone of every row:
 * ~10× one record's read, docs/benchmarks/field-delta.md) and re-indexing them cost more than
 * the whole verdict budget on a slow phone. The key is
 * this tab's write generation + the time of the last download (meta "fiscal-sync", written at
 * the end of every download, in any tab), so a download anywhere still shows at once.
 */
export async function loadField() {
  const last = await get('meta', 'fiscal-sync');
  const key = `${generation}|${last?.at}`;
  // The promise is kept, not only its value: screens asking at once (the home's age, the
  // scanner's preparation) share one read of the rows instead of each reading them all.
  if (cache.key !== key) {
    const reading = Promise.all([headOf(key), rowsOf()])
      .then(([{ trust, rules }, field]) => ({ trust, rules, field: field.field || null, fieldCheckedAt: field.fetched_at || null, index: field.index, syncedAt: last?.at || null }));
    cache = { key, value: reading, settled: null };
    reading.then((value) => { if (cache.value === reading) cache.settled = value; },
      () => { if (cache.value === reading) cache = { key: null, value: null, settled: null }; });
  }
  return cache.value;
}

// The trust and rules records under one key, read once: the same objects for both loaders, so
// what was prepared from them (the verifier's keys) is not prepared again.
function headOf(key) {
  if (head.key !== key) {
    const reading = Promise.all([get('reference', 'trust'), get('reference', 'rules'), get('reference', 'field')])
      .then(([trust, rules, meta]) => ({ trust: trust?.data || null, rules: rules?.data || null, fieldMeta: meta?.data || null, fieldCheckedAt: meta?.fetched_at || null }));
    head = { key, value: reading };
    reading.catch(() => { if (head.value === reading) head = { key: null, value: null }; });
  }
  return head.value;
}

/**
 * loadField without waiting for the registry's rows — {trust, rules, field (its meta: tariff,
 * calendar…, without rows), fieldCheckedAt, syncedAt, index: {byNumber}} — for the home (data
 * age, first-run check) and a crachá's verdict and its tariff and vistoria slots: right
 * after a start the rows take ~1 s at 4× CPU to read with 10,000 permits
 * (docs/benchmarks/field-delta.md), and neither must wait for them. Once loadField's copy is
 * read and current, that copy; before, byNumber reads the one permit through IndexedDB
 * (`readPermitView`, a promise: callers await it either way).
 */
export async function loadFieldHead() {
  const last = await get('meta', 'fiscal-sync');
  const key = `${generation}|${last?.at}`;
  if (cache.key === key && cache.settled) return cache.settled;
  const { trust, rules, fieldMeta, fieldCheckedAt } = await headOf(key);
  const numbers = lookupOf(key);
  return { trust, rules, field: fieldMeta, fieldCheckedAt, syncedAt: last?.at || null,
    index: { byNumber: (number) => readPermitView(number, numbers.buckets) } };
}

// The permit-number look-up under one key, read when idle (short tasks that yield to a verdict,
// as the rows' read): with it, a verdict asked before the rows are in memory reads its permit in
// one round trip instead of three (readPermitView): 256 records, one entry of four ids per permit.
let lookup = { key: null, buckets: null };

function lookupOf(key) {
  if (lookup.key !== key) {
    const mine = { key, buckets: null };
    lookup = mine;
    readNumberLookup({ paused: paced }).then((buckets) => { mine.buckets = buckets; }, () => {});
  }
  return lookup;
}

/** Seconds since the field data was generated on the server (the age every verdict shows). */
export function dataAgeSeconds(data, now = Date.now()) {
  // Trust: the server's clock when it answered; registry: when the phone last heard "no change".
  const times = [data?.trust?.generated_at, data?.fieldCheckedAt].filter(Boolean).map(Date.parse);
  if (!times.length) return null;
  return Math.max(0, Math.floor((now - Math.min(...times)) / 1000));
}

export function formatAge(seconds) {
  if (seconds === null || seconds === undefined) return 'sem dados baixados';
  if (seconds < 90) return 'há menos de 2 min';
  if (seconds < 5400) return `há ${Math.round(seconds / 60)} min`;
  if (seconds < 172800) return `há ${Math.round(seconds / 3600)} h`;
  return `há ${Math.round(seconds / 86400)} dias`;
}
