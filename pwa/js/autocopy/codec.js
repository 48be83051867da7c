// The operator's signed copy of an auto, carried by the QR on the fiscal's issued-auto screen:
//   https://<host>/a/#<base32(body ‖ signature)>
// The fragment never leaves the operator's browser (no server log sees the auto). The body is
// signed with the device key that signs the record (Ed25519, device-key.js); the public page
// (autocopy/page.js) verifies it with the key the device registered at enrolment, published
// per municipality at /api/v1/public/municipalities/<ibge>/device-keys.
//
// Body layout, version 1 (big-endian; "str" = length (1 byte < 0x80, else 2 bytes with the top
// bit set) then UTF-8 bytes; the byte-by-byte table is in docs/sync-api.md "Operator's copy"):
//   0      version (1)
//   1..3   IBGE code of the municipality (as the crachá's body)
//   4..7   device id (the server's Device.id, from enrolment)
//   8..39  public token (the record's `public_token`, 32 bytes; base64url in the record)
//   40..43 issued at: minutes since 2020-01-01T00:00Z (the record's clock.device_at)
//   44     the device clock's UTC offset in quarters of an hour (int8)
//   str number · str plate · str permit number · str place
//   defence: 1 byte days (255 = not fixed), 2 bytes due date in days since 2020-01-01
//            (0xFFFF = none), str instance
//   1 byte count of confirmed infractions, each: str title · str citation · amount:
//            0 + uint32 cents | 1 + str amount in the law's unit ("132 UFIR") | 2 (a definir)
// Base32 (the crachá's, pwa/js/credentials/base32.js) keeps the payload in QR alphanumeric mode
// and URL-safe (base45's space and % are not).
import { b32decode, b32encode, Base32Error } from '../credentials/base32.js';

export const COPY_VERSION = 1;
export const COPY_PATH = '/a/#';
export const SIGNATURE_LEN = 64;
export const TOKEN_LEN = 32;
const EPOCH_MS = Date.UTC(2020, 0, 1);
const DAY_MS = 86400000;
const NONE_DAYS = 255;
const NONE_DUE = 0xffff;

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
  bytes(b) { for (const x of b) this.out.push(x); }
  str(text) {
    const b = new TextEncoder().encode(text ?? '');
    if (b.length > 0x7fff) throw new CopyError('too_long');
    if (b.length < 0x80) this.u8(b.length); else { this.u8(0x80 | (b.length >> 8)); this.u8(b.length); }
    this.bytes(b);
  }
  done() { return Uint8Array.from(this.out); }
}

class Reader {
  constructor(raw) { this.raw = raw; this.i = 0; }
  need(n) { if (this.i + n > this.raw.length) throw new CopyError('bad_length'); }
  u8() { this.need(1); return this.raw[this.i++]; }
  u16() { return (this.u8() << 8) | this.u8(); }
  u32() { return this.u16() * 65536 + this.u16(); }
  bytes(n) { this.need(n); const b = this.raw.slice(this.i, this.i + n); this.i += n; return b; }
  str() {
    let n = this.u8();
    if (n & 0x80) n = ((n & 0x7f) << 8) | this.u8();
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes(n));
    } catch (error) {
      if (error instanceof CopyError) throw error;
      throw new CopyError('bad_body');
    }
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

/**
 * Copy fields → body bytes. `copy`: {ibge, device_id, public_token, device_at, number, plate,
 * permit_number, place, defence: {days, due, instance}, infractions: [{label, citation,
 * amount_cents | amount_text}]}.
 */
export function encodeCopy(copy) {
  const w = new Writer();
  const ibge = Number(copy.ibge);
  if (!(ibge > 0 && ibge <= 9999999)) throw new CopyError('bad_ibge');
  const token = b64urlToBytes(copy.public_token);
  if (token.length !== TOKEN_LEN) throw new CopyError('bad_token');
  const { minutes, quarters } = clockParts(copy.device_at);
  w.u8(COPY_VERSION);
  w.u8(ibge >> 16); w.u16(ibge & 0xffff);
  w.u32(Number(copy.device_id));
  w.bytes(token);
  w.u32(minutes);
  w.u8(quarters & 0xff);
  w.str(copy.number); w.str(copy.plate); w.str(copy.permit_number); w.str(copy.place);
  const days = copy.defence?.days;
  w.u8(Number.isInteger(days) && days >= 0 && days < NONE_DAYS ? days : NONE_DAYS);
  const due = copy.defence?.due ? Math.round((Date.parse(`${copy.defence.due.slice(0, 10)}T00:00:00Z`) - EPOCH_MS) / DAY_MS) : NONE_DUE;
  w.u16(Number.isInteger(due) && due >= 0 && due < NONE_DUE ? due : NONE_DUE);
  w.str(copy.defence?.instance);
  const infractions = copy.infractions || [];
  if (infractions.length > 255) throw new CopyError('too_long');
  w.u8(infractions.length);
  for (const inf of infractions) {
    w.str(inf.label); w.str(inf.citation);
    if (Number.isInteger(inf.amount_cents) && inf.amount_cents >= 0) { w.u8(0); w.u32(inf.amount_cents); }
    else if (inf.amount_text) { w.u8(1); w.str(inf.amount_text); }
    else w.u8(2);
  }
  return w.done();
}

/** Body bytes → copy fields (the shape encodeCopy takes, plus issued_at_local). */
export function decodeCopy(raw) {
  const r = new Reader(raw);
  const version = r.u8();
  if (version !== COPY_VERSION) throw new CopyError('unsupported_version');
  const ibge = (r.u8() << 16) | r.u16();
  const deviceId = r.u32();
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
  copy.number = r.str(); copy.plate = r.str(); copy.permit_number = r.str(); copy.place = r.str();
  const days = r.u8();
  const due = r.u16();
  copy.defence = {
    days: days === NONE_DAYS ? null : days,
    due: due === NONE_DUE ? null : new Date(EPOCH_MS + due * DAY_MS).toISOString().slice(0, 10),
    instance: r.str() || null,
  };
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
  if (r.i !== raw.length) throw new CopyError('bad_length');
  if (ibge === 0 || deviceId === 0) throw new CopyError('bad_body');
  return copy;
}

/** body ‖ signature → the fragment text (after '#'). */
export const copyFragment = (bodyBytes, signature) => b32encode(Uint8Array.from([...bodyBytes, ...signature]));

/** The copy's URL for a server origin ("https://host"). */
export const copyUrl = (origin, bodyBytes, signature) => `${origin}${COPY_PATH}${copyFragment(bodyBytes, signature)}`;

/** Fragment text (with or without '#') → {bodyBytes, signature, copy}; throws CopyError. */
export function splitFragment(fragment) {
  const text = (fragment || '').replace(/^#/, '');
  if (!text) throw new CopyError('empty');
  let raw;
  try {
    raw = b32decode(text);
  } catch (error) {
    if (error instanceof Base32Error) throw new CopyError('bad_base32');
    throw error;
  }
  if (raw.length < SIGNATURE_LEN + 45) throw new CopyError('bad_length');
  const bodyBytes = raw.subarray(0, raw.length - SIGNATURE_LEN);
  const signature = raw.subarray(raw.length - SIGNATURE_LEN);
  return { bodyBytes, signature, copy: decodeCopy(bodyBytes) };
}

/**
 * The copy of a sealed auto record body (as the phone keeps it). `citation(c)` formats the
 * record's citation object (the rules' citationLabel); `ibge`, `deviceId` from the field data and
 * the session.
 */
export function copyOfRecord(body, { ibge, deviceId, citation = (c) => (typeof c === 'string' ? c : '') }) {
  return {
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
