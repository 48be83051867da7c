// Drawn signature on a canvas (finger or stylus), exported as a PNG Blob.
import { el } from '../ui/format.js';

export function signaturePad(label, id, onChange = () => {}) {
  const canvas = el('canvas', { class: 'signature', id, width: 700, height: 260, role: 'img', 'aria-label': `Área de assinatura: ${label}` });
  const ctx = canvas.getContext('2d');
  ctx.lineWidth = 5;
  ctx.lineCap = 'round';
  ctx.strokeStyle = '#000';
  let drawing = false;
  let empty = true;
  const at = (e) => {
    const r = canvas.getBoundingClientRect();
    return [(e.clientX - r.left) * (canvas.width / r.width), (e.clientY - r.top) * (canvas.height / r.height)];
  };
  canvas.addEventListener('pointerdown', (e) => { drawing = true; canvas.setPointerCapture(e.pointerId); ctx.beginPath(); ctx.moveTo(...at(e)); });
  canvas.addEventListener('pointermove', (e) => { if (!drawing) return; ctx.lineTo(...at(e)); ctx.stroke(); empty = false; });
  canvas.addEventListener('pointerup', () => { drawing = false; onChange(); });
  const clearButton = el('button', { type: 'button', class: 'button', onclick: () => { ctx.clearRect(0, 0, canvas.width, canvas.height); empty = true; onChange(); } }, 'Limpar');
  return {
    node: el('div', { class: 'signature-box' }, el('p', { class: 'question' }, label), canvas, clearButton),
    isEmpty: () => empty,
    toBlob: () => new Promise((resolve) => {
      const out = document.createElement('canvas'); // white background: a transparent PNG prints black
      out.width = canvas.width;
      out.height = canvas.height;
      const o = out.getContext('2d');
      o.fillStyle = '#fff';
      o.fillRect(0, 0, out.width, out.height);
      o.drawImage(canvas, 0, 0);
      out.toBlob(resolve, 'image/png');
    }),
  };
}
