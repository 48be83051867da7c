// The outbox replay: signed records leave the phone in pushes of up to BATCH, oldest first and
// one push at a time (the server checks the hash chain in order), each push after its records'
// photos. Photos upload PARALLEL_PHOTOS at a time, running ahead of the pushes (the records of
// the next push while this one is answered), so a slow link's latency is not paid once per
// request (issue 24). A run stopped anywhere resumes where it stopped: an uploaded photo is
// marked (never sent again), a record leaves the queue only with the server's answer.
// Pure of the browser: `io` gives the storage and the two server calls, so Node tests run it
// against a simulated server.
//
//   io.list() → entries             io.save(entry)            io.releasePhoto(sha256)
//   io.getPhoto(sha256) → {blob, type} | undefined
//   io.putPhoto(sha256, photo)  → resolves, or throws {status, message}
//   io.push([record]) → {results: [...]}, or throws {status, message} (status 0: no network)
//
// Entry: {id, seq, kind, record, photos, state, error, attempts, received_at, flags, created_at, held}.
// States: pronto → enviando → enviado | conflito | recusado (the server refused its content: set
// aside with the reason, never retried, kept by the server for the back office) | aguardando (the
// server is unavailable, or failed on this very record: retried later) | erro (photos missing).
// A record is removed from the queue only by the server's answer (accepted/duplicate = enviado,
// conflict = conflito); its photo Blobs are released only once the server has acknowledged the
// record and listed no missing photo (a tombstone {sha256, uploaded} stays, so an auto signed later
// that cites the same checklist photo knows the server has it). Nothing else ever deletes.
//
// One record never blocks the queue (issue 20): a push that fails for its content (4xx) or with a
// server error or a timeout (500, 408, timeout) is split in halves until the culprit is alone; a
// culprit refused for its content is set aside (recusado), one the server failed on is "held":
// it goes after every other record from then on, so the others reach the server. Only an
// unavailable server (no answer, 429, 502/503/504) stops the run, in order, until the next try.

export const STATE_LABELS = {
  rascunho: 'Rascunho', pronto: 'Pronto para enviar', enviando: 'Enviando…', enviado: 'Enviado',
  erro: 'Erro', conflito: 'Conflito', recusado: 'Recusado pelo servidor', aguardando: 'Aguardando servidor',
};
const PENDING = new Set(['pronto', 'enviando', 'erro', 'aguardando']);
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

// Issue 34 item 4: an offline phone says so, never "Servidor indisponível", which is only for a
// network that works and a server that does not answer.
export const OFFLINE_TEXT = 'Sem conexão — será enviado quando houver sinal.';
export const KEPT_LABEL = 'Guardado no aparelho';

/** How a record's state reads now: {label, reason, css}. A record still to send on a phone
 *  without network is "Guardado no aparelho" (signed and kept here), whatever the last run said. */
export function stateWords(entry, online = true) {
  if (isPending(entry) && !online) return { label: KEPT_LABEL, reason: OFFLINE_TEXT, css: 'guardado' };
  return { label: STATE_LABELS[entry.state] || entry.state, reason: entry.state !== 'enviado' ? entry.error || '' : '', css: entry.state };
}

/** Wait before the next automatic try after `attempts` failures in a row: 2 s, 4 s … 5 min. */
export function backoffMs(attempts, random = Math.random) {
  const base = Math.min(MAX_DELAY_MS, 2000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.75 + random() * 0.5)); // jitter: phones back online don't stampede
}

/** No answer at all, or a server/proxy saying it cannot serve now: nothing to learn from a split. */
export function unavailable(error) {
  return (!error.status && !error.timeout) || [429, 502, 503, 504].includes(error.status);
}

/** The server failed on what it was sent (500, a timeout): one record of the push may be the cause. */
function serverFailure(error) {
  return error.timeout || error.status === 408 || error.status >= 500;
}

/** "HH:MM" on the phone's clock, `ms` from now. */
export function clockAt(now, ms) {
  const at = new Date(now().getTime() + ms);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}

function serverFailureReason(error) {
  if (error.timeout || error.status === 408) return 'o servidor não respondeu a tempo';
  return `erro ${error.status} do servidor`;
}

/** Records per push. A push costs the server ~10 ms of CPU whatever it carries, plus ~0.6 ms per
 *  record (docs/benchmarks/ingest.md): batches of 50 cost 0.6–0.9 ms per record on a loaded
 *  2-core server, batches of 20 1.0–1.2. 50 records are ~70 KB, about a second of 3G uplink (one
 *  photo is ~180 KB); the server takes up to 100 (MAX_BATCH). */
export const BATCH = 50;

/**
 * Send every pending record, in seq order (held ones last), in pushes of up to `batch`
 * consecutive records, each record's photos uploaded before the push that carries it. Returns
 * {sent, failed, retryInMs} — retryInMs is set when a record is waiting for the server (the caller
 * schedules the next try); `unavailable: true` when the server could not be reached at all.
 * A refused token (401 expired, 403 device_revoked) throws RevokedError with the server's error.
 */
export async function replay(io, {
  random = Math.random, now = () => new Date(), batch = BATCH, parallel = PARALLEL_PHOTOS,
} = {}) {
  const queue = (await io.list()).filter(isPending)
    .sort((a, b) => (a.held ? 1 : 0) - (b.held ? 1 : 0) || a.seq - b.seq);
  const out = { sent: 0, failed: 0, retryInMs: null };
  const run = { out, random, now, stop: false, heldInARow: 0 };
  run.photos = photoUploader(io, run, parallel);
  // This push's records and the next push's: their photos go up while this push is answered.
  const ahead = (from) => {
    for (let i = from; i < Math.min(queue.length, from + 2 * batch); i += 1) {
      run.photos.of(queue[i].photos || []).catch(() => {}); // its record meets the failure when it gets there
    }
  };
  let next = 0;
  try {
    while (next < queue.length && !run.stop) {
      ahead(next);
      const ready = [];
      let photoFailure = null;
      while (next < queue.length && ready.length < batch) {
        const entry = queue[next];
        next += 1;
        entry.state = 'enviando';
        await io.save(entry);
        try {
          await run.photos.of(entry.photos || []);
        } catch (error) {
          photoFailure = { entry, error };
          break;
        }
        ready.push(entry);
      }
      if (ready.length) await sendGroup(io, ready, run);
      if (photoFailure && !run.stop) await fail(io, photoFailure.entry, photoFailure.error, run);
    }
  } finally {
    run.stop = true; // uploads not yet started are dropped; those in flight end before the run does
    await run.photos.settled();
    // Whatever did not get its answer goes back to the queue untouched, in order.
    for (const entry of queue) await putBack(io, entry);
  }
  return out;
}

/** Photo uploads in flight at once. DevTools 3G (562 ms latency, 675 kbit/s up): one at a time
 *  spent a third of a day's sync waiting on latency; a few at once share the uplink and hide it
 *  (docs/benchmarks/sync-day.md). Small: a phone's link gains nothing from more. */
export const PARALLEL_PHOTOS = 4;

/**
 * Uploads photos at most `width` at a time, in the order asked; a photo asked twice (a checklist
 * photo an auto cites again) is uploaded once. `of(hashes)` → a promise that the photos are on
 * the server (rejects with the first failure); `settled()` waits for every upload started.
 */
function photoUploader(io, run, width) {
  const bySha = new Map();
  const waiting = [];
  let active = 0;
  const slot = () => {
    if (active < width) { active += 1; return Promise.resolve(); }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const free = () => { const nextUp = waiting.shift(); if (nextUp) nextUp(); else active -= 1; };
  const upload = async (sha) => {
    await slot();
    try {
      if (run.stop) throw Object.assign(new Error('Envio interrompido.'), { status: 0 });
      await sendPhoto(io, sha);
    } finally {
      free();
    }
  };
  const one = (sha) => {
    if (!bySha.has(sha)) {
      const promise = upload(sha);
      promise.catch(() => {}); // awaited by the record that needs it, if the run gets that far
      bySha.set(sha, promise);
    }
    return bySha.get(sha);
  };
  return {
    of: (hashes) => Promise.all(hashes.map(one)).then(() => undefined),
    settled: () => Promise.allSettled([...bySha.values()]),
  };
}

/** Push `group`; on a failure that one record may cause, split it in halves (bisection). */
async function sendGroup(io, group, run) {
  let answer;
  try {
    answer = await io.push(group.map((e) => e.record));
  } catch (error) {
    if (group.length > 1 && !refused(error) && !unavailable(error)) {
      const half = Math.ceil(group.length / 2);
      await sendGroup(io, group.slice(0, half), run);
      if (!run.stop) await sendGroup(io, group.slice(half), run);
      return;
    }
    await fail(io, group[0], error, run);
    return;
  }
  run.heldInARow = 0;
  for (const [index, entry] of group.entries()) {
    if (run.stop) return;
    try {
      let result = resultOf(answer, entry, index, group.length);
      if (!result) throw Object.assign(new Error('Resposta do servidor sem este registro.'), { status: 502 });
      if (result.missing_photos?.length && ['accepted', 'duplicate'].includes(result.status)) {
        await sendPhotos(io, result.missing_photos);
        result = await pushOne(io, entry); // same id, same body: acknowledged as duplicate
      }
      await settle(io, entry, result, run.now);
      if (entry.state === 'enviado') run.out.sent += 1; else run.out.failed += 1;
    } catch (error) {
      await fail(io, entry, error, run);
    }
  }
}

/** Back in the queue untouched (it was only marked "enviando"). */
async function putBack(io, entry) {
  if (entry.state !== 'enviando') return;
  entry.state = 'pronto';
  await io.save(entry);
}

function retryLater(entry, run) {
  entry.attempts = (entry.attempts || 0) + 1;
  const wait = backoffMs(entry.attempts, run.random);
  run.out.retryInMs = run.out.retryInMs === null ? wait : Math.min(run.out.retryInMs, wait);
  return clockAt(run.now, wait);
}

/**
 * A record could not be sent. An unavailable server stops the run here (nothing after it goes
 * before it); a server failure on this record alone holds it (it goes last from now on) unless
 * the server fails on the next record alone too (then the server is unwell: stop); a refusal of
 * its content sets it aside for good.
 */
async function fail(io, entry, error, run) {
  if (error instanceof RevokedError) throw error;
  if (refused(error)) {
    entry.state = 'pronto'; // untouched: it goes later, with a new login
    await io.save(entry);
    throw new RevokedError(error);
  }
  if (!error.status && !error.timeout && io.online && !io.online()) {
    // No network at all: nothing was tried on the server; the record waits, untouched, for the
    // network ("online" and Background Sync start the next run).
    entry.state = 'pronto';
    run.out.offline = true;
    run.stop = true;
    await io.save(entry);
    return;
  }
  run.out.failed += 1;
  if (unavailable(error) || (serverFailure(error) && run.heldInARow >= 1)) {
    entry.state = 'aguardando';
    entry.error = `Servidor indisponível — nova tentativa às ${retryLater(entry, run)}.`;
    run.out.unavailable = true;
    run.stop = true;
    await io.save(entry);
    return;
  }
  if (serverFailure(error)) {
    run.heldInARow += 1;
    entry.state = 'aguardando';
    entry.held = true;
    entry.error = `O servidor falhou ao processar este registro (${serverFailureReason(error)}). `
      + `Ele foi posto de lado para não atrasar os demais — nova tentativa às ${retryLater(entry, run)}.`;
    await io.save(entry);
    return;
  }
  entry.state = 'recusado';
  entry.permanent = true; // the server refused the content itself: retrying cannot help
  entry.error = `Recusado pelo servidor: ${error.message || `erro ${error.status}`}`;
  await io.save(entry);
}

async function sendPhoto(io, sha) {
  const photo = await io.getPhoto(sha);
  if (!photo) throw Object.assign(new Error(`Foto ${sha.slice(0, 8)} ausente no aparelho.`), { status: 422 });
  if (photo.uploaded) return;
  // A PUT begun before (the app closed, the link dropped before the answer) may have arrived:
  // ask first (HEAD: 200 or 404) instead of sending ~200 KB again. A photo never tried goes
  // straight up: asking would cost every new photo a round trip.
  const held = io.photoTried && (await io.photoTried(sha)) && (await io.hasPhoto(sha));
  if (!held) {
    await io.notePhotoTry?.(sha);
    await io.putPhoto(sha, photo);
  }
  photo.uploaded = true;
  if (io.savePhoto) await io.savePhoto(photo);
  await io.forgetPhotoTry?.(sha);
}

/** Photos the server says it lacks after a push (one it lost, or uploaded by an earlier run). */
async function sendPhotos(io, hashes) {
  for (const sha of hashes) await sendPhoto(io, sha);
}

/**
 * This entry's result: the one with its id, else the one in its place (the server answers one
 * result per item, in the order sent). An id the server could not echo exactly (issue 39: once a
 * NUL in it came back escaped) must not leave the record unanswered and stop the run.
 */
function resultOf(answer, entry, index, sent) {
  const results = answer.results || [];
  return results.find((r) => r.id === entry.id) || (results.length === sent ? results[index] : undefined);
}

async function pushOne(io, entry) {
  const answer = await io.push([entry.record]);
  const result = resultOf(answer, entry, 0, 1);
  if (!result) throw Object.assign(new Error('Resposta do servidor sem este registro.'), { status: 502 });
  return result;
}

async function settle(io, entry, result, now) {
  entry.flags = result.flags || [];
  entry.received_at = result.received_at || now().toISOString();
  entry.attempts = 0;
  entry.held = false;
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
    entry.state = 'recusado';
    entry.permanent = true;
    entry.held = false;
    const fields = Object.entries(result.errors || {}).map(([f, m]) => `${f}: ${[].concat(m).join(' ')}`);
    entry.error = `Recusado pelo servidor (guardado lá para revisão). ${fields.join('; ')}`.trim();
    await io.save(entry);
  }
}

/**
 * The words "Sincronizar agora" shows after a run (issue 18 item 8): an unreachable server is a
 * wait (amber), not an error; nothing left to send is "Tudo enviado", never "0 enviado(s)"; a
 * phone without network says so (issue 34), never "Servidor indisponível".
 * `result`: replay's summary; `counts`: {pending, refused} after the run. → {tone, text}
 */
export function syncSummary(result, counts, now = () => new Date()) {
  const refusedText = counts.refused ? ` ${counts.refused} recusado(s) pelo servidor: veja o motivo na lista.` : '';
  if (result.offline && counts.pending) return { tone: 'warn', text: `${OFFLINE_TEXT}${refusedText}` };
  if (result.unavailable) {
    return { tone: 'warn', text: `Servidor indisponível — nova tentativa às ${clockAt(now, result.retryInMs || 0)}.${refusedText}` };
  }
  if (!counts.pending) {
    return { tone: counts.refused ? 'warn' : 'ok', text: `Tudo enviado.${refusedText}` };
  }
  const sent = result.sent ? `${result.sent} enviado(s); ` : '';
  const retry = result.retryInMs !== null && result.retryInMs !== undefined ? ` (nova tentativa às ${clockAt(now, result.retryInMs)})` : '';
  return { tone: 'warn', text: `${sent}${counts.pending} aguardando o servidor${retry}.${refusedText}` };
}
