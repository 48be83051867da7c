// Vistoria, step 3: the result the law gives from the answers (aprovada only if no requirement
// fails; reprovada lists the items to fix with their article and asks the return date — no law
// sets that term, the fiscal fixes it), notes, then signed by the device key, chained and queued
// as a record of kind "vistoria" (docs/sync-api.md).
import { loadField } from '../fiscal/field-data.js';
import { requireFiscal } from '../fiscal/guard.js';
import { currentPosition } from '../fiscal/gps.js';
import { commitRecord, deviceClock, getDraft, saveDraft } from '../fiscal/records.js';
import { proposeResult, VISTORIA_KINDS } from '../fiscal/vistoria-model.js';
import { localIsoDate } from '../data/operator.js';
import { setBusy } from '../sw-bridge.js';
import { rulesOf } from '../fiscal/rules-of.js';
import { el, formatPlate, mount } from './format.js';

export async function render(root, { params, navigate }) {
  if (!(await requireFiscal(navigate))) return undefined;
  const draft = await getDraft(params.get('id'));
  if (!draft || draft.mode !== 'vistoria') { navigate('/fiscal', { replace: true }); return undefined; }
  const data = await loadField();
  setBusy(true);
  const rules = rulesOf(data);
  const today = localIsoDate(new Date());
  const proposal = proposeResult(rules, today, draft.answers);
  const rejected = proposal.result === 'reprovada';
  const error = el('p', { class: 'notice notice-error', id: 'vistoria-error', role: 'alert', hidden: true });
  const returnOn = el('input', { id: 'return-on', class: 'input', type: 'date', min: today, value: draft.return_on || '', 'aria-describedby': 'return-hint',
    onchange: async (e) => { draft.return_on = e.target.value || null; error.hidden = true; await saveDraft(draft); } });
  const notes = el('textarea', { id: 'vistoria-notes', class: 'input', rows: '3', maxlength: '2000',
    onchange: async (e) => { draft.notes = e.target.value; await saveDraft(draft); } });
  notes.value = draft.notes || '';
  const sign = el('button', { type: 'button', class: 'button button-primary button-big', id: 'sign-vistoria' }, 'Assinar vistoria');
  sign.addEventListener('click', async () => {
    if (rejected && !(draft.return_on && draft.return_on > today)) {
      error.hidden = false;
      error.textContent = 'Data de retorno: informe uma data depois de hoje para apresentar a moto com os itens corrigidos.';
      returnOn.focus();
      return;
    }
    sign.disabled = true;
    const position = await currentPosition();
    const fresh = await getDraft(draft.id);
    const photos = [...new Set([...(fresh.photos || []), ...Object.values(fresh.item_photos).flat()])];
    await commitRecord({
      id: draft.id, kind: 'vistoria', draftId: draft.id, photos,
      summary: { name: draft.name, plate: draft.plate, permit_number: draft.permit_number, result: proposal.result },
      fields: {
        clock: deviceClock(position.gps_at), gps: position.gps, no_gps_reason: position.reason,
        data_age_s: draft.data_age_s, photos: fresh.photos || [], item_photos: fresh.item_photos,
        vehicle_id: draft.vehicle.id, permit_id: draft.permit_id, permit_number: draft.permit_number, plate: draft.plate,
        operator_id: draft.operator_id, vistoria_kind: draft.vistoria_kind, inspected_on: today,
        answers: fresh.answers, answer_sources: fresh.answer_sources, result: proposal.result,
        items_to_fix: proposal.items_to_fix, return_on: rejected ? fresh.return_on : null, notes: fresh.notes || null,
        pack_versions: rules.packs.map((p) => ({ id: p.id, version: p.version })),
      },
    });
    navigate('/fiscal/hoje', { replace: true });
  });
  mount(root,
    el('h1', {}, 'Resultado da vistoria'),
    el('p', { class: 'lead' }, `${VISTORIA_KINDS[draft.vistoria_kind]} · ${formatPlate(draft.plate)}`),
    el('section', { class: `verdict verdict-${rejected ? 'cassado' : 'valido'}`, id: 'vistoria-verdict', 'aria-live': 'polite' },
      el('p', { class: 'verdict-word', id: 'vistoria-result' }, rejected ? 'REPROVADA' : 'APROVADA'),
      el('p', { class: 'verdict-reason' }, rejected
        ? `${proposal.items_to_fix.length} exigência(s) da lei não atendida(s).`
        : 'Nenhuma exigência da lei deixou de ser atendida nas respostas.')),
    proposal.unanswered ? el('p', { class: 'notice notice-warn', id: 'vistoria-unanswered' }, `${proposal.unanswered} item(ns) sem resposta ou não verificado(s).`) : null,
    rejected ? el('section', { 'aria-labelledby': 'fix-h' },
      el('h2', { id: 'fix-h' }, 'Itens a corrigir'),
      el('ul', { class: 'list compact', id: 'items-to-fix' }, proposal.items_to_fix.map((i) => el('li', { class: 'list-item', dataset: { requirement: i.requirement } },
        el('strong', {}, i.label_pt), el('span', { class: 'citation-line' }, i.citation)))),
      el('label', { for: 'return-on' }, 'Data de retorno'), returnOn,
      el('p', { class: 'hint', id: 'return-hint' }, 'Nenhuma das leis fixa o prazo de retorno: combine a data com o permissionário.')) : null,
    el('label', { for: 'vistoria-notes' }, 'Observações (opcional)'), notes,
    error,
    el('div', { class: 'stack' }, sign,
      el('button', { type: 'button', class: 'button button-big', onclick: () => navigate(`/fiscal/vistoria/checklist?id=${draft.id}`) }, 'Voltar ao checklist')),
  );
  return () => setBusy(false);
}
