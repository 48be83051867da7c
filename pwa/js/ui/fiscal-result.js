// Result: the evaluator's proposals (infractions, amounts, measures, deadlines, recidivism); the
// fiscal confirms or removes each one with a reason. Then the inspection is signed and queued,
// and an auto is drawn up when at least one infraction is confirmed.
import { evaluate } from '../rules/index.js';
import { historyFor } from '../rules/history.js';
import { citationLabel, engineFacts } from '../fiscal/checklist-model.js';
import { instanceDeadlines, instanceText, stepsWord } from '../fiscal/deadlines.js';
import { loadField } from '../fiscal/field-data.js';
import { fieldCalendar } from '../fiscal/field-merge.js';
import { graceNotices } from '../fiscal/grace.js';
import { transitionNotices, withTransitions } from '../fiscal/transitions.js';
import { isTariffItem } from '../fiscal/tariff.js';
import { tariffBlock } from './tariff.js';
import { requireFiscal } from '../fiscal/guard.js';
import { currentPosition } from '../fiscal/gps.js';
import { commitRecord, deviceClock, getDraft, saveDraft } from '../fiscal/records.js';
import { provenanceFields } from '../fiscal/provenance.js';
import { localIsoDate } from '../data/operator.js';
import { setBusy } from '../sw-bridge.js';
import { rulesOf } from '../fiscal/rules-of.js';
import { confirmAll as confirmAllOf, isTraffic, splitProposals, withTrafficDefaults } from '../fiscal/authority.js';
import { trafficSection } from './traffic-proposals.js';
import { el, mount } from './format.js';

// Pure (no DOM): shared with the Node vectors (shared_rules/vectors/amounts/auto-amounts.json).
import { amountText, money } from '../fiscal/amounts.js';

export { amountText, money };

/** What the law says beyond the proposals (SPEC §5): escalations this stop reaches or would
 *  reach (e.g. Paranatinga art. 41, cassação only if not regularized) and general infractions
 *  displaced by a specific one (struck through, with the one that prevails). */
export function lawNotices(rules, evaluation) {
  const label = new Map(rules.infractions.map((i) => [i.id, i]));
  const escalations = evaluation.escalations || [];
  const displaced = evaluation.displaced || [];
  if (!escalations.length && !displaced.length) return null;
  return el('section', { id: 'law-notices' },
    el('h2', {}, 'Avisos da lei'),
    escalations.length ? el('ul', { class: 'list compact', id: 'escalations' }, escalations.map((e) => el('li', { class: 'notice notice-warn', dataset: { escalation: e.id } },
      // would_reach is an announcement: its notice leads ("aviso — não é … agora"), and the rule's
      // own sentence follows as the rule, so that nothing reads as a disqualification already.
      el('strong', {}, e.status === 'reached' ? e.label_pt : `${e.notice_pt.charAt(0).toUpperCase()}${e.notice_pt.slice(1)}.`), el('br'),
      `${e.status === 'reached' ? '' : 'Regra da lei — '}${e.why_pt}${e.measure?.only_if_pt ? ` Somente se ${e.measure.only_if_pt}.` : ''} `,
      el('span', { class: 'citation-line' }, citationLabel(rules, e.citation))))) : null,
    displaced.length ? el('ul', { class: 'list compact', id: 'displaced' }, displaced.map((x) => el('li', { dataset: { infraction: x.id } },
      el('s', {}, label.get(x.id)?.label_pt || x.id), el('br'),
      `Não aplicada: prevalece a norma específica — ${label.get(x.by)?.label_pt || x.by} (${citationLabel(rules, label.get(x.by)?.citation)}).`))) : null);
}

/** Duties the law still gives time to meet (adaptation periods): notices, not infractions. */
export function transitionSection(notices) {
  if (!notices.length) return null;
  return el('section', { id: 'transition-notices' },
    el('h2', {}, 'Em transição (frota existente)'),
    el('ul', { class: 'list compact' }, notices.map((n) => el('li', { class: 'notice notice-warn' }, n.text))));
}

export function graceSection(notices) {
  if (!notices.length) return null;
  return el('section', { id: 'grace-notices' },
    el('h2', {}, 'Prazo de adequação da lei'),
    el('ul', { class: 'list compact' }, notices.map((n) => el('li', { class: 'notice', dataset: { requirement: n.requirement } }, n.text))));
}

export async function render(root, { params, navigate }) {
  if (!(await requireFiscal(navigate))) return undefined;
  const draft = await getDraft(params.get('id'));
  if (!draft) { navigate('/fiscal', { replace: true }); return undefined; }
  setBusy(true);
  const data = await loadField();
  const rules = rulesOf(data);
  const date = localIsoDate(new Date());
  const calendar = fieldCalendar(data.field);
  let evaluation;
  try {
    const rulesIds = new Set(rules.infractions.map((i) => i.id));
    const history = historyFor(data.field?.penalties, draft.subject, rulesIds);
    // The municipality's legal calendar (holidays and closures from the field data): the server's.
    evaluation = evaluate(rules, date, engineFacts(rules, draft.answers), history, calendar);
    // An existing permit recorded in transition (registry import): the law's requirement is a notice.
    evaluation = withTransitions(evaluation, draft.subject?.transitions, date);
  } catch (error) {
    mount(root, el('p', { class: 'notice notice-error', role: 'alert' }, `Não foi possível avaliar: ${error.message}`));
    return () => setBusy(false);
  }
  draft.evaluation = evaluation;
  await saveDraft(draft);
  // One authority per document: CTB infractions go to the traffic authority, apart (authority.js).
  const integrated = Boolean(data.field?.traffic_authority_act);
  const { municipal: failed, traffic } = splitProposals(evaluation.infractions.filter((i) => i.triggered_by?.length), integrated);
  const decisions = withTrafficDefaults(traffic, draft.decisions);
  draft.decisions = decisions;
  await saveDraft(draft);
  const actions = el('div', { class: 'stack' });
  const drawActions = () => {
    const confirmed = failed.filter((i) => decisions[i.id]?.decision === 'confirmed');
    const open = [...failed, ...traffic].filter((i) => !decisions[i.id]?.decision || (decisions[i.id].decision === 'removed' && !decisions[i.id].reason?.trim()));
    // replaceChildren turns null into the text "null": pass only nodes.
    actions.replaceChildren(...[
      open.length ? el('p', { class: 'hint', id: 'open-count' }, `Decida ${open.length} proposta(s) para continuar (remover exige motivo).`) : null,
      el('button', { type: 'button', class: 'button button-primary button-big', id: 'go-auto', disabled: open.length > 0 || !confirmed.length, onclick: () => finish(true) }, `Lavrar auto (${confirmed.length})`),
      el('button', { type: 'button', class: 'button button-big', id: 'finish-no-auto', disabled: open.length > 0 || confirmed.length > 0, onclick: () => finish(false) }, 'Concluir sem auto'),
    ].filter(Boolean));
  };
  const decide = async (id, decision, reason = '') => {
    decisions[id] = { decision, reason };
    await saveDraft({ ...draft, decisions });
    drawActions();
  };
  const card = (inf) => {
    const reason = el('input', { class: 'input', id: `reason-${inf.id}`, placeholder: 'Motivo da remoção', value: decisions[inf.id]?.reason || '', 'aria-label': `Motivo para remover: ${inf.label_pt}`, oninput: (e) => decide(inf.id, 'removed', e.target.value) });
    const group = `d-${inf.id.replace(/\W/g, '-')}`;
    const current = decisions[inf.id]?.decision;
    const reasonBox = el('div', { hidden: current !== 'removed' }, reason);
    return el('article', { class: 'proposal', dataset: { infraction: inf.id } },
      el('h3', {}, inf.label_pt),
      el('p', { class: 'citation-line' }, citationLabel(rules, inf.citation)),
      isTariffItem({ label_pt: inf.label_pt, citations: [inf.citation] }) ? tariffBlock(data.field?.tariff, { id: `tariff-${group}` }) : null,
      el('p', { class: 'amount' }, amountText(inf.amount, inf.penalty, integrated && isTraffic(inf) ? { ...inf, integrated } : inf)),
      inf.measures?.length ? el('p', {}, `Medidas: ${inf.measures.map((m) => `${m.label_pt || m.kind || m.id}${m.only_if_pt ? ` (${/^somente\b/.test(m.only_if_pt) ? '' : 'somente se '}${m.only_if_pt})` : ''}`).join('; ')}`) : null,
      // The engine's own sentence: applied, not applied, or undetermined (window not configured).
      inf.recidivism?.why_pt && inf.recidivism.applied !== false
        ? el('p', { class: 'notice notice-warn recidivism' }, inf.recidivism.why_pt) : null,
      el('div', { class: 'choices', role: 'radiogroup', 'aria-label': `Decisão: ${inf.label_pt}` },
        el('label', { class: 'choice' }, el('input', { type: 'radio', name: group, value: 'confirmed', checked: current === 'confirmed', onchange: () => { reasonBox.hidden = true; decide(inf.id, 'confirmed'); } }), 'Confirmar'),
        el('label', { class: 'choice' }, el('input', { type: 'radio', name: group, value: 'removed', checked: current === 'removed', onchange: () => { reasonBox.hidden = false; decide(inf.id, 'removed', reason.value); reason.focus(); } }), 'Remover')),
      reasonBox);
  };
  const proposals = el('div', { id: 'proposals' }, failed.map(card));
  const confirmAll = async () => {
    Object.assign(decisions, confirmAllOf(failed, decisions)); // never a CTB infraction (authority.js)
    await saveDraft({ ...draft, decisions });
    proposals.replaceChildren(...failed.map(card));
    drawActions();
  };
  const finish = async (withAuto) => {
    actions.querySelectorAll('button').forEach((b) => { b.disabled = true; });
    const position = await currentPosition();
    const photos = Object.values(draft.item_photos).flat();
    const fresh = await getDraft(draft.id);
    await commitRecord({
      id: draft.id, kind: 'inspection', draftId: draft.id, photos,
      summary: { name: draft.subject?.name || null, plate: draft.plate, permit_number: draft.permit_number },
      fields: {
        clock: deviceClock(position.gps_at), gps: position.gps, no_gps_reason: position.reason,
        data_age_s: draft.data_age_s, photos, permit_number: draft.permit_number, plate: draft.plate,
        operator_id: draft.subject?.operator_id ?? null,
        credential: draft.credential ? { verdict: draft.credential.verdict, reason: draft.credential.reason, payload_text: draft.credential.payload_text } : null,
        answers: fresh.answers, answer_sources: fresh.answer_sources, item_photos: fresh.item_photos,
        ...provenanceFields(fresh), // how each answer was given (issue 34)
        evaluation, decisions: fresh.decisions, pack_versions: evaluation.packs,
      },
      draftUpdate: withAuto ? (d) => ({ ...d, step: 'auto', inspection_sealed: true, evaluation }) : null,
    });
    navigate(withAuto ? `/fiscal/auto?id=${draft.id}` : '/fiscal/hoje', { replace: true });
  };
  if (draft.inspection_sealed) { navigate(`/fiscal/auto?id=${draft.id}`, { replace: true }); return () => setBusy(false); }
  mount(root, 
    el('h1', {}, 'Resultado'),
    failed.length
      ? el('p', { class: 'lead', id: 'result-summary' }, `${failed.length} infração(ões) proposta(s) pela lei. Confirme ou remova cada uma.`)
      : el('p', { class: 'notice', id: 'result-summary' }, traffic.length ? 'Nenhuma infração da lei municipal nas respostas.' : 'Nenhuma infração encontrada nas respostas.'),
    evaluation.undecided.length ? el('p', { class: 'hint' }, `${evaluation.undecided.length} item(ns) sem decisão por falta de resposta ou de configuração.`) : null,
    failed.filter((i) => !isTraffic(i)).length > 1 ? el('button', { type: 'button', class: 'button button-big', id: 'confirm-all', onclick: confirmAll }, `Confirmar todas (${failed.filter((i) => !isTraffic(i)).length})`) : null,
    proposals,
    trafficSection(rules, traffic, decisions, decide),
    lawNotices(rules, evaluation),
    graceSection(graceNotices(rules, evaluation, calendar, citationLabel)),
    transitionSection(transitionNotices(evaluation)),
    // Only the deadlines this stop opens: the defence/appeal instances, once there is an infraction.
    failed.length && instanceDeadlines(evaluation.deadlines).length
      ? el('section', { id: 'result-deadlines' }, el('h2', {}, `Prazos de ${stepsWord(instanceDeadlines(evaluation.deadlines))}`), el('ul', { class: 'list compact' }, instanceDeadlines(evaluation.deadlines).map((d, i) => el('li', {}, instanceText(d, i)))))
      : null,
    actions,
    el('button', { type: 'button', class: 'button button-big', onclick: () => navigate(`/fiscal/checklist?id=${draft.id}`) }, 'Voltar ao checklist'),
  );
  drawActions();
  return () => setBusy(false);
}
