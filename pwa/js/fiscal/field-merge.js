// Merging field-data answers (GET /api/v1/field/data) into what the phone keeps. Pure (Node tests).
// A snapshot replaces everything; a delta upserts rows by id and drops the ids in `removed`.
import { permitOperatorId } from '../data/db.js';
import { Calendar } from '../rules/legal_calendar.js';

export const KINDS = ['permits', 'operators', 'vehicles', 'pontos', 'penalties'];

const DAY_MS = 86400000;

// format=packed2's one-character codes and base-62 digits (field_codec.py ALPHABET).
// Digits by char code: the columns are read code by code, without a substring and an object
// look-up per character (~150,000 dates in a 50,000-permit snapshot; issue 40).
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DIGIT_CODE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i += 1) DIGIT_CODE[ALPHABET.charCodeAt(i)] = i;
const DASH = '-'.charCodeAt(0);

// Day number → ISO date, remembered: a city's snapshot has ~200,000 dates over a few thousand
// distinct days, and a Date + toISOString each cost ~2.5 µs at 1× CPU (~2 s of the first
// download's write at 50,000 permits and 4×, issue 40) against a Map look-up.
const ISO_DAYS = new Map();
function isoDay(n) {
  let iso = ISO_DAYS.get(n);
  if (iso === undefined) {
    iso = new Date(n * DAY_MS).toISOString().slice(0, 10);
    if (ISO_DAYS.size < 100000) ISO_DAYS.set(n, iso);
  }
  return iso;
}

/** Fixed-width numbers in base `radix` (10: format=packed's days, 62: packed2's) in `text` (`w`
 *  "-" for null) → ISO dates from 1970-01-01 + `base`. */
function fixedDays(text, width, base, radix) {
  const out = new Array(width ? text.length / width : 0);
  for (let i = 0, at = 0; i < out.length; i += 1, at += width) {
    if (text.charCodeAt(at) === DASH) { out[i] = null; continue; }
    let n = 0;
    for (let j = at; j < at + width; j += 1) n = n * radix + DIGIT_CODE[text.charCodeAt(j)];
    out[i] = isoDay(base + n);
  }
  return out;
}

/** Plates split in shapes ("LLLDLDD"), letters and digits (packed2) → the plates. */
function joinSplit(shapes, letters, digits) {
  let l = 0;
  let d = 0;
  return shapes.map((shape) => {
    if (shape === null) return null;
    let value = '';
    for (const kind of shape) value += kind === 'L' ? letters[l++] : digits[d++];
    return value;
  });
}

/** One encoded column of format=packed or packed2 (server/modules/fieldsync/field_codec.py) → its values. */
function decodeColumn(encoded) {
  if (Array.isArray(encoded)) return encoded;
  if (encoded.delta) {
    let last = 0;
    return encoded.delta.map((d) => (d === null ? null : (last += d)));
  }
  if (encoded.dict) {
    if (encoded.text !== undefined) {
      const { text, dict } = encoded;
      const out = new Array(text.length);
      for (let i = 0; i < text.length; i += 1) {
        const code = text.charCodeAt(i);
        out[i] = code === DASH ? null : dict[DIGIT_CODE[code]];
      }
      return out;
    }
    return encoded.codes.map((c) => (c === null ? null : encoded.dict[c]));
  }
  if (encoded.days !== undefined) return fixedDays(encoded.days, encoded.width, encoded.base, 10);
  if (encoded.b62 !== undefined) return fixedDays(encoded.b62, encoded.width, encoded.base, 62);
  if (encoded.shape) return joinSplit(decodeColumn(encoded.shape), encoded.letters, encoded.digits);
  if (encoded.words) return encoded.codes.map((c) => (c === null ? null : c.map((i) => encoded.words[i]).join(' ')));
  if (encoded.text !== undefined) {
    const out = new Array(encoded.width ? encoded.text.length / encoded.width : 0);
    for (let i = 0; i < out.length; i += 1) out[i] = encoded.text.slice(i * encoded.width, (i + 1) * encoded.width);
    return out;
  }
  if (encoded.serial) {
    const serials = decodeColumn(encoded.serial);
    const widths = decodeColumn(encoded.width);
    const suffixes = decodeColumn(encoded.suffix);
    return serials.map((n, i) => (n === null ? null : `${String(n).padStart(widths[i], '0')}${suffixes[i]}`));
  }
  throw new Error('coluna em formato desconhecido');
}

/** An entity table as rows: format=rows as is; format=columns ({column: [values]}, ids
 *  delta-encoded) and format=packed/packed2 ({column: encoded column}) decoded, nulls dropped. */
export function decodeColumns(table) {
  if (Array.isArray(table)) return table; // format=rows
  const columns = {};
  for (const [name, encoded] of Object.entries(table || {})) columns[name] = decodeColumn(encoded);
  if (Array.isArray(table?.id)) columns.id = decodeColumn({ delta: table.id }); // format=columns
  const ids = columns.id || [];
  const names = Object.keys(columns).filter((k) => k !== 'id');
  const values = names.map((name) => columns[name]); // not one keyed look-up per cell
  const out = new Array(ids.length);
  for (let i = 0; i < ids.length; i += 1) {
    const row = { id: ids[i] };
    for (let c = 0; c < names.length; c += 1) {
      const value = values[c][i];
      if (value !== null && value !== undefined) row[names[c]] = value;
    }
    out[i] = row;
  }
  return out;
}

/** What the phone keeps beside the rows (cursor, municipality, tariff, calendar…), after `answer`. */
export function mergeMeta(stored, answer) {
  const base = answer.snapshot || !stored ? {} : stored;
  return {
    cursor: answer.cursor,
    generated_at: answer.generated_at,
    municipality: answer.municipality || base.municipality || null,
    photo_url: answer.photo_url || base.photo_url || null,
    // Sent whole in every answer (null = none recorded); an older server's answer lacks the key.
    tariff: 'tariff' in answer ? answer.tariff : (base.tariff ?? null),
    // The legal calendar (holidays and the municipality's closures), also sent whole.
    calendar: answer.calendar || base.calendar || null,
    // The municipality's evidence photo size (photos.js photoSize), sent whole in every answer.
    photo_size: answer.photo_size || base.photo_size || null,
    // The act integrating the municipality into the SNT (null: none), sent whole in every answer:
    // without it a CTB infraction is communicated to the traffic authority, never put in the auto.
    traffic_authority_act: 'traffic_authority_act' in answer ? answer.traffic_authority_act : (base.traffic_authority_act ?? null),
  };
}

/** The whole field data (meta and rows) after `answer`, in memory (field-store.js keeps it in
 *  IndexedDB row by row). */
export function mergeField(stored, answer) {
  const base = answer.snapshot || !stored ? {} : stored;
  const out = mergeMeta(stored, answer);
  for (const kind of KINDS) {
    // A delta touches a handful of rows: one pass over the kept rows, swapping the changed ones,
    // instead of re-keying 10,000 rows into a Map (bench/fieldapp_perf.py: ≤ 10 ms on a slow phone).
    const changed = new Map(decodeColumns(answer[kind] || []).map((row) => [row.id, row]));
    const removed = new Set((answer.removed || {})[kind] || []);
    const rows = [];
    for (const row of base[kind] || []) {
      if (removed.has(row.id)) continue;
      const next = changed.get(row.id);
      if (next) changed.delete(row.id);
      rows.push(next || row);
    }
    for (const row of changed.values()) if (!removed.has(row.id)) rows.push(row);
    out[kind] = rows;
  }
  return out;
}

/** The legal calendar of the kept field data (rules/legal_calendar.js Calendar), or null. */
export function fieldCalendar(field) {
  const c = field?.calendar;
  return c ? new Calendar(c.holidays, c.state, c.closures || [], c.good_friday) : null;
}

/** Normalise a typed plate: "abc-1234" → "ABC1234"; Mercosul "ABC1D23" unchanged. */
export function normalisePlate(text) {
  return String(text || '').toUpperCase().replace(/[^A-Z0-9]/g, '');
}

export const isPlate = (text) => /^[A-Z]{3}\d[A-Z0-9]\d{2}$/.test(normalisePlate(text));


/** A permit with its rows, as the verdict, the search and the checklist read it. */
export function permitView(p, { operator = null, vehicle = null, ponto = null }) {
  return { permit: p, operator, vehicle, ponto, plate: normalisePlate(p.plate || vehicle?.plate) };
}

// --- the kept copy and its indexes ------------------------------------------------------------
// The rows a tab keeps in memory ({field, positions, index}) are built once from a snapshot or a
// read of the stores (keepField), then PATCHED by each delta (keepAnswer): the arrays are copied
// (a memcpy) and the changed rows swapped in by position, and the indexes re-do only the permits
// a changed row touches. Rebuilding them all after a one-row delta cost 158 ms at 50,000 permits
// and 4× CPU (issue 40).

/** The kept copy of a whole field data (meta and rows, as mergeField or readField give it). */
export function keepField(field) {
  const positions = {};
  for (const kind of KINDS) positions[kind] = new Map((field?.[kind] || []).map((row, i) => [row.id, i]));
  return { field, positions, index: indexField(field) };
}

/** The kept copy after one answer (its rows already decoded, as storeAnswer returns them): a
 *  snapshot builds it anew; a delta patches `kept` (whose index and positions it takes over). */
export function keepAnswer(kept, answer, rows) {
  if (answer.snapshot || !kept) return keepField(mergeField(null, { ...answer, ...rows }));
  const field = mergeMeta(kept.field, answer);
  const { positions } = kept;
  const removed = answer.removed || {};
  for (const kind of KINDS) {
    let out = (kept.field[kind] || []).slice();
    const at = positions[kind];
    for (const row of rows[kind] || []) {
      const i = at.get(row.id);
      if (i === undefined) { at.set(row.id, out.length); out.push(row); } else out[i] = row;
    }
    if ((removed[kind] || []).length) {
      const gone = new Set(removed[kind]);
      out = out.filter((row) => !gone.has(row.id));
      at.clear();
      out.forEach((row, i) => at.set(row.id, i));
    }
    field[kind] = out;
  }
  patchIndex(kept.index, rows, removed);
  return { field, positions, index: kept.index };
}

const upper = (number) => String(number).trim().toUpperCase();

function addToSet(map, key, value) {
  if (key === null || key === undefined) return;
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function viewOf(state, p) {
  return permitView(p, {
    operator: state.operators.get(permitOperatorId(p)) || null,
    vehicle: state.vehicles.get(p.vehicle_id) || null,
    ponto: state.pontos.get(p.ponto_id) || null,
  });
}

// A permit's view in every index (its place in `views` kept when it is replaced, so results
// keep the order of the rows).
function putView(state, p) {
  const view = viewOf(state, p);
  state.views.set(p.id, view);
  const number = upper(p.number);
  if (!state.byNumber.has(number)) state.byNumber.set(number, view);
  if (view.plate) addToSet(state.byPlate, view.plate, p.id);
  addToSet(state.byOperator, permitOperatorId(p), p.id);
  addToSet(state.byVehicle, p.vehicle_id, p.id);
}

function dropView(state, id) {
  const view = state.views.get(id);
  if (!view) return;
  const p = view.permit;
  const number = upper(p.number);
  if (state.byNumber.get(number) === view) {
    state.byNumber.delete(number);
    // Another permit with the same number (never in one municipality, but as find() would).
    for (const other of state.views.values()) {
      if (other !== view && upper(other.permit.number) === number) { state.byNumber.set(number, other); break; }
    }
  }
  state.byPlate.get(view.plate)?.delete(id);
  state.byOperator.get(permitOperatorId(p))?.delete(id);
  state.byVehicle.get(p.vehicle_id)?.delete(id);
}

function emptyState() {
  return {
    operators: new Map(), vehicles: new Map(), pontos: new Map(),
    views: new Map(),      // permit id → view, in the rows' order
    byNumber: new Map(),   // permit number in upper case → view
    byPlate: new Map(),    // plate → Set(permit id)
    byOperator: new Map(), // operator id → Set(permit id): the views a changed operator touches
    byVehicle: new Map(),  // vehicle id → Set(permit id)
  };
}

function lookUps(state) {
  const views = (ids) => [...(ids || [])].map((id) => state.views.get(id)).filter(Boolean);
  return {
    state,
    byNumber: (n) => state.byNumber.get(upper(n)) || null,
    byPlate: (plate) => views(state.byPlate.get(normalisePlate(plate))),
    byName: (text) => {
      const q = fold(text);
      if (q.length < 3) return [];
      const out = [];
      for (const v of state.views.values()) {
        if (v.operator && fold(v.operator.name).includes(q)) out.push(v);
        if (out.length === 20) break;
      }
      return out;
    },
    get size() { return state.views.size; },
  };
}

/** Indexes for the roadside look-ups: permit number, plate, operator name. */
export function indexField(field) {
  const state = emptyState();
  for (const kind of ['operators', 'vehicles', 'pontos']) for (const row of field?.[kind] || []) state[kind].set(row.id, row);
  for (const p of field?.permits || []) putView(state, p);
  return lookUps(state);
}

// Rows handled between two checks of the clock in the sliced builders.
const STRIDE = 64;

/** `each(item)` over `items`, awaiting `pause()` whenever `budget` ms of this thread have gone
 *  since the last pause: a long loop as short tasks, a tap or a frame running between them. */
async function sliced(items, each, pause, budget) {
  let since = performance.now();
  for (let i = 0; i < items.length; i += 1) {
    each(items[i], i);
    if (i % STRIDE === STRIDE - 1 && performance.now() - since > budget) {
      await pause();
      since = performance.now();
    }
  }
}

/**
 * keepField built in slices of ~`budget` ms, awaiting `pause()` between them (the field data's
 * gate: it yields to the event loop and waits while a verdict is in progress). At 50,000 permits
 * and 4× CPU the whole build is ~0.5 s of this thread: one task, it kept a tap's verdict waiting
 * (issue 40); as slices it does not.
 */
export async function keepFieldInSlices(field, pause, budget = 8) {
  const positions = {};
  for (const kind of KINDS) {
    const at = new Map();
    await sliced(field?.[kind] || [], (row, i) => at.set(row.id, i), pause, budget);
    positions[kind] = at;
  }
  const state = emptyState();
  for (const kind of ['operators', 'vehicles', 'pontos']) await sliced(field?.[kind] || [], (row) => state[kind].set(row.id, row), pause, budget);
  await sliced(field?.permits || [], (p) => putView(state, p), pause, budget);
  return { field, positions, index: lookUps(state) };
}

/** Patch an index (indexField) with a delta's decoded rows and removed ids, in place. */
export function patchIndex(index, rows, removed = {}) {
  const { state } = index;
  const touched = new Set();
  const users = { operators: state.byOperator, vehicles: state.byVehicle };
  for (const kind of ['operators', 'vehicles', 'pontos']) {
    const ids = [...(rows[kind] || []).map((row) => { state[kind].set(row.id, row); return row.id; }),
      ...(removed[kind] || []).map((id) => { state[kind].delete(id); return id; })];
    for (const id of ids) {
      if (kind === 'pontos') { // a renamed ponto: rare, its permits found by a pass
        for (const view of state.views.values()) if (view.permit.ponto_id === id) touched.add(view.permit.id);
      } else for (const pid of users[kind].get(id) || []) touched.add(pid);
    }
  }
  for (const p of rows.permits || []) {
    dropView(state, p.id);
    putView(state, p);
    touched.delete(p.id);
  }
  for (const id of removed.permits || []) {
    dropView(state, id);
    state.views.delete(id);
    touched.delete(id);
  }
  for (const id of touched) {
    const view = state.views.get(id);
    if (!view) continue;
    dropView(state, id);
    putView(state, view.permit);
  }
}

function fold(text) {
  return String(text || '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
}
