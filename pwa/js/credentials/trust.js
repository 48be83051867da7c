// Merge one GET /api/v1/trust/<municipality>?cursor=N answer into the trust data a device keeps.
// Pure: the data layer stores the result (IndexedDB) and passes it to verify.js prepareTrust().
//
//   stored = mergeTrust(stored, await response.json());          // 200
//   stored = touchTrust(stored, Date.parse(response.headers.get('Date')));  // 304: still current
//   next request: ?cursor=${stored.next_cursor}, If-None-Match: the last ETag
//
// Only the latest entry per (kind, ref) is kept: that is all the verifier reads, and it keeps
// device storage bounded by the registry's size rather than by its history.

export function mergeTrust(stored, delta) {
  const latest = new Map();
  for (const e of [...(stored?.entries ?? []), ...(delta.entries ?? [])]) {
    const id = `${e.kind}:${e.ref}`;
    const prev = latest.get(id);
    if (!prev || (e.cursor ?? 0) >= (prev.cursor ?? 0)) latest.set(id, e);
  }
  return {
    municipality: delta.municipality,
    generated_at: delta.generated_at,
    max_age_seconds: delta.max_age_seconds,
    keys: delta.keys, // always the full current list
    entries: [...latest.values()].sort((a, b) => a.cursor - b.cursor),
    next_cursor: Math.max(delta.next_cursor ?? 0, stored?.next_cursor ?? 0),
  };
}

// A 304 means nothing changed up to the server's clock at that moment.
export function touchTrust(stored, serverDateMs) {
  if (!stored || Number.isNaN(serverDateMs)) return stored;
  const iso = new Date(serverDateMs).toISOString();
  return iso > stored.generated_at ? { ...stored, generated_at: iso } : stored;
}
