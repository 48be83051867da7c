// The operator's copy as lines of text, in order: what the PDF (pdf.js) and the paper copy of a
// Bluetooth printer (print/escpos.js) print beside the QR, so both say the same words. Each line
// is {kind, text}; kind tells the printer how to set it: municipality, title, fact, heading,
// item (an infraction), defence, note, url. Pure: no DOM.
import { amountLabel, defenceLine, permitLabel } from './text.js';
import { formatPlate } from '../ui/format.js';
import { howWords, parseHow } from './answers-how.js';

const dateBr = (iso) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/**
 * `copy`: a decoded copy (codec.decodeCopy); `municipality`: {name, uf} or null; `url`: the
 * copy's address, printed under the note when given (the PDF; a paper copy carries the QR only).
 */
export function copyLines(copy, { municipality = null, url = null } = {}) {
  const lines = [];
  const line = (kind, text) => lines.push({ kind, text });
  if (municipality) line('municipality', `Prefeitura Municipal de ${municipality.name}${municipality.uf ? `/${municipality.uf}` : ''}`);
  line('title', `Cópia do autuado — Auto de infração nº ${copy.number || '—'}`);
  const [date, time] = copy.issued_at_local.split('T');
  line('fact', `Lavrado em ${dateBr(date)} ${time} (relógio do aparelho do fiscal)`);
  if (copy.place) line('fact', `Local: ${copy.place}`);
  if (copy.plate) line('fact', `Placa: ${formatPlate(copy.plate)}`);
  if (copy.permit_number) line('fact', `${permitLabel(copy)}: ${copy.permit_number}`);
  line('heading', 'Infrações');
  if (!copy.infractions.length) line('fact', 'Nenhuma infração confirmada.');
  const how = howWords(parseHow(copy.extra)); // issue 34: how the checklist was answered
  copy.infractions.forEach((inf, i) => line('item', `${inf.label}${inf.citation ? ` — ${inf.citation}` : ''} — ${amountLabel(inf)}${how.infraction(i) ? ` (${how.infraction(i)})` : ''}`));
  line('note', how.summary);
  line('defence', defenceLine(copy));
  line('note', url
    ? 'Cópia assinada pelo aparelho do fiscal. Para conferir a assinatura, leia o código QR abaixo ou abra o endereço:'
    : 'Cópia assinada pelo aparelho do fiscal. Para conferir a assinatura, leia o código QR abaixo com a câmera do celular.');
  if (url) line('url', url);
  return lines;
}
