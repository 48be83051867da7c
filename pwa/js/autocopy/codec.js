// The operator's signed copy of an auto, carried by the QR on the fiscal's issued-auto screen:
//   https://<host>/a/#<decimal digits of (body ‖ signature)>     (version 2, written today)
//   https://<host>/a/#<base32(body ‖ signature)>                 (version 1, still read)
// The fragment never leaves the operator's browser (no server log sees the auto). The body is
// signed with the device key that signs the record (Ed25519, device-key.js); the public page
// (autocopy/page.js) verifies it with the key the device registered at enrolment, published
// per municipality at /api/v1/public/municipalities/<ibge>/device-keys.
//
// Body layout, version 2 (big-endian; byte-by-byte table in docs/sync-api.md "Operator's copy"):
//   0      version (2)
//   1..3   IBGE code of the municipality (as the crachá's body)
//   varint device id (the server's Device.id, from enrolment; LEB128)
//   32     public token (the record's `public_token`; base64url in the record)
//   4      issued at: minutes since 2020-01-01T00:00Z (the record's clock.device_at)
//   1      the device clock's UTC offset in quarters of an hour (int8)
//   1 + 2  defence: days (255 = not fixed), due date in days since 2020-01-01 (0xFFFF = none)
//   1      count of confirmed infractions, then each one's amount: 0 + varint cents | 1 (its
//          text is among the texts: "132 UFIR") | 2 (a definir)
//   1      the law's words: instrument << 4 | first step (PERMIT_NOUNS, STEP_KINDS; 0xF unknown)
//   1      preset dictionary id (lz.js; 1 = dictionary-1.js)
//   rest   the texts, UTF-8 joined by NUL and compressed with that dictionary: number, plate,
//          permit number, place, defence instance, then per infraction title, citation (and
//          the amount's text when its kind is 1), then, when the auto recorded it, how the
//          checklist was answered (autocopy/answers-how.js, "R1:…"; issue 34). Texts after the
//          infractions' are kept as `extra`, so a later writer may append one without breaking
//          this reader.
// Most of a copy's bytes were its titles and citations, which the rule packs word: against a
// dictionary of the packs' words three infractions take ~90 bytes instead of ~600 (lz.js), so
// the QR stays at version ≤ 15 with error correction M.
// The fragment is decimal (QR numeric mode: 3.33 bits a digit, 8.03 a byte, where base32 in
// alphanumeric mode costs 8.8): each 7 bytes are 17 digits, a last group of k bytes fewer
// (GROUP_DIGITS). Digits are URL-safe and never percent-encoded.
//
// Version 1 (read only): the same fields with 4-byte device id, uint32 cents and every text a
// length-prefixed UTF-8 string in place (its title, citation, amount text per infraction), in
// base32 (credentials/base32.js).
import { b32decode, Base32Error } from '../credentials/base32.js';
import { compress, decompress, LzError } from './lz.js';
import dictionary1 from './dictionary-1.js';
import { howText } from './answers-how.js';

export const COPY_VERSION = 2;
// The law's words (issue 34, item 4), one byte of version 2 so the page says them offline without
// a table per municipality: high nibble the permit's instrument (PERMIT_NOUNS, registry/
// vocabulary.py's `permit`), low nibble how the law names the first step (STEP_KINDS, the packs'
// deadline kinds); 0xF = not known. Version 1 copies carry none: the page says them neutrally.
export const PERMIT_NOUNS = ['permissão', 'alvará de autorização', 'autorização'];
export const STEP_KINDS = ['defesa', 'defesa_previa', 'recurso'];
const UNKNOWN = 0xf;
const code = (list, value) => (list.includes(value) ? list.indexOf(value) : UNKNOWN);
const terms = (words) => ({ permit: PERMIT_NOUNS[words >> 4] ?? null, step: STEP_KINDS[words & 0xf] ?? null });
export const COPY_PATH = '/a/#';

/** The origin a copy's link names: the municipality's own public address ("Endereço público",
 *  issue 36: the host its crachás and notificações name) when the field data carries a usable one,
 *  else `fallback` (the field app's own origin). Lower case: the QR holds it as a byte segment. */
export function copyOrigin(base, fallback) {
  return typeof base === 'string' && /^https?:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?$/.test(base) ? base.toLowerCase() : fallback;
}
export const SIGNATURE_LEN = 64;
export const TOKEN_LEN = 32;
const EPOCH_MS = Date.UTC(2020, 0, 1);
const DAY_MS = 86400000;
const NONE_DAYS = 255;
const NONE_DUE = 0xffff;
const SEPARATOR = 0;
// Preset dictionaries by id, each frozen for ever (see lz.js and pwa/scripts/copy-dictionary.mjs).
const DICTIONARIES = { 1: dictionary1 };
const DICTIONARY_ID = 1;
const dictionaryBytes = new Map();
function dictionary(id) {
  if (!DICTIONARIES[id]) throw new CopyError('unsupported_dictionary');
  if (!dictionaryBytes.has(id)) dictionaryBytes.set(id, new TextEncoder().encode(DICTIONARIES[id]));
  return dictionaryBytes.get(id);
}

export class CopyError extends Error {
  constructor(code) { super(code); this.code = code; }
}

function b64urlToBytes(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}
function bytesToB64url(bytes) {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

class Writer {
  constructor() { this.out = []; }
  u8(v) { this.out.push(v & 0xff); }
  u16(v) { this.u8(v >> 8); this.u8(v); }
  u32(v) { this.u16(Math.floor(v / 65536)); this.u16(v % 65536); }
  varint(v) {
    if (!(Number.isSafeInteger(v) && v >= 0)) throw new CopyError('bad_number');
    let rest = v;
    while (rest >= 0x80) { this.u8((rest % 0x80) | 0x80); rest = Math.floor(rest / 0x80); }
    this.u8(rest);
  }
  bytes(b) { for (const x of b) this.out.push(x); }
  done() { return Uint8Array.from(this.out); }
}

class Reader {
  constructor(raw) { this.raw = raw; this.i = 0; }
  need(n) { if (this.i + n > this.raw.length) throw new CopyError('bad_length'); }
  u8() { this.need(1); return this.raw[this.i++]; }
  u16() { return (this.u8() << 8) | this.u8(); }
  u32() { return this.u16() * 65536 + this.u16(); }
  varint() {
    let value = 0;
    for (let shift = 1; ; shift *= 0x80) {
      const b = this.u8();
      value += (b & 0x7f) * shift;
      if (!(b & 0x80)) break;
      if (shift > 2 ** 42) throw new CopyError('bad_body'); // beyond a safe integer
    }
    return value;
  }
  bytes(n) { this.need(n); const b = this.raw.slice(this.i, this.i + n); this.i += n; return b; }
  rest() { const b = this.raw.slice(this.i); this.i = this.raw.length; return b; }
  str() { // version 1's length-prefixed UTF-8
    let n = this.u8();
    if (n & 0x80) n = ((n & 0x7f) << 8) | this.u8();
    return utf8(this.bytes(n));
  }
}

function utf8(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CopyError('bad_body');
  }
}

/** "2026-12-01T10:15:00-04:00" → {minutes since 2020 UTC, offset in quarters}. */
function clockParts(deviceAt) {
  const ms = Date.parse(deviceAt);
  if (Number.isNaN(ms)) throw new CopyError('bad_clock');
  const m = /([+-])(\d\d):?(\d\d)$/.exec(deviceAt);
  const offsetMin = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  return { minutes: Math.floor((ms - EPOCH_MS) / 60000), quarters: Math.round(offsetMin / 15) };
}

// A text of the copy, as stored: NUL separates the texts, so it never appears inside one.
const plain = (text) => String(text ?? '').replace(/\0/g, '');

/**
 * Copy fields → body bytes (version 2). `copy`: {ibge, device_id, public_token, device_at,
 * number, plate, permit_number, place, defence: {days, due, instance}, infractions: [{label,
 * citation, amount_cents | amount_text}], terms: {permit: one of PERMIT_NOUNS, step: one of
 * STEP_KINDS}, answers_how}.
 */
export function encodeCopy(copy) {
  const w = new Writer();
  const ibge = Number(copy.ibge);
  if (!(ibge > 0 && ibge <= 9999999)) throw new CopyError('bad_ibge');
  const token = b64urlToBytes(copy.public_token);
  if (token.length !== TOKEN_LEN) throw new CopyError('bad_token');
  const { minutes, quarters } = clockParts(copy.device_at);
  const infractions = copy.infractions || [];
  if (infractions.length > 255) throw new CopyError('too_long');
  w.u8(COPY_VERSION);
  w.u8(ibge >> 16); w.u16(ibge & 0xffff);
  w.varint(Number(copy.device_id));
  w.bytes(token);
  w.u32(minutes);
  w.u8(quarters & 0xff);
  const days = copy.defence?.days;
  w.u8(Number.isInteger(days) && days >= 0 && days < NONE_DAYS ? days : NONE_DAYS);
  const due = copy.defence?.due ? Math.round((Date.parse(`${copy.defence.due.slice(0, 10)}T00:00:00Z`) - EPOCH_MS) / DAY_MS) : NONE_DUE;
  w.u16(Number.isInteger(due) && due >= 0 && due < NONE_DUE ? due : NONE_DUE);
  w.u8(infractions.length);
  const texts = [copy.number, copy.plate, copy.permit_number, copy.place, copy.defence?.instance];
  for (const inf of infractions) {
    texts.push(inf.label, inf.citation);
    if (Number.isInteger(inf.amount_cents) && inf.amount_cents >= 0) { w.u8(0); w.varint(inf.amount_cents); }
    else if (inf.amount_text) { w.u8(1); texts.push(inf.amount_text); }
    else w.u8(2);
  }
  if (copy.answers_how) texts.push(copy.answers_how); // issue 34: how the checklist was answered
  w.u8((code(PERMIT_NOUNS, copy.terms?.permit) << 4) | code(STEP_KINDS, copy.terms?.step));
  w.u8(DICTIONARY_ID);
  w.bytes(compress(new TextEncoder().encode(texts.map(plain).join('\0')), dictionary(DICTIONARY_ID)));
  return w.done();
}

function header(r, version) {
  const ibge = (r.u8() << 16) | r.u16();
  const deviceId = version === 1 ? r.u32() : r.varint();
  const token = bytesToB64url(r.bytes(TOKEN_LEN));
  const minutes = r.u32();
  let quarters = r.u8();
  if (quarters > 127) quarters -= 256;
  const copy = { version, ibge, device_id: deviceId, public_token: token };
  const utcMs = EPOCH_MS + minutes * 60000;
  copy.issued_at = new Date(utcMs).toISOString();
  // Wall-clock time where the auto was written, as the device showed it.
  copy.issued_at_local = new Date(utcMs + quarters * 15 * 60000).toISOString().slice(0, 16);
  copy.utc_offset_minutes = quarters * 15;
  return copy;
}

function defence(days, due, instance) {
  return {
    days: days === NONE_DAYS ? null : days,
    due: due === NONE_DUE ? null : new Date(EPOCH_MS + due * DAY_MS).toISOString().slice(0, 10),
    instance: instance || null,
  };
}

function decodeV1(r, copy) {
  copy.number = r.str(); copy.plate = r.str(); copy.permit_number = r.str(); copy.place = r.str();
  const days = r.u8();
  const due = r.u16();
  copy.defence = defence(days, due, r.str());
  const n = r.u8();
  copy.infractions = [];
  for (let i = 0; i < n; i++) {
    const inf = { label: r.str(), citation: r.str() };
    const kind = r.u8();
    if (kind === 0) inf.amount_cents = r.u32();
    else if (kind === 1) inf.amount_text = r.str();
    else if (kind !== 2) throw new CopyError('bad_body');
    copy.infractions.push(inf);
  }
  copy.terms = terms(0xff);
}

function decodeV2(r, copy) {
  const days = r.u8();
  const due = r.u16();
  const n = r.u8();
  const amounts = [];
  for (let i = 0; i < n; i++) {
    const kind = r.u8();
    if (kind === 0) amounts.push({ amount_cents: r.varint() });
    else if (kind === 1 || kind === 2) amounts.push({ kind });
    else throw new CopyError('bad_body');
  }
  copy.terms = terms(r.u8());
  let packed;
  const dict = dictionary(r.u8());
  try {
    packed = decompress(r.rest(), dict);
  } catch (error) {
    if (error instanceof LzError) throw new CopyError('bad_body');
    throw error;
  }
  const texts = utf8(packed).split(String.fromCharCode(SEPARATOR));
  const next = () => {
    if (!texts.length) throw new CopyError('bad_body');
    return texts.shift();
  };
  [copy.number, copy.plate, copy.permit_number, copy.place] = [next(), next(), next(), next()];
  copy.defence = defence(days, due, next());
  copy.infractions = amounts.map((amount) => {
    const inf = { label: next(), citation: next() };
    if (amount.amount_cents !== undefined) inf.amount_cents = amount.amount_cents;
    else if (amount.kind === 1) inf.amount_text = next();
    return inf;
  });
  if (texts.length) copy.extra = texts;
}

/** Body bytes → copy fields (the shape encodeCopy takes, plus version, issued_at, issued_at_local). */
export function decodeCopy(raw) {
  const r = new Reader(raw);
  const version = r.u8();
  if (version !== 1 && version !== 2) throw new CopyError('unsupported_version');
  const copy = header(r, version);
  if (version === 1) decodeV1(r, copy); else decodeV2(r, copy);
  if (r.i !== raw.length) throw new CopyError('bad_length');
  if (copy.ibge === 0 || copy.device_id === 0) throw new CopyError('bad_body');
  return copy;
}

// Bytes ↔ decimal digits: each group of up to 7 bytes is one number written in GROUP_DIGITS[k]
// digits (the fewest that hold 256^k − 1), so the digit count tells the byte count back.
const GROUP_DIGITS = [0, 3, 5, 8, 10, 13, 15, 17];
const BYTES_OF_DIGITS = new Map(GROUP_DIGITS.map((d, k) => [d, k]));

export function bytesToDigits(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 7) {
    const group = bytes.subarray(i, i + 7);
    let value = 0n;
    for (const b of group) value = (value << 8n) | BigInt(b);
    out += value.toString().padStart(GROUP_DIGITS[group.length], '0');
  }
  return out;
}

export function digitsToBytes(text) {
  if (!/^[0-9]*$/.test(text)) throw new CopyError('bad_digits');
  const tail = text.length % 17;
  if (!BYTES_OF_DIGITS.has(tail)) throw new CopyError('bad_digits');
  const out = [];
  for (let i = 0; i < text.length; i += 17) {
    const chunk = text.slice(i, i + 17);
    const k = BYTES_OF_DIGITS.get(chunk.length);
    let value = BigInt(chunk);
    if (value >= 1n << BigInt(8 * k)) throw new CopyError('bad_digits');
    const group = new Array(k);
    for (let j = k - 1; j >= 0; j -= 1) { group[j] = Number(value & 0xffn); value >>= 8n; }
    out.push(...group);
  }
  return Uint8Array.from(out);
}

/** body ‖ signature → the fragment text (after '#'), decimal (version 2). */
export const copyFragment = (bodyBytes, signature) => bytesToDigits(Uint8Array.from([...bodyBytes, ...signature]));

/** The copy's URL for a server origin ("https://host"). */
export const copyUrl = (origin, bodyBytes, signature) => `${origin}${COPY_PATH}${copyFragment(bodyBytes, signature)}`;

// Shorter than any body's fixed part (version 1's: 45 bytes; version 2's: 47 and its texts).
const MIN_BODY = 45;

/** Fragment text (with or without '#') → {bodyBytes, signature, copy}; throws CopyError. */
export function splitFragment(fragment) {
  const text = (fragment || '').replace(/^#/, '');
  if (!text) throw new CopyError('empty');
  let raw;
  if (/^[0-9]+$/.test(text)) {
    raw = digitsToBytes(text);
  } else {
    try {
      raw = b32decode(text); // version 1
    } catch (error) {
      if (error instanceof Base32Error) throw new CopyError('bad_base32');
      throw error;
    }
  }
  if (raw.length < SIGNATURE_LEN + MIN_BODY) throw new CopyError('bad_length');
  const bodyBytes = raw.subarray(0, raw.length - SIGNATURE_LEN);
  const signature = raw.subarray(raw.length - SIGNATURE_LEN);
  return { bodyBytes, signature, copy: decodeCopy(bodyBytes) };
}

/**
 * The copy of a sealed auto record body (as the phone keeps it). `citation(c)` formats the
 * record's citation object (the rules' citationLabel); `ibge`, `deviceId` from the field data and
 * the session; `permitNoun` the law's word for the permit (the trust data's `permit_noun`).
 */
export function copyOfRecord(body, { ibge, deviceId, citation = (c) => (typeof c === 'string' ? c : ''), permitNoun = null }) {
  const confirmed = (body.infractions || []).filter((i) => (i.decision || 'confirmed') === 'confirmed');
  return {
    terms: { permit: permitNoun, step: body.defence?.kind ?? null },
    answers_how: howText(body.checklist_how, confirmed),
    ibge, device_id: deviceId, public_token: body.public_token, device_at: body.clock?.device_at,
    number: body.number, plate: body.plate, permit_number: body.permit_number, place: body.place,
    defence: { days: body.defence?.deadline_days ?? null, due: body.defence?.due ?? null, instance: body.defence?.instance ?? null },
    infractions: (body.infractions || []).filter((i) => (i.decision || 'confirmed') === 'confirmed').map((i) => {
      const out = { label: i.label_pt || i.id, citation: citation(i.citation) };
      if (i.amount_brl !== null && i.amount_brl !== undefined) out.amount_cents = Math.round(Number(i.amount_brl) * 100);
      else if (i.amount?.value !== null && i.amount?.value !== undefined) out.amount_text = `${i.amount.value} ${i.amount.unit || ''}`.trim();
      return out;
    }),
  };
}
