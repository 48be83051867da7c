// The operator's copy as a one-page PDF, made on the fiscal's phone offline (share it by
// WhatsApp or e-mail when the operator has no camera at hand): the copy's text and its QR, which
// opens the same verifiable page as the screen's. Written with pdf-lib (npm, copied into vendor/
// at set-up and precached with the shell), loaded only when the fiscal asks for the PDF: Helvetica
// with WinAnsiEncoding (every Portuguese letter is in it), text lines and the QR as filled squares.
import { copyLines } from './lines.js';

const PAGE_W = 595; // A4 in points
const PAGE_H = 842;
const MARGIN = 48;
const WIDTH = PAGE_W - 2 * MARGIN;

let pdfLib = null;
const loadPdfLib = async () => {
  if (!pdfLib) pdfLib = await import(new URL('../../vendor/pdf-lib/pdf-lib.esm.min.js', import.meta.url).href);
  return pdfLib;
};

// A character WinAnsi lacks would make the standard font throw: the minus sign becomes a
// hyphen, anything else '?'.
function winAnsi(font) {
  const known = new Set(font.getCharacterSet());
  return (text) => Array.from(String(text), (ch) => {
    const cp = ch.codePointAt(0);
    if (known.has(cp)) return ch;
    return cp === 0x2212 ? '-' : '?';
  }).join('');
}

// Greedy wrap by the font's own widths; a word wider than the line (the URL) is cut.
function wrap(text, font, size) {
  const fits = (s) => font.widthOfTextAtSize(s, size) <= WIDTH;
  const lines = [];
  for (const para of String(text).split('\n')) {
    let line = '';
    for (const word of para.split(' ')) {
      let w = word;
      while (!fits(w)) {
        if (line) { lines.push(line); line = ''; }
        let n = w.length - 1;
        while (n > 1 && !fits(w.slice(0, n))) n -= 1;
        lines.push(w.slice(0, n));
        w = w.slice(n);
      }
      if (!line) line = w;
      else if (fits(`${line} ${w}`)) line += ` ${w}`;
      else { lines.push(line); line = w; }
    }
    lines.push(line);
  }
  return lines;
}

/**
 * PDF bytes (a promise) of a decoded copy (codec.decodeCopy's shape). `url`: the copy's address;
 * `qr`: the model of its QR (ui/qr-code.qrModel); `municipality`: {name, uf} or null.
 */
export async function copyPdf(copy, { url, qr, municipality = null }) {
  const { PDFDocument, StandardFonts, fill, popGraphicsState, pushGraphicsState, rectangle, setFillingGrayscaleColor } = await loadPdfLib();
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const clean = winAnsi(regular); // Helvetica and Helvetica-Bold share the WinAnsi set
  const page = doc.addPage([PAGE_W, PAGE_H]);
  let y = PAGE_H - MARGIN;
  const text = (t, size = 10, isBold = false) => {
    const font = isBold ? bold : regular;
    for (const line of wrap(clean(t), font, size)) {
      y -= size * 1.35;
      page.drawText(line, { x: MARGIN, y, size, font });
    }
  };
  const gap = (h) => { y -= h; };
  // Each kind of line (lines.js): its size, weight and the space above it.
  const STYLE = {
    municipality: [10, false, 0], title: [15, true, 0], fact: [10, false, 0], heading: [12, true, 6],
    item: [10, false, 0], defence: [10, false, 6], note: [9, false, 8], url: [7, false, 0],
  };
  const lines = copyLines(copy, { municipality, url });
  for (const line of lines) {
    const [size, isBold, above] = STYLE[line.kind];
    if (above) gap(above);
    text(line.kind === 'item' ? `• ${line.text}` : line.text, size, isBold);
    if (line.kind === 'title') gap(6);
  }
  // The QR: 4 modules of quiet zone, at most 260 pt wide, below the text; its dark modules are
  // one filled path of squares (no seams between neighbours).
  const count = qr.getModuleCount();
  const module = Math.min(260 / (count + 8), (y - MARGIN) / (count + 8));
  const x0 = MARGIN + 4 * module;
  const top = y - 4 * module - 8;
  const squares = [];
  for (let r = 0; r < count; r += 1) {
    for (let c = 0; c < count; c += 1) {
      if (qr.isDark(r, c)) squares.push(rectangle(x0 + c * module, top - (r + 1) * module, module, module));
    }
  }
  page.pushOperators(pushGraphicsState(), setFillingGrayscaleColor(0), ...squares, fill(), popGraphicsState());
  doc.setTitle(clean(lines.find((l) => l.kind === 'title').text));
  return doc.save();
}
