// Byte-aligned LZSS with a preset dictionary, for the texts of the operator's copy (codec.js).
// A copy's texts are a few short Portuguese sentences, most of them an infraction's title and
// citation as the rule packs word them: with those packs' words as a preset dictionary a whole
// title-and-citation is one 3-byte match, and a text no pack has still finds its words. Without a
// dictionary, LZ gains almost nothing on 300 bytes; deflate's preset dictionary is not reachable
// from the browser's CompressionStream, hence this small format of our own.
//
// Stream: groups of one flag byte and up to 8 items; flag bit i (least significant first) = 1 →
// a match: 2 bytes distance (big-endian, 1..65535, counted back from the current end of
// dictionary ‖ output) and 1 byte length − MIN_MATCH; 0 → one literal byte. The stream ends with
// its input (a last group may hold fewer than 8 items). Pure: no DOM, no storage.

export const MIN_MATCH = 4; // a 3-byte match saves nothing over 3 literals
const MAX_MATCH = MIN_MATCH + 255;
const MAX_DISTANCE = 0xffff;
// A copy's texts are a few hundred bytes; a stream that claims more is not a copy.
export const MAX_OUTPUT = 32768;

export class LzError extends Error {
  constructor(code) { super(code); this.code = code; }
}

const key = (buf, i) => ((buf[i] << 24) | (buf[i + 1] << 16) | (buf[i + 2] << 8) | buf[i + 3]) >>> 0;

// Positions of every 4-byte sequence of a dictionary, built once per dictionary.
const indexes = new WeakMap();
function dictionaryIndex(dict) {
  let index = indexes.get(dict);
  if (!index) {
    index = new Map();
    for (let i = 0; i + MIN_MATCH <= dict.length; i += 1) {
      const k = key(dict, i);
      const list = index.get(k);
      if (list) list.push(i); else index.set(k, [i]);
    }
    indexes.set(dict, index);
  }
  return index;
}

/** `data` (Uint8Array) → compressed bytes, against `dict` (Uint8Array, ≤ 65535 bytes used). */
export function compress(data, dict) {
  const buf = new Uint8Array(dict.length + data.length);
  buf.set(dict);
  buf.set(data, dict.length);
  const dictIndex = dictionaryIndex(dict);
  const own = new Map(); // 4-byte sequences of the data itself, as it is passed
  const out = [];
  let flagAt = -1;
  let items = 8;
  const item = (isMatch) => {
    if (items === 8) { flagAt = out.length; out.push(0); items = 0; }
    if (isMatch) out[flagAt] |= 1 << items;
    items += 1;
  };
  const remember = (i) => {
    if (i + MIN_MATCH > buf.length) return;
    const k = key(buf, i);
    const list = own.get(k);
    if (list) list.push(i); else own.set(k, [i]);
  };
  let i = dict.length;
  while (i < buf.length) {
    let bestLen = 0;
    let bestPos = 0;
    if (i + MIN_MATCH <= buf.length) {
      const k = key(buf, i);
      for (const list of [dictIndex.get(k), own.get(k)]) {
        for (const pos of list || []) {
          if (i - pos > MAX_DISTANCE) continue;
          let n = MIN_MATCH;
          while (n < MAX_MATCH && i + n < buf.length && buf[pos + n] === buf[i + n]) n += 1;
          if (n > bestLen || (n === bestLen && pos > bestPos)) { bestLen = n; bestPos = pos; }
        }
      }
    }
    if (bestLen >= MIN_MATCH) {
      item(true);
      const distance = i - bestPos;
      out.push(distance >> 8, distance & 0xff, bestLen - MIN_MATCH);
      for (let j = 0; j < bestLen; j += 1) remember(i + j);
      i += bestLen;
    } else {
      item(false);
      out.push(buf[i]);
      remember(i);
      i += 1;
    }
  }
  return Uint8Array.from(out);
}

/** Compressed bytes → the data, against the same `dict`; throws LzError on a malformed stream. */
export function decompress(packed, dict) {
  const buf = new Uint8Array(dict.length + MAX_OUTPUT);
  buf.set(dict);
  let end = dict.length;
  let i = 0;
  while (i < packed.length) {
    const flags = packed[i++];
    for (let bit = 0; bit < 8 && i < packed.length; bit += 1) {
      if (flags & (1 << bit)) {
        if (i + 3 > packed.length) throw new LzError('truncated');
        const distance = (packed[i] << 8) | packed[i + 1];
        const length = packed[i + 2] + MIN_MATCH;
        i += 3;
        if (distance === 0 || distance > end) throw new LzError('bad_distance');
        if (end + length > buf.length) throw new LzError('too_long');
        for (let j = 0; j < length; j += 1, end += 1) buf[end] = buf[end - distance];
      } else {
        if (end + 1 > buf.length) throw new LzError('too_long');
        buf[end++] = packed[i++];
      }
    }
  }
  return buf.slice(dict.length, end);
}
