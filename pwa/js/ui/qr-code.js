// Renders a QR code as inline SVG, client-side, so the crachá works offline.
// A crachá QR is an upper-case address, HTTPS://HOST/V/<base32 code>, in QR alphanumeric mode at error correction Q
// (see ARCHITECTURE.md, "Credential QR").
import qrcode from '../../vendor/qrcode-generator/qrcode.mjs';

const SVG_NS = 'http://www.w3.org/2000/svg';
const QUIET_ZONE = 4; // modules of white border the QR standard asks for

// `payload` is a string or a list of strings, one QR segment each (the operator's copy puts the
// lower-case "https://host/a/#" in a byte segment and its decimal digits in a numeric one).
// `ecc`: error correction, Q for printed crachás; a screen shown at arm's length can take M.
/** The QR model (getModuleCount, isDark) of a payload, as qrSvg draws it (also the copy's PDF). */
export function qrModel(payload, ecc = 'Q') {
  const qr = qrcode(0, ecc); // 0 = smallest version that fits
  // Each part in the densest mode its characters allow: digits only → numeric (3.33 bits a
  // character); 0-9 A-Z space $%*+-./: → alphanumeric (5.5); anything else bytes (8).
  for (const part of Array.isArray(payload) ? payload : [payload]) {
    qr.addData(part, qrMode(part));
  }
  qr.make();
  return qr;
}

export function qrMode(part) {
  if (/^[0-9]+$/.test(part)) return 'Numeric';
  return /^[0-9A-Z $%*+\-./:]*$/.test(part) ? 'Alphanumeric' : 'Byte';
}

export function qrSvg(payload, { label = 'Código QR do crachá', ecc = 'Q' } = {}) {
  const qr = qrModel(payload, ecc);
  const count = qr.getModuleCount();
  const size = count + QUIET_ZONE * 2;
  let path = '';
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; col += 1) {
      if (qr.isDark(row, col)) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.setAttribute('class', 'qr');
  svg.dataset.modules = String(count);
  const background = document.createElementNS(SVG_NS, 'rect');
  background.setAttribute('width', String(size));
  background.setAttribute('height', String(size));
  background.setAttribute('fill', '#fff');
  const modules = document.createElementNS(SVG_NS, 'path');
  modules.setAttribute('d', path);
  modules.setAttribute('fill', '#000');
  svg.append(background, modules);
  return svg;
}
