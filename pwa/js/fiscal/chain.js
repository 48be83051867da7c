// Signed, hash-chained records (SYNC_CONTRACT.md): the body is serialised ONCE to JSON text; the
// signature covers exactly those UTF-8 bytes and the record's hash is their SHA-256, so the
// server verifies what was signed without any canonicalisation step. Each body names the hash of
// the device's previous record (prev_hash, null for seq 1): a deleted or altered record breaks
// the chain visibly. Once built, a record is never edited — a mistake is a cancel_request.
import { b64url, sha256Hex, utf8 } from './bytes.js';
import { signBytes } from './device-key.js';

/**
 * Build and sign the next record.  chain = {seq, prev_hash} of the LAST record (seq 0 / null
 * before the first). Returns {record: {id, body, signature}, hash, chain: next chain state}.
 */
export async function sealRecord({ id, kind, deviceId, chain, fields, key }) {
  const seq = (chain?.seq ?? 0) + 1;
  const body = { id, kind, device_id: deviceId, seq, prev_hash: chain?.prev_hash ?? null, ...fields };
  const text = JSON.stringify(body);
  const bytes = utf8(text);
  const signature = b64url(await signBytes(key, bytes));
  const hash = await sha256Hex(bytes);
  return { record: { id, body: text, signature }, hash, chain: { seq, prev_hash: hash } };
}

/** Check a list of bodies (JSON text, in seq order) forms an unbroken chain; returns problems. */
export async function chainProblems(bodies) {
  const problems = [];
  let prev = null;
  for (const text of bodies) {
    const body = JSON.parse(text);
    if (prev && body.seq !== prev.seq + 1) problems.push({ id: body.id, problem: 'gap' });
    if ((prev ? prev.hash : null) !== body.prev_hash) problems.push({ id: body.id, problem: 'broken_chain' });
    prev = { seq: body.seq, hash: await sha256Hex(text) };
  }
  return problems;
}
