// Fiscal home: start an inspection (scan, search, no crachá), data age, pending sends.
import { dataAgeSeconds, formatAge, loadField, numbers, NUMBERS_WARN_AT } from '../fiscal/field-data.js';
import { requireFiscal } from '../fiscal/guard.js';
import { listDrafts } from '../fiscal/records.js';
import { onSyncChange, outboxCounts } from '../fiscal/sync.js';
import { el, mount } from './format.js';

export async function render(root, { navigate }) {
  const s = await requireFiscal(navigate);
  if (!s) return undefined;
  const data = await loadField();
  if (!data.trust && !data.rules) {
    navigate('/fiscal/dados?primeira=1', { replace: true });
    return undefined;
  }
  const age = dataAgeSeconds(data);
  const block = await numbers();
  const drafts = await listDrafts();
  const badge = el('span', { class: 'count-badge', id: 'pending-badge', hidden: true });
  const go = (path) => () => navigate(path);
  mount(root, 
    el('h1', {}, `Olá, ${s.user.name.split(' ')[0]}`),
    s.expired ? el('p', { class: 'notice notice-warn', id: 'session-expired' }, 'Sessão expirada: nada é enviado até você ', el('a', { href: '#/fiscal/entrar?expirado=1' }, 'entrar de novo'), '.') : null,
    el('p', { class: age !== null && age > 86400 ? 'notice notice-warn' : 'hint', id: 'data-age' },
      `Dados ${formatAge(age)}. `, el('a', { href: '#/fiscal/dados' }, 'Atualizar dados')),
    block.available.length < NUMBERS_WARN_AT
      ? el('p', { class: 'notice notice-warn', id: 'numbers-low' }, block.available.length
        ? `Restam ${block.available.length} números de auto. Atualize os dados com internet.`
        : 'Sem números de auto neste aparelho: atualize os dados com internet antes de autuar.')
      : null,
    drafts.length
      ? el('div', { class: 'stack' }, drafts.map((d) => el('button', {
        type: 'button', class: 'button button-big button-warn', onclick: go(`/fiscal/checklist?id=${d.id}`),
      }, `Continuar fiscalização: ${d.subject?.name || d.plate || 'sem identificação'}`)))
      : null,
    el('div', { class: 'stack' },
      el('button', { type: 'button', class: 'button button-primary button-huge', id: 'go-scan', onclick: go('/fiscal/ler') }, 'Ler crachá'),
      el('button', { type: 'button', class: 'button button-big', onclick: go('/fiscal/buscar') }, 'Buscar placa, alvará ou nome'),
      el('button', { type: 'button', class: 'button button-big', onclick: go('/fiscal/sem-cracha') }, 'Pessoa sem crachá'),
      el('button', { type: 'button', class: 'button button-big', id: 'go-today', onclick: go('/fiscal/hoje') }, 'Hoje e envios ', badge)),
  );
  const showCounts = async () => {
    const c = await outboxCounts();
    badge.hidden = c.pending === 0;
    badge.textContent = String(c.pending);
    badge.setAttribute('aria-label', `${c.pending} a enviar`);
  };
  showCounts();
  return onSyncChange(showCounts);
}
