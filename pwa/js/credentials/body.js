// Credential payload layout, version 1 — mirror of server/modules/credentials/codec.py; the
// byte-by-byte table is in docs/credentials.md. Two envelopes of the same signed body:
//   HTTPS://HOST/V/<base32(body ‖ signature)>  (issued now; scheme and host in any case)
//   MF1:<base45(body ‖ signature)>             (first format; verifies until those expire)
import { b45decode, Base45Error } from './base45.js';
import { b32decode, Base32Error } from './base32.js';

export const PREFIX = 'MF1:';
export const URL_PATH = '/V/';
const HOST_RE = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]{1,5})?$/;
export const FORMAT_VERSION = 1;
export const EPOCH_MS = Date.UTC(2020, 0, 1);
export const SIGNATURE_LEN = 64;
export const HEADER_LEN = 12;
export const MAX_PERMIT_NUMBER_LEN = 20;
const DAY_MS = 86400000;

export class CodecError extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
}

// Body bytes (without signature) -> fields; throws CodecError with the verdict reason code.
export function decodeBody(raw) {
  if (raw.length < HEADER_LEN + 1) throw new CodecError('bad_length');
  if (raw[0] !== FORMAT_VERSION) throw new CodecError('unsupported_version');
  const n = raw[11];
  if (n < 1 || n > MAX_PERMIT_NUMBER_LEN || raw.length !== HEADER_LEN + n) throw new CodecError('bad_length');
  let permitNumber = '';
  for (let i = HEADER_LEN; i < raw.length; i++) {
    if (raw[i] < 0x20 || raw[i] > 0x7e) throw new CodecError('bad_body');
    permitNumber += String.fromCharCode(raw[i]);
  }
  const kid = raw[1];
  const ibge = (raw[2] << 16) | (raw[3] << 8) | raw[4];
  const serial = raw[5] * 2 ** 24 + ((raw[6] << 16) | (raw[7] << 8) | raw[8]);
  if (kid === 0 || ibge === 0 || ibge > 9999999 || serial === 0) throw new CodecError('bad_body');
  const days = (raw[9] << 8) | raw[10];
  return {
    version: raw[0],
    kid,
    ibge_code: ibge,
    serial,
    expires_on: new Date(EPOCH_MS + days * DAY_MS).toISOString().slice(0, 10),
    permit_number: permitNumber,
  };
}

// The base32 code of a URL-form payload, or null when the text is not one.
export function urlCode(text) {
  const sep = text.indexOf('://');
  if (sep < 0 || !['http', 'https'].includes(text.slice(0, sep).toLowerCase())) return null;
  const rest = text.slice(sep + 3);
  const slash = rest.indexOf('/');
  if (slash < 0 || !HOST_RE.test(rest.slice(0, slash))) return null;
  const path = rest.slice(slash);
  return path.startsWith(URL_PATH) ? path.slice(URL_PATH.length) : null;
}

function splitRaw(raw) {
  if (raw.length < HEADER_LEN + 1 + SIGNATURE_LEN) throw new CodecError('bad_length');
  const bodyBytes = raw.subarray(0, raw.length - SIGNATURE_LEN);
  const signature = raw.subarray(raw.length - SIGNATURE_LEN);
  return { bodyBytes, body: decodeBody(bodyBytes), signature };
}

function decodeWith(decode, ErrorClass, text, code) {
  try {
    return decode(text);
  } catch (err) {
    if (err instanceof ErrorClass) throw new CodecError(code);
    throw err;
  }
}

// Payload text, either envelope -> { bodyBytes, body, signature }. Strict: no trimming, no case
// folding beyond the URL's scheme and host.
export function splitPayload(text) {
  if (typeof text !== 'string' || text === '') throw new CodecError('empty');
  if (text.startsWith(PREFIX)) return splitRaw(decodeWith(b45decode, Base45Error, text.slice(PREFIX.length), 'bad_base45'));
  const code = urlCode(text);
  if (code === null) throw new CodecError('bad_prefix');
  return splitRaw(decodeWith(b32decode, Base32Error, code, 'bad_base32'));
}
