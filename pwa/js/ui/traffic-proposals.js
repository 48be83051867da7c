// The result screen's CTB infractions, apart from the municipal proposals (fiscal/authority.js):
// each is communicated to the traffic authority unless the fiscal says why not. Nothing here
// enters the auto, its copy or its amounts.
import { citationLabel } from '../fiscal/checklist-model.js';
import { COMMUNICATE } from '../fiscal/authority.js';
import { el } from './format.js';

export const TRAFFIC_HINT = 'Infrações do Código de Trânsito: o Município não as autua (CTB, art. 24). Não entram no auto municipal, na cópia do autuado nem nos valores. A Prefeitura as envia ao órgão de trânsito numa comunicação própria: até lá, ficam a comunicar.';

/** decide(id, decision, reason) stores the fiscal's choice (as the municipal cards do). */
export function trafficSection(rules, traffic, decisions, decide) {
  if (!traffic.length) return null;
  const card = (inf) => {
    const current = decisions[inf.id]?.decision;
    const group = `t-${inf.id.replace(/\W/g, '-')}`;
    const reason = el('input', { class: 'input', id: `reason-${inf.id}`, placeholder: 'Por que não comunicar', value: current === 'removed' ? decisions[inf.id]?.reason || '' : '', 'aria-label': `Motivo para não comunicar: ${inf.label_pt}`, oninput: (e) => decide(inf.id, 'removed', e.target.value) });
    const reasonBox = el('div', { hidden: current !== 'removed' }, reason);
    return el('article', { class: 'proposal proposal-traffic', dataset: { infraction: inf.id, authority: 'snt' } },
      el('h3', {}, inf.label_pt),
      el('p', { class: 'citation-line' }, citationLabel(rules, inf.citation)),
      el('div', { class: 'choices', role: 'radiogroup', 'aria-label': `Órgão de trânsito: ${inf.label_pt}` },
        el('label', { class: 'choice' }, el('input', { type: 'radio', name: group, value: COMMUNICATE, checked: current !== 'removed', onchange: () => { reasonBox.hidden = true; decide(inf.id, COMMUNICATE); } }), 'Comunicar'),
        el('label', { class: 'choice' }, el('input', { type: 'radio', name: group, value: 'removed', checked: current === 'removed', onchange: () => { reasonBox.hidden = false; decide(inf.id, 'removed', reason.value); reason.focus(); } }), 'Não comunicar')),
      reasonBox);
  };
  return el('section', { id: 'traffic-proposals', 'aria-labelledby': 'traffic-h' },
    el('h2', { id: 'traffic-h' }, `A comunicar ao órgão de trânsito (${traffic.length})`),
    el('p', { class: 'hint', id: 'traffic-hint' }, TRAFFIC_HINT),
    traffic.map(card));
}
