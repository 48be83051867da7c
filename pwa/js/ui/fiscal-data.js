// Field-data download with progress: first a full snapshot, later only what changed.
import { download } from '../fiscal/field-data.js';
import { requireFiscal } from '../fiscal/guard.js';
import { handleUnauthorized, isUnauthorized } from '../fiscal/session.js';
import { offlineReadiness } from '../fiscal/readiness.js';
import { el, formatDateTime, mount } from './format.js';

const LABELS = { key: 'Chave do aparelho', trust: 'Crachás e chaves', rules: 'Regras da lei', field: 'Cadastro', numbers: 'Números de auto' };

export async function render(root, { params, navigate }) {
  if (!(await requireFiscal(navigate))) return;
  const bar = el('progress', { id: 'data-progress', max: 1, value: 0, 'aria-label': 'Progresso do download' });
  const label = el('p', { class: 'lead', role: 'status' }, 'Preparando…');
  const list = el('ul', { class: 'list compact', id: 'data-steps' });
  const done = el('button', { type: 'button', class: 'button button-primary button-big', hidden: true, onclick: () => navigate('/fiscal', { replace: true }) }, 'Começar');
  const ready = el('p', { class: 'notice notice-warn', id: 'offline-ready', role: 'status', hidden: true });
  const retry = el('button', { type: 'button', class: 'button button-big', hidden: true, onclick: () => navigate('/fiscal/dados', { replace: true }) }, 'Tentar de novo');
  mount(root, el('h1', {}, params.get('primeira') ? 'Baixando os dados' : 'Atualizar dados'), bar, label, list, ready, done, retry);
  try {
    const { steps } = await download({
      onProgress: (i, total, text) => { bar.max = total; bar.value = i; label.textContent = `${text}…`; },
    });
    label.textContent = `Dados atualizados em ${formatDateTime(new Date().toISOString())}.`;
    list.append(...Object.entries(steps).map(([k, v]) => el('li', { class: v.startsWith('indispon') ? 'list-item item-warn' : 'list-item' },
      el('strong', {}, LABELS[k]), el('span', {}, v === 'ok' ? 'Atualizado' : v === 'unchanged' ? 'Sem mudanças' : v))));
    done.hidden = false;
    ready.hidden = false;
    await offlineReadiness((missing) => {
      ready.dataset.ready = missing.length ? 'no' : 'yes';
      ready.className = missing.length ? 'notice notice-warn' : 'notice';
      ready.textContent = missing.length
        ? `Ainda não está pronto para uso sem internet: falta ${missing.join(', ')}. Não desligue a internet ainda.`
        : 'Pronto para uso sem internet.';
    });
  } catch (error) {
    if (isUnauthorized(error)) {
      const why = await handleUnauthorized(error);
      navigate(`/fiscal/entrar?${why === 'revoked' ? 'revogado' : 'expirado'}=1`, { replace: true });
      return;
    }
    label.textContent = error.offline ? 'Sem conexão. Os dados salvos continuam valendo.' : error.message;
    retry.hidden = false;
    done.hidden = false;
  }
}
