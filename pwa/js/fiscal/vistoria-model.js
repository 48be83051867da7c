// Vistoria (vehicle inspection before issuing and periodically: Nortelândia art. 2º, Sapezal
// art. 14, Paranatinga art. 9º) on the phone. Pure (Node tests): which checklist items a
// vistoria asks, which requirements the answers fail, the proposed result, the vehicle's
// vistoria state for the verdict, and finding a vehicle in the field data.
// Twin of server/modules/issuance/vistoria_checklist.py (tests/test_vistoria_js_agrees.py).
import { checklist, evaluate } from '../rules/index.js';
import { engineFacts, citationLabel, NOT_CHECKED } from './checklist-model.js';
import { isPlate, normalisePlate } from './field-merge.js';

export const VISTORIA_PREFIXES = ['vehicle.', 'equipment.'];
export const VISTORIA_INPUTS = ['yes_no', 'yes_no_na', 'number'];
export const VISTORIA_KINDS = {
  inicial: 'Vistoria prévia (inicial)', periodica: 'Vistoria periódica',
  retorno: 'Retorno (itens corrigidos)', substituicao: 'Substituição de veículo',
};

/** The packs' checklist questions about the vehicle and its equipment on `date`. */
export function vistoriaItems(rules, date) {
  return checklist(rules, date).filter((item) => VISTORIA_PREFIXES.some((p) => item.fact.startsWith(p))
    && VISTORIA_INPUTS.includes(item.input));
}

/** Failed requirements the answers decide (every fact the requirement holds on answered). */
export function failedRequirements(rules, date, answers) {
  const facts = engineFacts(rules, answers);
  const result = evaluate(rules, date, facts);
  return result.failed.filter((failed) => {
    const refs = rules.byId[failed.requirement]._holds.refs.filter((r) => !r.startsWith('$'));
    return refs.length > 0 && refs.every((r) => Object.prototype.hasOwnProperty.call(facts, r));
  });
}

/** Proposed result: aprovada only if no requirement fails; else the items to fix with article. */
export function proposeResult(rules, date, answers) {
  const failed = failedRequirements(rules, date, answers);
  const items = vistoriaItems(rules, date);
  const toFix = failed.map((f) => {
    const holds = rules.byId[f.requirement]._holds.refs;
    const item = items.find((i) => holds.includes(i.fact));
    return { requirement: f.requirement, fact: item?.fact || null, label_pt: f.label_pt, citation: citationLabel(rules, f.citation) };
  });
  const unanswered = items.filter((i) => answers[i.fact] === undefined || answers[i.fact] === NOT_CHECKED).length;
  return { result: toFix.length ? 'reprovada' : 'aprovada', items_to_fix: toFix, unanswered };
}

/** The vehicle's vistoria as the field data carries it: {state, label}. */
export function vistoriaState(vehicle, today) {
  if (!vehicle) return { state: 'nenhuma', label: 'Sem dados do veículo' };
  const br = (iso) => (iso ? iso.split('-').reverse().join('/') : '');
  const { vistoria_result: result, vistoria_until: until, vistoria_on: on } = vehicle;
  if (result === 'reprovada') return { state: 'reprovada', label: `Reprovada em ${br(on)}` };
  if (result === 'em_revisao') return { state: 'em_revisao', label: `Aprovação de ${br(on)} em revisão na prefeitura` };
  if (until) {
    return until >= today
      ? { state: 'valida', label: `Válida até ${br(until)}` }
      : { state: 'vencida', label: `Vencida em ${br(until)}` };
  }
  if (result === 'aprovada') return { state: 'sem_prazo', label: `Aprovada em ${br(on)} (validade não configurada pela prefeitura)` };
  return { state: 'nenhuma', label: 'Nenhuma vistoria registrada' };
}

/**
 * Vehicles matching a permit number or a plate: those of permits, and (by plate) vehicles the
 * registry holds without a permit yet (vistoria prévia). → [{vehicle, permit, operator, plate}].
 */
export function findVehicles(field, index, text) {
  const found = [];
  const seen = new Set();
  const add = (vehicle, permit, operator) => {
    if (!vehicle || seen.has(vehicle.id)) return;
    seen.add(vehicle.id);
    found.push({ vehicle, permit: permit || null, operator: operator || null, plate: normalisePlate(vehicle.plate) });
  };
  const byNumber = index.byNumber(text);
  if (byNumber) add(byNumber.vehicle, byNumber.permit, byNumber.operator);
  if (isPlate(text)) {
    for (const view of index.byPlate(text)) add(view.vehicle, view.permit, view.operator);
    const plate = normalisePlate(text);
    for (const vehicle of field?.vehicles || []) if (normalisePlate(vehicle.plate) === plate) add(vehicle, null, null);
  }
  return found;
}
