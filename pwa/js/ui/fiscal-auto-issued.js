// A signed auto: immutable. The operator scans the QR with their own phone and gets the public
// page (/a/<token>), which says so until the auto reaches the server.
import { formatAge } from '../fiscal/field-data.js';
import { STATE_LABELS } from '../fiscal/outbox.js';
import { requireFiscal } from '../fiscal/guard.js';
import { getRecord } from '../fiscal/records.js';
import { onSyncChange } from '../fiscal/sync.js';
import { cancelRequestsFor } from './fiscal-cancel.js';
import { el, formatPlate, mount } from './format.js';
import { qrSvg } from './qr-code.js';

export async function render(root, { params, navigate }) {
  if (!(await requireFiscal(navigate))) return undefined;
  const entry = await getRecord(params.get('id'));
  if (!entry) { navigate('/fiscal/hoje', { replace: true }); return undefined; }
  const body = JSON.parse(entry.record.body);
  const link = `${location.origin}/a/${body.public_token}`;
  const state = el('p', { class: `state state-${entry.state}`, id: 'auto-state' }, STATE_LABELS[entry.state]);
  // Why it has not reached the server (refused for its content, or waiting for it).
  const why = el('p', { class: 'hint', id: 'auto-state-reason' }, entry.state !== 'enviado' ? entry.error || '' : '');
  const cancels = await cancelRequestsFor(entry.id);
  mount(root, 
    el('h1', {}, `Auto nº ${body.number}`),
    el('p', { class: 'notice', id: 'auto-sealed' }, 'Auto assinado por este aparelho: não pode mais ser alterado. Um erro se corrige com pedido de cancelamento.'),
    state,
    why,
    cancels.length
      ? el('p', { class: 'notice notice-warn', id: 'auto-cancel-requested' }, `Cancelamento solicitado (${cancels.length}): ${cancels.map((c) => STATE_LABELS[c.state] || c.state).join(', ')}.`)
      : null,
    el('p', {}, `${entry.summary?.name || 'Sem identificação'} · ${formatPlate(body.plate)}`),
    el('p', { class: 'hint', id: 'auto-age' }, `Dados do aparelho ${formatAge(body.data_age_s)} no momento do auto.`),
    el('ul', { class: 'list compact' }, body.infractions.filter((i) => i.decision === 'confirmed').map((i) => el('li', {}, i.label_pt))),
    el('h2', {}, 'Cópia do autuado'),
    el('p', { class: 'hint' }, 'Peça ao autuado para ler este código com a câmera do celular dele.'),
    el('div', { class: 'badge-qr', id: 'auto-qr' }, qrSvg(link, { label: 'Código QR com o link do auto' })),
    el('p', { class: 'hint link-text', id: 'auto-link' }, link),
    el('button', { type: 'button', class: 'button button-primary button-big', onclick: () => navigate('/fiscal', { replace: true }) }, 'Nova fiscalização'),
    el('button', { type: 'button', class: 'button button-big', id: 'go-cancel', onclick: () => navigate(`/fiscal/cancelar?id=${entry.id}`) }, 'Solicitar cancelamento'),
  );
  return onSyncChange(async () => {
    const fresh = await getRecord(entry.id);
    if (fresh) {
      state.className = `state state-${fresh.state}`;
      state.textContent = STATE_LABELS[fresh.state];
      why.textContent = fresh.state !== 'enviado' ? fresh.error || '' : '';
    }
  });
}
