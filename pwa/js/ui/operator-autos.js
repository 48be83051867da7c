// The operator's autos de infração as the server holds them (GET /api/v1/operator/autos), with
// their defence deadlines; offline, the last copy saved on the phone.
import { fetchAutos, savedBadge } from '../data/operator.js';
import { el, formatDate, formatDateTime, formatPlate, mount } from './format.js';

export async function render(root, { navigate }) {
  const badge = await savedBadge();
  if (!badge) {
    navigate('/operador/entrar', { replace: true });
    return;
  }
  let answer;
  try {
    answer = await fetchAutos();
  } catch {
    navigate('/operador/entrar', { replace: true });
    return;
  }
  // Before the server had any auto list, the crachá download carried the list (older servers).
  const autos = answer?.autos ?? badge.autos ?? [];
  mount(root,
    el('h1', {}, 'Minhas autuações'),
    answer && !answer.fresh
      ? el('p', { class: 'notice', id: 'autos-sync', role: 'status' }, answer.fetched_at
        ? `Sem conexão: lista salva em ${formatDateTime(answer.fetched_at)}.`
        : 'Sem conexão: não foi possível consultar as autuações.')
      : null,
    autos.length === 0
      ? el('p', { class: 'empty', id: 'autos-empty' }, 'Nenhuma autuação registrada em seu nome.')
      : el('ul', { class: 'list', id: 'autos-list' }, autos.map(autoItem)),
    el('button', { type: 'button', class: 'button button-big', onclick: () => navigate('/operador/cracha') }, 'Voltar ao crachá'),
  );
}

function amountOf(i) {
  if (i.amount_text) return i.amount_text;
  return i.amount_brl != null ? i.amount_brl.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' }) : 'a definir';
}

// Where the auto stands (server's `process`): state, notificação, the deadlines the law sets.
function processLines(p) {
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

function autoItem(auto) {
  const date = auto.issued_at || auto.date;
  const infractions = (auto.infractions || []).map((i) => `${i.label_pt || (i.citation?.art ? `art. ${i.citation.art}${i.citation.inciso ? `, ${i.citation.inciso}` : ''}` : i.id)}: ${amountOf(i)}`);
  const due = auto.defence?.due || auto.appeal_deadline;
  return el('li', { class: 'list-item' },
    el('strong', {}, `Auto nº ${auto.number}`),
    el('span', {}, `${formatDate(date)}${auto.plate ? ` — placa ${formatPlate(auto.plate)}` : ''}`),
    infractions.length ? el('span', { class: 'auto-amounts' }, infractions.join('; ')) : el('span', {}, auto.description || ''),
    auto.cancel_requested ? el('span', {}, 'Cancelamento pedido pelo fiscal.') : null,
    ...(auto.process ? processLines(auto.process)
      : [auto.status_label || auto.status ? el('span', {}, `Situação: ${auto.status_label || auto.status}`) : null,
        due ? el('span', { class: 'deadline' }, `Prazo para defesa: até ${formatDate(due)}`)
          : auto.defence?.deadline_days ? el('span', { class: 'deadline' }, `Prazo para defesa: ${auto.defence.deadline_days} dias`) : null]),
    auto.public_url ? el('a', { href: auto.public_url }, 'Ver o auto') : null);
}
