// "Imprimir cópia": the operator's signed copy on paper, from a Bluetooth LE thermal printer at
// the roadside, offline — for the operator with no smartphone. The same text and QR as the
// screen's and the PDF's (autocopy/lines.js). The printing modules (print/printer.js,
// print/escpos.js) load on the first tap, like the PDF's. Where the browser has no Web
// Bluetooth (iPhone, iPad) this says so and the PDF share remains.
import { COPY_PATH, splitFragment } from '../autocopy/codec.js';
import { el } from './format.js';
import { qrModel } from './qr-code.js';

const hasBluetooth = () => Boolean(navigator.bluetooth?.requestDevice);

/** The print button, the saved printer's line and the print status, for a signed `copy`. */
export function printControls({ copy, ecc, municipality }) {
  if (!copy) return [];
  if (!hasBluetooth()) {
    return [el('p', { class: 'hint', id: 'print-unavailable' }, 'Este navegador não imprime por Bluetooth: entregue a cópia pelo código QR ou em PDF.')];
  }
  const status = el('p', { class: 'hint', id: 'print-status', role: 'status' });
  const printer = el('p', { class: 'hint', id: 'print-printer' });
  const showPrinter = async () => {
    const { savedPrinter } = await import('../print/printer.js');
    const saved = await savedPrinter();
    printer.replaceChildren(saved?.id ? `Impressora: ${saved.name || 'sem nome'}, papel de ${saved.paper} mm. ` : 'Nenhuma impressora pareada: o toque em imprimir procura uma. ',
      el('a', { href: '#/fiscal/impressora', id: 'printer-settings' }, 'Impressora e papel'));
  };
  const button = el('button', {
    type: 'button', class: 'button button-big', id: 'print-copy',
    onclick: async () => {
      button.disabled = true; // one print a tap
      try {
        status.textContent = await printCopy(copy, ecc, municipality, (text) => { status.textContent = text; });
      } catch (error) {
        status.textContent = error?.message || String(error);
      } finally {
        button.disabled = false;
        showPrinter().catch(() => {});
      }
    },
  }, 'Imprimir cópia (Bluetooth)');
  showPrinter().catch(() => {});
  return [button, printer, status];
}

/** Print the copy on the saved printer (or one chosen now); resolves to the words to show. */
export async function printCopy(copy, ecc, municipality, say = () => {}) {
  say('Procurando a impressora…');
  const [{ printBytes, savedPrinter }, { copyReceipt }] = await Promise.all([import('../print/printer.js'), import('../print/escpos.js')]);
  const paper = (await savedPrinter())?.paper || 58;
  const bytes = copyReceipt(splitFragment(copy).copy, {
    qr: qrModel([`${municipality?.origin || location.origin}${COPY_PATH}`, copy], ecc || 'M'), municipality, paper,
  });
  let shown = -1;
  const { name } = await printBytes(bytes, {
    onProgress: (sent, total) => {
      const tenth = Math.floor((sent / total) * 10);
      if (tenth !== shown) { shown = tenth; say(`Imprimindo… ${tenth * 10} %`); }
    },
  });
  return name ? `Cópia impressa em ${name}.` : 'Cópia impressa.';
}
