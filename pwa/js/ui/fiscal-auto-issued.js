// A signed auto: immutable. The operator scans the QR with their own phone: it carries the
// operator's copy itself (autocopy/codec.js), signed by this device's key, in the URL fragment
// (https://host/a/#…), so the public page shows and verifies it before this phone ever syncs.
import { formatAge } from '../fiscal/field-data.js';
import { STATE_LABELS, stateWords } from '../fiscal/outbox.js';
import { requireFiscal } from '../fiscal/guard.js';
import { getRecord } from '../fiscal/records.js';
import { deviceKey, session } from '../fiscal/session.js';
import { signBytes } from '../fiscal/device-key.js';
import { loadField } from '../fiscal/field-data.js';
import { citationLabel } from '../fiscal/checklist-model.js';
import { copyFragment, copyOfRecord, copyOrigin, COPY_PATH, encodeCopy, splitFragment } from '../autocopy/codec.js';
import { onSyncChange } from '../fiscal/sync.js';
import { cancelRequestsFor } from './fiscal-cancel.js';
import { printControls } from './copy-print.js';
import { el, formatPlate, mount } from './format.js';
import { qrModel, qrSvg } from './qr-code.js';

export async function render(root, { params, navigate }) {
  if (!(await requireFiscal(navigate))) return undefined;
  const entry = await getRecord(params.get('id'));
  if (!entry) { navigate('/fiscal/hoje', { replace: true }); return undefined; }
  const body = JSON.parse(entry.record.body);
  const { copy, keyRegistered, municipality, origin } = await signedCopy(body);
  const link = copy ? `${origin}${COPY_PATH}${copy}` : `${origin}/a/${body.public_token}`;
  const qr = copy ? copyQr(copy, origin) : qrSvg(link, { label: 'Código QR com o link do auto' });
  // Where the auto is (issue 34: "Guardado no aparelho" without network, never "Enviando…"), and
  // why it has not reached the server (refused for its content, or waiting for it).
  const state = el('p', { class: 'state', id: 'auto-state' });
  const why = el('p', { class: 'hint', id: 'auto-state-reason' });
  const paintState = (current) => {
    const words = stateWords(current, navigator.onLine);
    state.className = `state state-${words.css}`;
    state.textContent = words.label;
    why.textContent = words.reason;
  };
  paintState(entry);
  const cancels = await cancelRequestsFor(entry.id);
  // The operator's copy first: the QR is what the operator's phone reads, so it shows whole
  // without scrolling on a 390×844 phone; what the fiscal reads follows it.
  mount(root,
    el('h1', {}, `Auto nº ${body.number}`),
    el('p', { class: 'hint', id: 'auto-copy-hint' }, copy
      ? 'Cópia do autuado: peça que leia este código com a câmera do celular. Ela vem assinada por este aparelho e abre mesmo antes de o auto chegar ao servidor.'
      : 'Cópia do autuado: peça que leia este código com a câmera do celular.'),
    copy && !keyRegistered
      ? el('p', { class: 'notice notice-warn', id: 'auto-key-pending' }, 'A chave deste aparelho ainda não chegou ao servidor: a cópia só poderá ser conferida depois da próxima sincronização.')
      : null,
    el('div', { class: 'badge-qr auto-copy-qr', id: 'auto-qr', 'data-modules': qr.dataset.modules }, qr),
    ...printControls({ copy, ecc: qr.dataset.ecc, municipality }),
    copy ? el('button', { type: 'button', class: 'button button-big', id: 'share-copy', onclick: (event) => shareCopy(event.currentTarget, copy, link, qr.dataset.ecc, municipality) }, 'Compartilhar cópia (PDF)') : null,
    state,
    why,
    el('p', { class: 'notice', id: 'auto-sealed' }, 'Auto assinado por este aparelho: não pode mais ser alterado. Um erro se corrige com pedido de cancelamento.'),
    cancels.length
      ? el('p', { class: 'notice notice-warn', id: 'auto-cancel-requested' }, `Cancelamento solicitado (${cancels.length}): ${cancels.map((c) => STATE_LABELS[c.state] || c.state).join(', ')}.`)
      : null,
    el('p', {}, `${entry.summary?.name || 'Sem identificação'} · ${formatPlate(body.plate)}`),
    el('p', { class: 'hint', id: 'auto-age' }, `Dados do aparelho ${formatAge(body.data_age_s)} no momento do auto.`),
    el('ul', { class: 'list compact' }, body.infractions.filter((i) => i.decision === 'confirmed').map((i) => el('li', {}, i.label_pt))),
    el('p', { class: 'hint link-text', id: 'auto-link' }, copy ? `${origin}/a/${body.public_token}` : link),
    el('button', { type: 'button', class: 'button button-primary button-big', onclick: () => navigate('/fiscal', { replace: true }) }, 'Nova fiscalização'),
    el('button', { type: 'button', class: 'button button-big', id: 'go-cancel', onclick: () => navigate(`/fiscal/cancelar?id=${entry.id}`) }, 'Solicitar cancelamento'),
  );
  const repaint = async () => {
    const fresh = await getRecord(entry.id);
    if (fresh) paintState(fresh);
  };
  window.addEventListener('online', repaint);
  window.addEventListener('offline', repaint);
  const stop = onSyncChange(repaint);
  return () => { stop(); window.removeEventListener('online', repaint); window.removeEventListener('offline', repaint); };
}

// {copy: base32(copy ‖ device signature) or null when this phone cannot make one (no key, no
// field data: the QR then carries the plain link), keyRegistered: the server has this device's
// public key (registered at enrolment; else retried before every sync), so the page can verify}.
async function signedCopy(body) {
  try {
    const [s, key, data] = await Promise.all([session(), deviceKey(), loadField()]);
    const ibge = data?.field?.municipality?.ibge;
    const origin = publicOrigin(data);
    if (!s?.device_id || !key || !ibge) return { copy: null, keyRegistered: false, municipality: null, origin };
    const rules = data.rules;
    const bytes = encodeCopy(copyOfRecord(body, {
      ibge, deviceId: s.device_id, permitNoun: data.trust?.municipality?.permit_noun || null,
      citation: (c) => (c && typeof c === 'object' && rules ? citationLabel(rules, c) : (typeof c === 'string' ? c : '')),
    }));
    return { copy: copyFragment(bytes, await signBytes(key, bytes)), keyRegistered: Boolean(s.key_registered), origin,
      municipality: data.field.municipality.name ? { name: data.field.municipality.name, uf: data.field.municipality.uf || null, origin } : null };
  } catch (error) {
    console.error('operator copy not made', error);
    return { copy: null, keyRegistered: false, municipality: null, origin: location.origin };
  }
}

// The municipality's own public address (issue 36, sent with the field data), else this page's.
const publicOrigin = (data) => copyOrigin(data?.field?.municipality?.public_base_url, location.origin);

// Error correction M: three infractions take version 12 or so (codec.js compresses the texts),
// ≥ 5 CSS px a module on a 390 px screen. A copy too long for version 15 at M (more infractions
// than a stop has) drops to L rather than growing: a screen held still is not a worn sticker.
const MAX_MODULES_AT_M = 77;
function copyQr(copy, origin) {
  const parts = [`${origin}${COPY_PATH}`, copy];
  const label = 'Código QR com a cópia assinada do auto';
  let qr = qrSvg(parts, { label, ecc: 'M' });
  qr.dataset.ecc = 'M';
  if (Number(qr.dataset.modules) > MAX_MODULES_AT_M) { qr = qrSvg(parts, { label, ecc: 'L' }); qr.dataset.ecc = 'L'; }
  return qr;
}

// The same copy as a one-page PDF (text and QR), shared through the phone's share sheet where
// it takes files, else saved as a download. Works offline: nothing leaves the phone but the file
// (the PDF library is loaded on the first tap, from the service worker's cache).
export async function copyPdfFile(copy, link, ecc, municipality) {
  const decoded = splitFragment(copy).copy;
  const { copyPdf } = await import('../autocopy/pdf.js'); // with its words, on the tap only
  const bytes = await copyPdf(decoded, { url: link, qr: qrModel([`${municipality?.origin || location.origin}${COPY_PATH}`, copy], ecc), municipality });
  return new File([bytes], `copia-auto-${decoded.number || 'auto'}.pdf`, { type: 'application/pdf' });
}

async function shareCopy(button, copy, link, ecc, municipality) {
  button.disabled = true; // one PDF a tap: making it takes a moment now
  let file;
  try {
    file = await copyPdfFile(copy, link, ecc, municipality);
  } finally {
    button.disabled = false;
  }
  if (navigator.canShare?.({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: 'Cópia do auto de infração' });
      return;
    } catch (error) {
      if (error?.name === 'AbortError') return; // the fiscal closed the share sheet
    }
  }
  const a = document.createElement('a');
  a.href = URL.createObjectURL(file);
  a.download = file.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}
