// "Hoje": the day's inspections, vistorias and autos on this phone with their sync state; "Sincronizar
// agora"; storage used; sign-out that refuses to drop unsent records without two confirmations.
import { isPending, OFFLINE_TEXT, STATE_LABELS, stateWords, syncSummary } from '../fiscal/outbox.js';
import { listDrafts, listRecords } from '../fiscal/records.js';
import { signOut, unsentCount } from '../fiscal/session.js';
import { requireFiscal } from '../fiscal/guard.js';
import { onSyncChange, outboxCounts, syncNow } from '../fiscal/sync.js';
import { listVistoriaDrafts } from '../fiscal/vistoria-drafts.js';
import { el, formatPlate, mount } from './format.js';

export async function render(root, { navigate }) {
  if (!(await requireFiscal(navigate))) return undefined;
  const list = el('ul', { class: 'list', id: 'today-list' });
  const status = el('p', { class: 'hint', role: 'status', id: 'sync-status' });
  const storage = el('p', { class: 'hint', id: 'storage' });
  const syncButton = el('button', { type: 'button', class: 'button button-primary button-big', id: 'sync-now' }, 'Sincronizar agora');
  syncButton.addEventListener('click', async () => {
    syncButton.disabled = true;
    status.textContent = navigator.onLine ? 'Enviando…' : OFFLINE_TEXT;
    status.className = 'hint';
    try {
      const words = syncSummary(await syncNow('manual'), await outboxCounts());
      status.textContent = words.text;
      status.className = `sync-status sync-${words.tone}`;
    } catch (error) {
      status.textContent = error.message;
    }
    syncButton.disabled = false;
    draw(); // the list says what the status line says, whatever order the sync's changes came in
  });
  const leave = el('button', { type: 'button', class: 'button button-link', id: 'sign-out' }, 'Sair deste celular');
  leave.addEventListener('click', async () => {
    const unsent = await unsentCount();
    if (unsent > 0) {
      if (!window.confirm(`Há ${unsent} registro(s) que ainda NÃO chegaram ao servidor. Sair apaga esses registros. Continuar?`)) return;
      if (!window.confirm('Tem certeza? Os registros não enviados serão perdidos para sempre.')) return;
    } else if (!window.confirm('Sair e apagar os dados de fiscalização deste celular?')) {
      return;
    }
    await signOut();
    navigate('/', { replace: true });
  });
  mount(root, el('h1', {}, 'Hoje'), syncButton, status, list, storage, leave);

  // Sync changes come in bursts (records and photos in flight together), and each draw reads
  // IndexedDB before it paints: only the latest draw may paint, or an earlier, slower one would
  // put back "Enviando…" after "Tudo enviado".
  let latest = 0;
  const draw = async () => {
    const mine = ++latest;
    const today = new Date().toDateString();
    const records = (await listRecords()).filter((r) => new Date(r.created_at).toDateString() === today || r.state !== 'enviado');
    const drafts = await listDrafts();
    const vistorias = await listVistoriaDrafts();
    if (mine !== latest) return;
    records.sort((a, b) => b.seq - a.seq);
    list.replaceChildren(
      ...drafts.map((d) => el('li', { class: 'list-item' },
        el('a', { href: `#/fiscal/checklist?id=${d.id}` }, el('strong', {}, `Fiscalização em andamento — ${d.subject?.name || formatPlate(d.plate) || 'sem identificação'}`)),
        el('span', { class: 'state state-rascunho' }, STATE_LABELS.rascunho))),
      ...vistorias.map((d) => el('li', { class: 'list-item', dataset: { vistoria: d.id } },
        el('a', { href: `#/fiscal/vistoria/checklist?id=${d.id}` }, el('strong', {}, `Vistoria em andamento — ${formatPlate(d.plate)}`)),
        el('span', { class: 'state state-rascunho' }, STATE_LABELS.rascunho))),
      ...records.map((r) => el('li', { class: 'list-item', dataset: { id: r.id, state: r.state } },
        r.kind === 'auto'
          ? el('a', { href: `#/fiscal/auto-emitido?id=${r.id}` }, el('strong', {}, `Auto nº ${r.summary?.number || ''}`))
          : el('strong', {}, r.kind === 'cancel_request' ? `Pedido de cancelamento do auto nº ${r.summary?.number || ''}`
            : r.kind === 'vistoria' ? `Vistoria — ${r.summary?.result || ''}` : 'Fiscalização'),
        el('span', {}, `${r.summary?.name || 'Sem identificação'} · ${formatPlate(r.summary?.plate) || '—'} · ${new Date(r.created_at).toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' })}`),
        ...((words) => [el('span', { class: `state state-${words.css}` }, words.label),
          words.reason ? el('span', { class: 'hint' }, words.reason) : null])(stateWords(r, navigator.onLine)),
        r.kind === 'auto' ? el('a', { href: `#/fiscal/cancelar?id=${r.id}`, class: 'button button-link' }, 'Solicitar cancelamento') : null)),
    );
    if (!drafts.length && !vistorias.length && !records.length) list.append(el('li', { class: 'empty' }, 'Nenhuma fiscalização hoje.'));
    // No network: the phone says so at once, not only after "Sincronizar agora" (issue 34).
    if (!navigator.onLine && records.some(isPending)) {
      status.textContent = OFFLINE_TEXT;
      status.className = 'sync-status sync-warn';
    } else if (status.textContent === OFFLINE_TEXT) {
      status.textContent = '';
      status.className = 'hint';
    }
    if (navigator.storage?.estimate) {
      const { usage, quota } = await navigator.storage.estimate();
      const persisted = navigator.storage.persisted ? await navigator.storage.persisted() : false;
      storage.textContent = `Espaço usado: ${(usage / 1e6).toFixed(1)} MB de ${(quota / 1e9).toFixed(1)} GB${persisted ? ' (protegido contra limpeza)' : ''}.`;
    }
  };
  await draw();
  const redraw = () => draw();
  window.addEventListener('online', redraw);
  window.addEventListener('offline', redraw);
  const stop = onSyncChange(redraw);
  return () => { stop(); window.removeEventListener('online', redraw); window.removeEventListener('offline', redraw); };
}
