// pt-BR formatting shared by the screens.

/** "2026-12-31" → "31/12/2026" (date-only values, no time-zone shift). */
export function formatDate(iso) {
  if (!iso) return '—';
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

/** ISO timestamp → "29/11/2026 às 20:10" in the phone's time zone. */
export function formatDateTime(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  const day = date.toLocaleDateString('pt-BR');
  const time = date.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' });
  return `${day} às ${time}`;
}

/** Plate as printed: old format ABC-1234, Mercosul ABC1D23 unchanged. */
export function formatPlate(plate) {
  if (!plate) return '—';
  return /^[A-Z]{3}\d{4}$/.test(plate) ? `${plate.slice(0, 3)}-${plate.slice(3)}` : plate;
}

/** Small DOM helper: el('p', {class: 'x'}, 'text', child…). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** root.append without the "null" text a skipped optional child would leave. */
export function mount(root, ...children) {
  root.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}
