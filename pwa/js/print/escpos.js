// The operator's copy as ESC/POS bytes for a portable thermal printer (58 or 80 mm paper): the
// copy's lines (autocopy/lines.js) in code page 850 (cp850.js), and its QR as a raster image
// (GS v 0) — the same QR the screen shows, module for module. Raster rather than the printer's
// own QR command (GS ( k): every ESC/POS printer prints a raster image, while the QR command is
// missing from many portable ones and the rest pick their own version and mode, so the paper's
// QR would not be the one measured on screen. Pure: no DOM, no Bluetooth (print/printer.js).
import { copyLines } from '../autocopy/lines.js';
import { encodeCp850, ESC_T_CP850 } from './cp850.js';

const ESC = 0x1b;
const GS = 0x1d;
const LF = 0x0a;

// Printable width at 203 dpi (8 dots a mm) and Font A (12 dots) columns per paper width.
export const PAPER = {
  58: { dots: 384, columns: 32 },
  80: { dots: 576, columns: 48 },
};
// A QR module of 4 dots is 0.5 mm: a phone reads it from the paper at a hand's length, and the
// image stays small (a version-11 QR is ~10 KB of raster for a 20-byte Bluetooth write at a time).
const DOTS_PER_MODULE = 4;
const QUIET_ZONE = 4; // modules of white around the QR, as the standard asks
const BAND_ROWS = 64; // rows per GS v 0 command: a portable printer's buffer takes a band at a time

/** Bytes of `text` wrapped to `columns` (greedy, by spaces; a longer word is cut). */
export function wrapBytes(bytes, columns) {
  const lines = [];
  let line = [];
  const words = [];
  let word = [];
  for (const b of bytes) {
    if (b === 0x20) { words.push(word); word = []; } else word.push(b);
  }
  words.push(word);
  for (let w of words) {
    while (w.length > columns) {
      if (line.length) { lines.push(line); line = []; }
      lines.push(w.slice(0, columns));
      w = w.slice(columns);
    }
    if (!line.length) line = w;
    else if (line.length + 1 + w.length <= columns) line = [...line, 0x20, ...w];
    else { lines.push(line); line = w; }
  }
  lines.push(line);
  return lines;
}

/** A QR model (getModuleCount, isDark) → {widthBytes, rows, data}: 1 bit a dot, dark = 1, left padded. */
export function rasterQr(qr, paperDots) {
  const count = qr.getModuleCount();
  const size = count + 2 * QUIET_ZONE;
  const dots = Math.max(1, Math.min(DOTS_PER_MODULE, Math.floor(paperDots / size)));
  const side = size * dots;
  const pad = Math.floor((paperDots - side) / 2 / 8) * 8; // centred, on a byte boundary
  const widthBytes = Math.ceil((pad + side) / 8);
  const data = new Uint8Array(widthBytes * side);
  for (let y = 0; y < side; y += 1) {
    const r = Math.floor(y / dots) - QUIET_ZONE;
    for (let x = 0; x < side; x += 1) {
      const c = Math.floor(x / dots) - QUIET_ZONE;
      if (r >= 0 && c >= 0 && r < count && c < count && qr.isDark(r, c)) {
        const at = pad + x;
        data[y * widthBytes + (at >> 3)] |= 0x80 >> (at & 7);
      }
    }
  }
  return { widthBytes, rows: side, data, dotsPerModule: dots };
}

function rasterCommands({ widthBytes, rows, data }) {
  const out = [];
  for (let top = 0; top < rows; top += BAND_ROWS) {
    const n = Math.min(BAND_ROWS, rows - top);
    out.push(GS, 0x76, 0x30, 0, widthBytes & 0xff, widthBytes >> 8, n & 0xff, n >> 8);
    for (let i = top * widthBytes; i < (top + n) * widthBytes; i += 1) out.push(data[i]);
  }
  return out;
}

/**
 * The paper copy: `copy` decoded (codec.decodeCopy), `qr` its QR model (the screen's),
 * `municipality` {name, uf} or null, `paper` 58 or 80 → Uint8Array of ESC/POS commands.
 */
export function copyReceipt(copy, { qr, municipality = null, paper = 58 }) {
  const { dots, columns } = PAPER[paper] || PAPER[58];
  const out = [ESC, 0x40, ESC, 0x74, ESC_T_CP850]; // initialise; code page 850
  const align = (n) => out.push(ESC, 0x61, n); // 0 left, 1 centre
  const bold = (on) => out.push(ESC, 0x45, on ? 1 : 0);
  const print = (text, indent = '') => {
    const lines = wrapBytes(encodeCp850(text), columns - indent.length);
    lines.forEach((line, i) => out.push(...encodeCp850(i ? ' '.repeat(indent.length) : ''), ...line, LF));
  };
  for (const { kind, text } of copyLines(copy, { municipality })) {
    if (kind === 'municipality') { align(1); print(text); continue; }
    if (kind === 'title') { align(1); bold(true); print(text); bold(false); align(0); out.push(LF); continue; }
    if (kind === 'heading') { out.push(LF); bold(true); print(text); bold(false); continue; }
    if (kind === 'item') { out.push(...encodeCp850('- ')); print(text, '- '); continue; }
    if (kind === 'defence' || kind === 'note') { out.push(LF); print(text); continue; }
    print(text);
  }
  out.push(LF, ...rasterCommands(rasterQr(qr, dots)));
  out.push(ESC, 0x64, 4); // feed 4 lines: the copy clears the tear bar
  return Uint8Array.from(out);
}

/** A test page for the printer screen: the paper width, every accented letter a copy prints, a QR. */
export function testReceipt({ qr, paper = 58, name = '' }) {
  const { dots, columns } = PAPER[paper] || PAPER[58];
  const out = [ESC, 0x40, ESC, 0x74, ESC_T_CP850, ESC, 0x61, 1, ESC, 0x45, 1];
  const print = (text) => wrapBytes(encodeCp850(text), columns).forEach((line) => out.push(...line, LF));
  print('Motofiscal: teste de impressão');
  out.push(ESC, 0x45, 0);
  print(`${name ? `${name}, ` : ''}papel de ${paper} mm (${columns} colunas)`);
  print('-'.repeat(columns));
  print('á à â ã é ê í ó ô õ ú ü ç');
  print('Á À Â Ã É Ê Í Ó Ô Õ Ú Ü Ç');
  print('nº 1º 2ª § 3º');
  out.push(LF, ...rasterCommands(rasterQr(qr, dots)), ESC, 0x64, 4);
  return Uint8Array.from(out);
}
