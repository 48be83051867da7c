// The outbox replay: signed records leave the phone one at a time, oldest first (the server
// checks the hash chain in order), each after its photos. Pure of the browser: `io` gives the
// storage and the two server calls, so Node tests run it against a simulated server.
//
//   io.list() → entries             io.save(entry)            io.releasePhoto(sha256)
//   io.getPhoto(sha256) → {blob, type} | undefined
//   io.putPhoto(sha256, photo)  → resolves, or throws {status, message}
//   io.push([record]) → {results: [...]}, or throws {status, message} (status 0: no network)
//
// Entry: {id, seq, kind, record, photos, state, error, attempts, received_at, flags, created_at}.
// States: pronto → enviando → enviado | conflito | erro (with its reason). A record is removed
// from the queue only by the server's answer (accepted/duplicate = enviado, conflict = conflito);
// its photo Blobs are released only once the server has acknowledged the record and listed no
// missing photo (a tombstone {sha256, uploaded} stays, so an auto signed later that cites the same
// checklist photo knows the server has it). Nothing else ever deletes.

export const STATE_LABELS = {
  rascunho: 'Rascunho', pronto: 'Pronto para enviar', enviando: 'Enviando…', enviado: 'Enviado',
  erro: 'Erro', conflito: 'Conflito',
};
const PENDING = new Set(['pronto', 'enviando', 'erro']);
const MAX_DELAY_MS = 5 * 60 * 1000;

/** The server no longer accepts this device's token: 401 (expired) or 403 device_revoked. */
export class RevokedError extends Error {
  constructor(cause) {
    super(cause?.message || 'unauthorized');
    this.cause = cause;
  }
}
const refused = (error) => error.status === 401 || (error.status === 403 && error.code === 'device_revoked');

export const isPending = (entry) => PENDING.has(entry.state) && !entry.permanent;

/** Wait before the next automatic try after `attempts` failures in a row: 2 s, 4 s … 5 min. */
export function backoffMs(attempts, random = Math.random) {
  const base = Math.min(MAX_DELAY_MS, 2000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.75 + random() * 0.5)); // jitter: phones back online don't stampede
}

function transient(error) {
  return !error.status || error.status >= 500 || error.status === 429 || error.status === 408;
}

function reason(error) {
  if (!error.status) return 'Sem conexão com o servidor.';
  return error.message || `Erro ${error.status} do servidor.`;
}

/** Records per push: the server's per-request cost dominates single-record pushes
 *  (docs/benchmarks/ingest.md: ~7× more CPU per record than batches of 20). */
export const BATCH = 20;

/**
 * Send every pending record, in seq order, in pushes of up to `batch` consecutive records, each
 * record's photos uploaded before the push that carries it. Returns {sent, failed, retryInMs} —
 * retryInMs is set when a transient failure stopped the run (the caller schedules the next try).
 * A refused token (401 expired, 403 device_revoked) throws RevokedError with the server's error.
 */
export async function replay(io, { random = Math.random, now = () => new Date(), batch = BATCH } = {}) {
  const queue = (await io.list()).filter(isPending).sort((a, b) => a.seq - b.seq);
  const out = { sent: 0, failed: 0, retryInMs: null };
  const count = (entry) => { if (entry.state === 'enviado') out.sent += 1; else out.failed += 1; };
  let next = 0;
  while (next < queue.length) {
    const ready = [];
    let photoFailure = null;
    while (next < queue.length && ready.length < batch) {
      const entry = queue[next];
      next += 1;
      entry.state = 'enviando';
      await io.save(entry);
      try {
        await sendPhotos(io, entry, entry.photos || []);
      } catch (error) {
        photoFailure = { entry, error };
        break;
      }
      ready.push(entry);
    }
    if (ready.length) {
      let answer;
      try {
        answer = await io.push(ready.map((e) => e.record));
      } catch (error) {
        // The whole push failed: every record of it stays queued in order (a later run replays
        // them; those the server did store come back as duplicates).
        if (ready.length > 1 && !refused(error) && !transient(error)) {
          // The server refused the request itself: send one by one to find the culprit.
          for (let i = 0; i < ready.length; i += 1) {
            if (await sendOne(io, ready[i], out, random, now)) {
              for (const rest of ready.slice(i + 1)) await putBack(io, rest);
              if (photoFailure) await putBack(io, photoFailure.entry);
              return out;
            }
          }
        } else {
          if (photoFailure) await putBack(io, photoFailure.entry);
          for (const entry of ready.slice(1)) await putBack(io, entry);
          if (await fail(io, ready[0], error, out, random)) return out;
          // A one-record push refused for good: the record whose photos failed is tried again.
          if (photoFailure) next -= 1;
          continue;
        }
        answer = null;
      }
      for (let i = 0; answer && i < ready.length; i += 1) {
        const entry = ready[i];
        try {
          let result = (answer.results || []).find((r) => r.id === entry.id);
          if (!result) throw Object.assign(new Error('Resposta do servidor sem este registro.'), { status: 502 });
          if (result.missing_photos?.length && ['accepted', 'duplicate'].includes(result.status)) {
            await sendPhotos(io, entry, result.missing_photos);
            result = await pushOne(io, entry); // same id, same body: acknowledged as duplicate
          }
          await settle(io, entry, result, now);
          count(entry);
        } catch (error) {
          if (await fail(io, entry, error, out, random)) {
            for (const rest of ready.slice(i + 1)) await putBack(io, rest);
            if (photoFailure) await putBack(io, photoFailure.entry);
            return out;
          }
        }
      }
    }
    if (photoFailure && (await fail(io, photoFailure.entry, photoFailure.error, out, random))) return out;
  }
  return out;
}

/** One record alone: its photos, the push, the missing photos. → true when the run must stop. */
async function sendOne(io, entry, out, random, now) {
  try {
    await sendPhotos(io, entry, entry.photos || []);
    let result = await pushOne(io, entry);
    if (result.missing_photos?.length && ['accepted', 'duplicate'].includes(result.status)) {
      await sendPhotos(io, entry, result.missing_photos);
      result = await pushOne(io, entry);
    }
    await settle(io, entry, result, now);
    if (entry.state === 'enviado') out.sent += 1; else out.failed += 1;
    return false;
  } catch (error) {
    return fail(io, entry, error, out, random);
  }
}

/** Back in the queue untouched (it was only marked "enviando"). */
async function putBack(io, entry) {
  if (entry.state !== 'enviando') return;
  entry.state = 'pronto';
  await io.save(entry);
}

/**
 * A record could not be sent. → true when the run must stop here (a transient failure: nothing
 * after it goes before it); false when it is marked refused for good and the run goes on.
 */
async function fail(io, entry, error, out, random) {
  if (error instanceof RevokedError) throw error;
  if (refused(error)) {
    entry.state = 'pronto'; // untouched: it goes later, with a new login
    await io.save(entry);
    throw new RevokedError(error);
  }
  entry.error = reason(error);
  entry.state = 'erro';
  out.failed += 1;
  if (transient(error)) {
    entry.attempts = (entry.attempts || 0) + 1;
    await io.save(entry);
    out.retryInMs = backoffMs(entry.attempts, random);
    return true; // keep the order: nothing after this record goes before it
  }
  entry.permanent = true; // the server refused the content itself: retrying cannot help
  await io.save(entry);
  return false;
}

async function sendPhotos(io, entry, hashes) {
  for (const sha of hashes) {
    const photo = await io.getPhoto(sha);
    if (!photo) throw Object.assign(new Error(`Foto ${sha.slice(0, 8)} ausente no aparelho.`), { status: 422 });
    if (photo.uploaded) continue;
    await io.putPhoto(sha, photo);
    photo.uploaded = true;
    if (io.savePhoto) await io.savePhoto(photo);
  }
}

async function pushOne(io, entry) {
  const answer = await io.push([entry.record]);
  const result = (answer.results || []).find((r) => r.id === entry.id);
  if (!result) throw Object.assign(new Error('Resposta do servidor sem este registro.'), { status: 502 });
  return result;
}

async function settle(io, entry, result, now) {
  entry.flags = result.flags || [];
  entry.received_at = result.received_at || now().toISOString();
  entry.attempts = 0;
  if (result.status === 'accepted' || result.status === 'duplicate') {
    if (result.missing_photos?.length) {
      entry.state = 'erro';
      entry.error = 'O servidor ainda não recebeu todas as fotos.';
      await io.save(entry);
      return;
    }
    entry.state = 'enviado';
    entry.error = null;
    await io.save(entry);
    // Acknowledged: free the space (the Blob), keeping the tombstone that says it was uploaded.
    for (const sha of entry.photos || []) await io.releasePhoto(sha);
  } else if (result.status === 'conflict') {
    entry.state = 'conflito';
    entry.error = 'O servidor já tem outro conteúdo com este identificador (em revisão).';
    await io.save(entry);
  } else {
    entry.state = 'erro';
    entry.permanent = true;
    const fields = Object.entries(result.errors || {}).map(([f, m]) => `${f}: ${[].concat(m).join(' ')}`);
    entry.error = `Recusado pelo servidor. ${fields.join('; ')}`.trim();
    await io.save(entry);
  }
}
