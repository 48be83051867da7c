// The texts of an auto's sources (SPEC §8 "auto field sources"): everything the phone already
// knows — registry and verdict, the confirmed infractions, the fiscal's account and the
// municipality, the clock, the signature pads, the defence deadline — so that the fiscal types
// only the place (and optional observations). Pure (Node tests): no DOM, no storage. The record
// carries these texts (`auto_sources`) and the values autoForm() joins from them (`auto_fields`);
// the server joins the same texts with auto_form() for the notificação.
import { citationLabel } from './checklist-model.js';
import { STEP_WORDS } from './deadlines.js';
import { formatPlate } from '../ui/format.js';

const pad = (n) => String(n).padStart(2, '0');

/** "dd/mm/aaaa HH:MM" in the phone's local time (the municipality's). */
export function localDateTime(date) {
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** One plate format on every surface (issue 34, item 4; the server's core.ptbr.plate): the old
 *  grey plate "ABC-1234", the Mercosul plate as embossed, "ABC1D23". */
export function plateText(plate) {
  const p = String(plate || '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  return p ? formatPlate(p) : '';
}

/** The first step's deadline as printed, named as the law names it ("Prazo de recurso: 3 dias"):
 *  days and instance where the law sets them, else who sets them. */
export function defenceText(defence) {
  if (!defence) return '';
  const step = STEP_WORDS[defence.kind] || 'defesa';
  const days = defence.days != null ? `Prazo de ${step}: ${defence.days} dias` : `Prazo de ${step}: fixado pela prefeitura (a lei não fixa)`;
  return `${days}${defence.instance_pt ? `, ${defence.instance_pt}` : ''}`;
}

export function autoAtoms({ rules, draft, confirmed, fiscal, municipality, place, at, fiscalSigned, operatorSigned, operatorRefused, defence, observations }) {
  const s = draft.subject || {};
  const vehicle = s.vehicle || {};
  const cite = (i) => citationLabel(rules, i.citation);
  const makeModel = [vehicle.make, vehicle.model].filter(Boolean).join(' ');
  return {
    place: (place || '').trim(),
    date_time: at ? localDateTime(at) : '',
    subject_name: s.name || '',
    // The CNH number no longer travels to the phone (issue 24): data kept from an older download
    // may still hold it; otherwise the server prints the registry's on the notificação.
    subject_cnh: s.cnh ? `CNH nº ${s.cnh}` : '',
    permit_number: (s.permit_number || draft.permit_number) ? `nº ${s.permit_number || draft.permit_number}` : '',
    plate: draft.plate ? `placa ${plateText(draft.plate)}` : '',
    vehicle_make_species: makeModel ? `${makeModel}, motocicleta${vehicle.plate_category === 'aluguel' ? ' de aluguel' : ''}` : '',
    infractions_typification: confirmed.map((i) => `${i.label_pt} (${cite(i)})`).join('; '),
    infractions_description: confirmed.map((i) => i.label_pt).join('; '),
    infractions_provision: confirmed.map(cite).join('; '),
    infractions_remedy: confirmed.length ? `Sanar: ${confirmed.map((i) => i.label_pt).join('; ')}` : '',
    agency: municipality?.name ? `Prefeitura Municipal de ${municipality.name}` : '',
    agent: fiscal?.name ? `${fiscal.name}${fiscal.registration ? `, matrícula ${fiscal.registration}` : ''}` : '',
    agent_signature: fiscalSigned ? 'Assinado pelo autuante no aparelho' : '',
    operator_signature: operatorRefused ? 'O autuado recusou-se a assinar' : operatorSigned ? 'Assinado pelo autuado no local' : '',
    defence_deadline: defenceText(defence),
    observations: (observations || '').trim(),
  };
}

/** Sources the phone leaves empty for a registered operator because the server fills them in
 *  from the registry on the notificação (autos/notification_content.py), as the auto screen says. */
export const SERVER_FILLED_PT = { subject_cnh: 'Do cadastro municipal: o servidor completa na notificação' };

/** What keeps the auto from being signed, in the fiscal's words. */
export const SOURCE_MISSING_PT = {
  place: 'local', agent_signature: 'assinatura do fiscal',
  operator_signature: 'assinatura do autuado (ou marque "recusou-se a assinar")',
};
