// The operator's autos de infração as the server holds them (GET /api/v1/operator/autos), with
// their deadlines, what the operator filed and the notices sent; offline, the last copy saved on
// the phone. Each auto opens its page (operator-auto.js): defence, receipts, PIX.
import { fetchAutos, savedBadge } from '../data/operator.js';
import { filings, onFilingsChange, startOperatorSync } from '../data/operator-outbox.js';
import { el, formatDate, formatDateTime, formatPlate, mount } from './format.js';
import { STEP_WORDS } from '../fiscal/deadlines.js';

export async function render(root, { navigate }) {
  const badge = await savedBadge();
  if (!badge) {
    navigate('/operador/entrar', { replace: true });
    return undefined;
  }
  let answer;
  try {
    answer = await fetchAutos();
  } catch {
    navigate('/operador/entrar', { replace: true });
    return undefined;
  }
  startOperatorSync();
  // Before the server had any auto list, the crachá download carried the list (older servers).
  const autos = answer?.autos ?? badge.autos ?? [];
  const waiting = await waitingByAuto();
  mount(root,
    el('h1', {}, 'Minhas autuações'),
    answer && !answer.fresh
      ? el('p', { class: 'notice', id: 'autos-sync', role: 'status' }, answer.fetched_at
        ? `Sem conexão: lista salva em ${formatDateTime(answer.fetched_at)}.`
        : 'Sem conexão: não foi possível consultar as autuações.')
      : null,
    autos.length === 0
      ? el('p', { class: 'empty', id: 'autos-empty' }, 'Nenhuma autuação registrada em seu nome.')
      : el('ul', { class: 'list', id: 'autos-list' }, autos.map((auto) => autoItem(auto, waiting.get(auto.id) || 0, navigate))),
    el('button', { type: 'button', class: 'button button-big', onclick: () => navigate('/operador/avisos') }, 'Avisos e contatos'),
    el('button', { type: 'button', class: 'button button-big', onclick: () => navigate('/operador/cracha') }, 'Voltar ao crachá'),
  );
  // A filing sent meanwhile (signal came back): show the server's list with its receipt.
  return onFilingsChange((info) => {
    if (info.done?.sent) navigate('/operador/autos', { replace: true });
  });
}

async function waitingByAuto() {
  const out = new Map();
  for (const entry of await filings()) {
    if (['pronto', 'enviando', 'aguardando', 'erro'].includes(entry.state)) {
      out.set(entry.record.auto_id, (out.get(entry.record.auto_id) || 0) + 1);
    }
  }
  return out;
}

export function amountOf(i) {
  if (i.amount_text) return i.amount_text;
  return i.amount_brl != null ? i.amount_brl.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' }) : 'a definir';
}

// Where the auto stands (server's `process`): state, notificação, the deadlines the law sets.
export function processLines(p) {
  if (!p) return [];
  const note = p.notification
    ? `Notificação ${p.notification.number}, emitida em ${formatDate(p.notification.issued_on)}${p.notification.served_on ? `, recebida em ${formatDate(p.notification.served_on)}` : ', ainda não entregue'}.`
    : 'Notificação: ainda não emitida.';
  return [
    el('span', { class: 'auto-state' }, `Situação: ${p.state_pt}`),
    el('span', { class: 'auto-notification' }, note),
    ...(p.deadlines || []).map((d) => el('span', { class: 'deadline' },
      `${d.label_pt}: ${d.due_on ? `até ${formatDate(d.due_on)}` : d.text_pt}${d.instance_pt ? `, perante ${d.instance_pt}` : ''} (${d.citation_pt}).`)),
  ];
}

// The step as the law names it, from the kind the phone recorded with the auto (issue 34).
const stepWord = (defence) => STEP_WORDS[defence?.kind] || 'defesa ou recurso';

function autoItem(auto, waiting, navigate) {
  const date = auto.issued_at || auto.date;
  const infractions = (auto.infractions || []).map((i) => `${i.label_pt || (i.citation?.art ? `art. ${i.citation.art}${i.citation.inciso ? `, ${i.citation.inciso}` : ''}` : i.id)}: ${amountOf(i)}`);
  const due = auto.defence?.due || auto.appeal_deadline;
  const charges = auto.payment?.charges || [];
  const toPay = charges.filter((c) => c.state === 'aberta').length;
  const unread = (auto.notices || []).filter((n) => !n.read_at).length;
  return el('li', { class: 'list-item' },
    el('strong', {}, `Auto nº ${auto.number}`),
    // A timestamp in the phone's zone (its UTC date is the next day after 20:00 in Cuiabá).
    el('span', {}, `${auto.issued_at ? formatDateTime(auto.issued_at) : formatDate(date)}${auto.plate ? ` — placa ${formatPlate(auto.plate)}` : ''}`),
    infractions.length ? el('span', { class: 'auto-amounts' }, infractions.join('; ')) : el('span', {}, auto.description || ''),
    auto.cancel_requested ? el('span', {}, 'Cancelamento pedido pelo fiscal.') : null,
    ...(auto.process ? processLines(auto.process)
      : [auto.status_label || auto.status ? el('span', {}, `Situação: ${auto.status_label || auto.status}`) : null,
        due ? el('span', { class: 'deadline' }, `Prazo de ${stepWord(auto.defence)}: até ${formatDate(due)}`)
          : auto.defence?.deadline_days ? el('span', { class: 'deadline' }, `Prazo de ${stepWord(auto.defence)}: ${auto.defence.deadline_days} dias`) : null]),
    waiting ? el('span', { class: 'notice notice-warn', role: 'status' }, `${waiting} pedido(s) guardado(s) no celular, aguardando conexão para o protocolo.`) : null,
    unread ? el('span', { class: 'auto-unread' }, `${unread} aviso(s) não lido(s).`) : null,
    toPay ? el('span', { class: 'auto-pay' }, `${toPay} multa(s) a pagar.`) : null,
    auto.id ? el('button', { type: 'button', class: 'button', onclick: () => navigate(`/operador/auto?id=${auto.id}`) }, `Abrir o auto nº ${auto.number}`) : null,
    auto.public_url ? el('a', { href: auto.public_url }, 'Ver o auto') : null);
}
