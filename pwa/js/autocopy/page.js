// The operator's copy page (/a/#<copy>): decodes the copy from the fragment, verifies the device
// signature with the key the server publishes for that device, then asks the server whether the
// auto has arrived and, if so, shows where it stands (state, amounts, notificação, deadlines).
// A static module (strict CSP): the page's HTML is fixed, everything here is built with the DOM.
import { makeKeyVerifier, b64urlDecode } from '../credentials/verify.js';
import { CopyError, splitFragment } from './codec.js';
import { amountLabel, defenceLine, permitLabel } from './text.js';
import { howWords, parseHow } from './answers-how.js';
import { formatPlate } from '../ui/format.js';

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c instanceof Node ? c : String(c));
  return node;
}

const dateBr = (iso) => (iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : '');
const dateTimeBr = (local) => `${dateBr(local)} ${local.slice(11, 16)}`;
function serverTime(iso) {
  const d = new Date(iso);
  return `${d.toLocaleDateString('pt-BR')} ${d.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' })}`;
}

function verdict(kind, title, text) {
  $('title').className = `status-${kind}`;
  $('copy-verdict').textContent = title;
  $('copy-status').textContent = text;
  document.body.dataset.copyState = kind;
}

function fact(label, value) {
  return el('div', {}, el('dt', {}, label), el('dd', {}, value));
}

function renderCopy(copy, municipality) {
  if (municipality) $('copy-municipality').textContent = `Prefeitura Municipal de ${municipality.name}/${municipality.uf} · Cópia do autuado`;
  const utc = copy.utc_offset_minutes;
  const how = howWords(parseHow(copy.extra)); // issue 34: how the checklist was answered
  const offset = `UTC${utc < 0 ? '−' : '+'}${String(Math.floor(Math.abs(utc) / 60)).padStart(2, '0')}:${String(Math.abs(utc) % 60).padStart(2, '0')}`;
  $('copy-body').replaceChildren(
    el('h2', {}, `Auto de infração nº ${copy.number || '—'}`),
    el('dl', { class: 'facts' },
      fact('Lavrado em', `${dateTimeBr(copy.issued_at_local)} (${offset}, relógio do aparelho do fiscal)`),
      copy.place ? fact('Local', copy.place) : null,
      copy.plate ? fact('Placa', el('span', { class: 'plate' }, formatPlate(copy.plate))) : null,
      copy.permit_number ? fact(permitLabel(copy), copy.permit_number) : null),
    el('h3', {}, 'Infrações'),
    copy.infractions.length
      ? el('ul', { id: 'copy-infractions' }, copy.infractions.map((inf, i) => el('li', {}, el('strong', {}, inf.label),
        inf.citation ? ` — ${inf.citation}` : '', ` — ${amountLabel(inf)}`,
        how.infraction(i) ? el('span', { class: 'copy-ground' }, ` (${how.infraction(i)})`) : null)))
      : el('p', {}, 'Nenhuma infração confirmada.'),
    el('p', { id: 'copy-answers-how' }, how.summary),
    el('p', { id: 'copy-defence' }, defenceLine(copy)),
  );
}

function renderServer(data) {
  const p = data.process || {};
  const items = [];
  items.push(el('h2', {}, 'Situação no órgão'));
  items.push(el('dl', { class: 'facts' },
    fact('Recebido pelo servidor', serverTime(data.received_at)),
    fact('Situação', el('span', { class: `badge case-${p.state || 'recebido'}`, id: 'server-state' }, p.state_pt || 'Recebido')),
    fact('Notificação', p.notification
      ? `${p.notification.number}, emitida em ${dateBr(p.notification.issued_on)}${p.notification.served_on ? `, recebida em ${dateBr(p.notification.served_on)}` : ', ainda não entregue'}`
      : 'ainda não emitida')));
  items.push(el('h3', {}, 'Valores segundo o servidor'));
  items.push(el('ul', { id: 'server-amounts' }, data.infractions.map((i) => el('li', {}, `${i.label_pt}: ${i.amount_text}`))));
  if (p.deadlines?.length) {
    items.push(el('h3', {}, 'Prazos'));
    items.push(el('ul', { id: 'server-deadlines' }, p.deadlines.map((d) => el('li', {},
      `${d.label_pt}: ${d.text_pt}${d.due_on ? ` (até ${dateBr(d.due_on)})` : ''}${d.instance_pt ? `, perante ${d.instance_pt}` : ''} — ${d.citation_pt}`))));
  }
  if (data.cancel_requested) items.push(el('p', { class: 'flash' }, 'O fiscal pediu o cancelamento deste auto; aguarde a decisão do órgão.'));
  $('copy-server').replaceChildren(...items);
}

const FRAGMENT_ERRORS = {
  empty: 'Endereço sem a cópia do auto: leia de novo o código QR na tela do fiscal.',
  unsupported_version: 'Versão de cópia não suportada: atualize a página ou procure a Prefeitura.',
};

export async function main() {
  let parts;
  try {
    parts = splitFragment(decodeURIComponent(location.hash));
  } catch (error) {
    if (!(error instanceof CopyError)) throw error;
    verdict('cassado', 'Cópia danificada', FRAGMENT_ERRORS[error.code] || 'O código lido está incompleto ou danificado: leia de novo o código QR na tela do fiscal.');
    return;
  }
  const { copy, bodyBytes, signature } = parts;
  let keys;
  // Set when the keys come from this phone's copy worker (pwa/copy-sw.js) instead of the server:
  // the operator's app saved them at its last contact.
  let savedAt = null;
  try {
    const response = await fetch(`/api/v1/public/municipalities/${copy.ibge}/device-keys`, { headers: { Accept: 'application/json' } });
    if (response.status === 404) { verdict('cassado', 'Assinatura inválida', 'Assinatura inválida: a cópia não é de um município atendido.'); return; }
    if (!response.ok) throw new Error(String(response.status));
    savedAt = response.headers.get('X-Copy-Keys-Saved');
    keys = await response.json();
  } catch {
    verdict('vencido', 'Cópia não conferida', 'Sem conexão para conferir a assinatura: abra este endereço de novo quando tiver internet. Os dados abaixo ainda não foram conferidos.');
    renderCopy(copy, null);
    return;
  }
  const key = keys.keys.find((k) => k.device_id === copy.device_id);
  if (!key && savedAt) {
    // A phone enrolled after the keys were saved: not a forgery, just not known here yet.
    verdict('vencido', 'Cópia não conferida', `O aparelho do fiscal não está entre as chaves guardadas neste celular em ${serverTime(savedAt)}: abra este endereço de novo quando tiver internet. Os dados abaixo ainda não foram conferidos.`);
    renderCopy(copy, keys.municipality);
    return;
  }
  const ok = key ? await (await makeKeyVerifier(b64urlDecode(key.public_key))).call(null, signature, bodyBytes) : false;
  if (!ok) {
    verdict('cassado', 'Assinatura inválida', 'Assinatura inválida: esta cópia foi alterada ou não foi feita pelo aparelho de um fiscal do município. Procure a Prefeitura.');
    $('copy-body').replaceChildren();
    return;
  }
  renderCopy(copy, keys.municipality);
  if (key.status === 'revoked') {
    verdict('vencido', 'Aparelho desativado', 'Assinatura do aparelho conferida, mas esse aparelho foi desativado pela Prefeitura: confirme o auto com o órgão.');
    return;
  }
  verdict('ativo', 'Cópia assinada pelo aparelho do fiscal — ainda não recebida pelo servidor', savedAt
    ? `Assinatura conferida neste celular, sem consultar o servidor, com as chaves dos aparelhos do município guardadas em ${serverTime(savedAt)}. O auto chega ao servidor quando o aparelho do fiscal tiver conexão; guarde este endereço e abra de novo mais tarde.`
    : 'Assinatura conferida neste celular com a chave do aparelho do fiscal. O auto chega ao servidor quando o aparelho do fiscal tiver conexão; guarde este endereço e abra de novo mais tarde.');
  try {
    const response = await fetch(`/api/v1/public/autos/${encodeURIComponent(copy.public_token)}`, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    if (!response.ok) return;
    const data = await response.json();
    if (data.number !== copy.number) {
      verdict('vencido', 'Cópia assinada — diverge do servidor', 'A assinatura confere, mas o auto recebido pelo servidor tem outro número: procure a Prefeitura.');
      return;
    }
    verdict('ativo', 'Cópia assinada pelo aparelho do fiscal e recebida pelo servidor',
      `Assinatura conferida; o servidor recebeu o auto em ${serverTime(data.received_at)}.`);
    renderServer(data);
  } catch {
    // Offline after the key: the verified copy stands, the server part stays unknown.
  }
}

main();
