// The operator's autos de infração and their appeal deadlines, from the crachá saved on the
// phone (the server sends them with /operator/me).
import { savedBadge } from '../data/operator.js';
import { el, formatDate } from './format.js';

export async function render(root, { navigate }) {
  const badge = await savedBadge();
  if (!badge) {
    navigate('/operador/entrar', { replace: true });
    return;
  }
  const autos = badge.autos || [];
  root.append(
    el('h1', {}, 'Minhas autuações'),
    autos.length === 0
      ? el('p', { class: 'empty', id: 'autos-empty' }, 'Nenhuma autuação registrada em seu nome.')
      : el('ul', { class: 'list', id: 'autos-list' }, autos.map(autoItem)),
    el('button', { type: 'button', class: 'button button-big', onclick: () => navigate('/operador/cracha') }, 'Voltar ao crachá'),
  );
}

function autoItem(auto) {
  return el('li', { class: 'list-item' },
    el('strong', {}, `Auto nº ${auto.number}`),
    el('span', {}, `${formatDate(auto.date)} — ${auto.description || ''}`),
    el('span', {}, `Situação: ${auto.status_label || auto.status || '—'}`),
    auto.appeal_deadline
      ? el('span', { class: 'deadline' }, `Prazo para recurso: até ${formatDate(auto.appeal_deadline)}`)
      : null);
}
