// Merge one GET /api/v1/trust/<municipality>?cursor=N&format=grouped answer into the trust data a
// device keeps. Pure: the data layer stores the result (IndexedDB) and passes it to verify.js
// prepareTrust().
//
//   stored = mergeTrust(stored, await response.json());          // 200
//   stored = touchTrust(stored, Date.parse(response.headers.get('Date')));  // 304: still current
//   next request: ?cursor=${stored.next_cursor}&format=grouped, If-None-Match: the last ETag
//
// One answer holds every change after the cursor (the server never pages it), so one update
// makes the data whole. Only the current status of each permit, crachá and key is kept, grouped
// by status as `statuses` ({permit: {ativo: ['001/2026', …]}, credential: {active: [17, …]},
// key: {…}}: serials and kids as numbers): that is all the verifier reads, storage stays bounded
// by the registry's size, and reading it back from IndexedDB clones a few arrays instead of one
// object per entry. Data stored by earlier versions (`entries`) merges the same way.

const KINDS = ['permit', 'credential', 'key'];

/** Each kind's Map ref → status, from stored or received trust data (every shape). */
export function statusMaps(...sources) {
  const maps = { permit: new Map(), credential: new Map(), key: new Map() };
  for (const data of sources) {
    // Earlier versions' and format=entries' objects: the last per (kind, ref) in cursor order.
    const entries = [...(data?.entries ?? [])].sort((a, b) => (a.cursor ?? 0) - (b.cursor ?? 0));
    for (const e of entries) maps[e.kind]?.set(e.kind === 'permit' ? String(e.ref) : Number(e.ref), e.status);
    for (const kind of KINDS) {
      for (const [status, refs] of Object.entries(data?.statuses?.[kind] ?? {})) {
        for (const ref of refs) maps[kind].set(ref, status);
      }
      // format=grouped on the wire: serials and kids as differences from the previous one.
      for (const [status, refs] of Object.entries(data?.status?.[kind] ?? {})) {
        let previous = 0;
        for (const ref of refs) {
          if (kind === 'permit') maps.permit.set(String(ref), status);
          else maps[kind].set((previous += ref), status);
        }
      }
    }
  }
  return maps;
}

/**
 * Each kind's look-up ref → status ({get(ref)}) over stored trust data, without indexing it: the
 * verifier asks for one permit and one crachá per scan, and building Maps of a city's 50,000
 * permits and crachás cost ~150 ms of the scanner's start at 1× CPU (issue 40) where a scan of
 * the grouped arrays costs well under a millisecond. Data in any other shape (earlier versions'
 * `entries`, an answer's `status`) goes through statusMaps.
 */
export function statusLookups(data) {
  if (data?.entries?.length || data?.status) return statusMaps(data);
  const lookups = {};
  // Groups stored sorted (mergeTrust since issue 40: `sorted`) are searched by halves, O(log n);
  // older data scans (Array.includes over 50,000 permit numbers: up to ~12 ms at 4× CPU).
  const has = data?.sorted ? sortedHas : (refs, ref) => refs.includes(ref);
  for (const kind of KINDS) {
    const groups = Object.entries(data?.statuses?.[kind] ?? {});
    lookups[kind] = {
      get: (ref) => {
        for (const [status, refs] of groups) if (has(refs, ref)) return status;
        return undefined;
      },
    };
  }
  lookups.key = statusMaps({ statuses: { key: data?.statuses?.key ?? {} } }).key; // a handful: iterated
  return lookups;
}

// One order for sorting and searching: permit numbers as strings (code units), serials and kids
// as numbers. A ref of the other type is never found (verify asks serials as numbers).
const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function sortedHas(refs, ref) {
  let low = 0;
  let high = refs.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = refs[middle];
    if (found === ref) return true;
    if (typeof found !== typeof ref) return false;
    if (found < ref) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

function grouped(maps) {
  const out = {};
  for (const kind of KINDS) {
    out[kind] = {};
    for (const [ref, status] of maps[kind]) (out[kind][status] ??= []).push(ref);
    // Sorted for statusLookups' search. Mostly in order already (the stored groups first, a
    // delta's few refs after), which V8's merge sort takes in about one pass.
    for (const refs of Object.values(out[kind])) refs.sort(compare);
  }
  return out;
}

export function mergeTrust(stored, delta) {
  return {
    municipality: delta.municipality,
    generated_at: delta.generated_at,
    max_age_seconds: delta.max_age_seconds,
    keys: delta.keys, // always the full current list
    statuses: grouped(statusMaps(stored, delta)),
    sorted: true, // each group in `compare` order: statusLookups searches them by halves
    next_cursor: Math.max(delta.next_cursor ?? 0, stored?.next_cursor ?? 0),
  };
}

// A 304 means nothing changed up to the server's clock at that moment.
export function touchTrust(stored, serverDateMs) {
  if (!stored || Number.isNaN(serverDateMs)) return stored;
  const iso = new Date(serverDateMs).toISOString();
  return iso > stored.generated_at ? { ...stored, generated_at: iso } : stored;
}
