// The operator's copy as a one-page PDF, made on the fiscal's phone offline (share it by
// WhatsApp or e-mail when the operator has no camera at hand): the copy's text and its QR, which
// opens the same verifiable page as the screen's. A minimal PDF 1.4 writer: Helvetica with
// WinAnsiEncoding (every Portuguese letter is in it), text lines and the QR as filled squares.
import { amountLabel } from './text.js';

const PAGE_W = 595; // A4 in points
const PAGE_H = 842;
const MARGIN = 48;

// WinAnsi: Latin-1 for U+00A0..U+00FF, a few typographic marks in 0x80..0x9F, '?' otherwise.
const WIN_ANSI = { 0x2014: 0x97, 0x2013: 0x96, 0x2022: 0x95, 0x2212: 0x2d, 0x2018: 0x91, 0x2019: 0x92, 0x201c: 0x93, 0x201d: 0x94, 0x2026: 0x85 };
function pdfString(text) {
  let out = '';
  for (const ch of String(text)) {
    const cp = ch.codePointAt(0);
    const b = cp < 0x80 || (cp >= 0xa0 && cp <= 0xff) ? cp : (WIN_ANSI[cp] ?? 0x3f);
    if (b === 0x28 || b === 0x29 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b < 0x20 || b > 0x7e) out += `\\${b.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(b);
  }
  return `(${out})`;
}

// Greedy wrap by character count (Helvetica: ~0.5 em a character in running text, up to ~0.72
// em in upper case and digits, as the base32 of the address).
function wrap(text, size, em = 0.5, width = PAGE_W - 2 * MARGIN) {
  const max = Math.max(10, Math.floor(width / (size * em)));
  const lines = [];
  for (const para of String(text).split('\n')) {
    let line = '';
    for (const word of para.split(' ')) {
      let w = word;
      while (w.length > max) { // a URL: cut it
        if (line) { lines.push(line); line = ''; }
        lines.push(w.slice(0, max));
        w = w.slice(max);
      }
      if (!line) line = w;
      else if (line.length + 1 + w.length <= max) line += ` ${w}`;
      else { lines.push(line); line = w; }
    }
    lines.push(line);
  }
  return lines;
}

/**
 * PDF bytes of a decoded copy (codec.decodeCopy's shape). `url`: the copy's address; `qr`: the
 * model of its QR (ui/qr-code.qrModel); `municipality`: {name, uf} or null.
 */
export function copyPdf(copy, { url, qr, municipality = null }) {
  const ops = [];
  let y = PAGE_H - MARGIN;
  const text = (t, size = 10, bold = false, em = 0.5) => {
    for (const line of wrap(t, size, em)) {
      y -= size * 1.35;
      ops.push(`BT /${bold ? 'F2' : 'F1'} ${size} Tf ${MARGIN} ${y.toFixed(1)} Td ${pdfString(line)} Tj ET`);
    }
  };
  const gap = (h) => { y -= h; };
  if (municipality) text(`Prefeitura Municipal de ${municipality.name}${municipality.uf ? `/${municipality.uf}` : ''}`, 10);
  text(`Cópia do autuado — Auto de infração nº ${copy.number || '—'}`, 15, true);
  gap(6);
  const [date, time] = copy.issued_at_local.split('T');
  text(`Lavrado em ${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)} ${time} (relógio do aparelho do fiscal)`);
  if (copy.place) text(`Local: ${copy.place}`);
  if (copy.plate) text(`Placa: ${copy.plate}`);
  if (copy.permit_number) text(`Permissão nº: ${copy.permit_number}`);
  gap(6);
  text('Infrações', 12, true);
  if (!copy.infractions.length) text('Nenhuma infração confirmada.');
  for (const inf of copy.infractions) text(`• ${inf.label}${inf.citation ? ` — ${inf.citation}` : ''} — ${amountLabel(inf)}`);
  gap(6);
  const d = copy.defence;
  text(d.days !== null
    ? `Prazo para defesa: ${d.days} dias${d.instance ? `, perante ${d.instance}` : ''}.`
    : 'Prazo para defesa: conta a partir da notificação; a Prefeitura informa o prazo na notificação.');
  gap(8);
  text('Cópia assinada pelo aparelho do fiscal. Para conferir a assinatura, leia o código QR abaixo ou abra o endereço:', 9);
  text(url, 7, false, 0.72);
  // The QR: 4 modules of quiet zone, at most 260 pt wide, below the text.
  const count = qr.getModuleCount();
  const module = Math.min(260 / (count + 8), (y - MARGIN) / (count + 8));
  const x0 = MARGIN + 4 * module;
  const top = y - 4 * module - 8;
  const squares = [];
  for (let r = 0; r < count; r += 1) {
    for (let c = 0; c < count; c += 1) {
      if (qr.isDark(r, c)) squares.push(`${(x0 + c * module).toFixed(2)} ${(top - (r + 1) * module).toFixed(2)} ${module.toFixed(2)} ${module.toFixed(2)} re`);
    }
  }
  ops.push(`0 g ${squares.join(' ')} f`);

  const content = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((body, i) => { offsets.push(out.length); out += `${i + 1} 0 obj\n${body}\nendobj\n`; });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(out, (c) => c.charCodeAt(0)); // every character is one byte (escaped above)
}
