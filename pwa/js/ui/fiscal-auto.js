// Auto de infração: the pack's auto fields, a number from the device's block, GPS (or "sem GPS"
// with a reason), the three clocks, signatures (fiscal; operator or "recusou-se a assinar"),
// defence deadline and instance. Signed by the device key and chained: immutable afterwards.
import { autoFields } from '../rules/index.js';
import { citationLabel } from '../fiscal/checklist-model.js';
import { instanceDeadlines, instanceText } from '../fiscal/deadlines.js';
import { formatAge, loadField, numbers, NUMBERS_WARN_AT, takeNumber, voidLater } from '../fiscal/field-data.js';
import { requireFiscal } from '../fiscal/guard.js';
import { currentPosition } from '../fiscal/gps.js';
import { commitRecord, deviceClock, getDraft, storePhoto } from '../fiscal/records.js';
import { randomToken, uuid } from '../fiscal/bytes.js';
import { signaturePad } from '../fiscal/signature-pad.js';
import { localIsoDate } from '../data/operator.js';
import { setBusy } from '../sw-bridge.js';
import { rulesOf } from './fiscal-checklist.js';
import { el, formatPlate, mount } from './format.js';
import { amountText } from './fiscal-result.js';

function prefill(field, draft, place) {
  const id = field.id.toLowerCase();
  const s = draft.subject || {};
  if (/nome/.test(id)) return s.name || '';
  if (/alvara|placa/.test(id)) return [s.permit_number || draft.permit_number, formatPlate(draft.plate)].filter(Boolean).join(' / ');
  if (/local|data|hora/.test(id)) return `${place}, ${new Date().toLocaleString('pt-BR')}`;
  return '';
}

export async function render(root, { params, navigate }) {
  const s = await requireFiscal(navigate);
  if (!s) return undefined;
  const draft = await getDraft(params.get('id'));
  if (!draft || !draft.inspection_sealed) { navigate('/fiscal', { replace: true }); return undefined; }
  setBusy(true);
  const data = await loadField();
  const rules = rulesOf(data);
  const date = localIsoDate(new Date());
  const block = await numbers();
  const confirmed = draft.evaluation.infractions.filter((i) => draft.decisions[i.id]?.decision === 'confirmed');
  const message = el('p', { class: 'notice notice-error', role: 'alert', hidden: true, id: 'auto-error' });
  if (!block.available.length) {
    mount(root, el('h1', {}, 'Auto de infração'),
      el('p', { class: 'notice notice-error', role: 'alert', id: 'no-numbers' }, 'Nenhum número de auto disponível neste aparelho: não é possível lavrar o auto. Conecte-se e atualize os dados.'));
    return () => setBusy(false);
  }
  const place = el('input', { id: 'place', class: 'input', required: true, placeholder: 'Rua, número ou referência' });
  const fields = autoFields(rules, date).map((f) => ({ ...f, input: el('input', { class: 'input', id: `af-${f.id.replace(/\W/g, '-')}`, value: prefill(f, draft, '') }) }));
  place.addEventListener('change', () => fields.forEach((f) => { if (/local/.test(f.id) && !f.touched) f.input.value = prefill(f, draft, place.value); }));
  fields.forEach((f) => f.input.addEventListener('input', () => { f.touched = true; }));
  const gpsText = el('p', { id: 'gps-status', role: 'status' }, 'Obtendo posição GPS…');
  const noGps = el('select', { id: 'no-gps-reason', class: 'input', hidden: true, 'aria-label': 'Motivo de estar sem GPS' },
    ['', 'GPS sem sinal no local', 'Permissão de localização negada', 'Aparelho sem GPS', 'Outro'].map((r) => el('option', { value: r }, r || 'Motivo de estar sem GPS…')));
  let position = null;
  currentPosition().then((p) => {
    position = p;
    if (p.gps) gpsText.textContent = `GPS: ${p.gps.lat.toFixed(5)}, ${p.gps.lon.toFixed(5)} (precisão ${p.gps.accuracy_m} m)`;
    else { gpsText.textContent = `Sem GPS: ${p.reason}`; noGps.hidden = false; }
  });
  const fiscalPad = signaturePad('Assinatura do fiscal', 'sig-fiscal');
  const operatorPad = signaturePad('Assinatura do autuado', 'sig-operator');
  const refused = el('input', { type: 'checkbox', id: 'operator-refused' });
  const steps = instanceDeadlines(draft.evaluation.deadlines);
  const defence = steps[0] || null;
  const submit = el('button', { type: 'button', class: 'button button-primary button-big', id: 'sign-auto' }, 'Assinar e emitir auto');

  submit.addEventListener('click', async () => {
    message.hidden = true;
    const missing = [];
    if (!place.value.trim()) missing.push('local');
    fields.filter((f) => f.required && !f.input.value.trim()).forEach((f) => missing.push(f.label_pt));
    if (fiscalPad.isEmpty()) missing.push('assinatura do fiscal');
    if (operatorPad.isEmpty() && !refused.checked) missing.push('assinatura do autuado (ou marque "recusou-se a assinar")');
    if (position && !position.gps && !noGps.value) missing.push('motivo de estar sem GPS');
    if (missing.length) { message.textContent = `Falta: ${missing.join('; ')}.`; message.hidden = false; return; }
    submit.disabled = true;
    submit.textContent = 'Assinando…';
    let number = null;
    try {
      const pos = position || await currentPosition();
      number = await takeNumber();
      const fiscalSig = await storePhoto(await fiscalPad.toBlob());
      const operatorSig = refused.checked ? null : await storePhoto(await operatorPad.toBlob());
      const id = uuid();
      const token = randomToken(32);
      const photos = [...Object.values(draft.item_photos).flat(), fiscalSig, operatorSig].filter(Boolean);
      await commitRecord({
        id, kind: 'auto', draftId: draft.id, photos,
        summary: { number, name: draft.subject?.name || null, plate: draft.plate, public_token: token, infractions: confirmed.map((i) => i.label_pt), inspection_id: draft.id },
        fields: {
          inspection_id: draft.id, number, place: place.value.trim(),
          clock: deviceClock(pos.gps_at), gps: pos.gps, no_gps_reason: pos.gps ? null : (noGps.value || pos.reason),
          data_age_s: draft.data_age_s, photos, permit_number: draft.permit_number, plate: draft.plate,
          operator_id: draft.subject?.operator_id ?? null,
          infractions: draft.evaluation.infractions.filter((i) => draft.decisions[i.id]).map((i) => ({
            id: i.id, citation: i.citation, label_pt: i.label_pt,
            amount: i.amount ? { value: i.amount.value, unit: i.amount.unit } : null,
            amount_brl: i.amount?.brl_cents != null ? i.amount.brl_cents / 100 : null,
            decision: draft.decisions[i.id].decision, removal_reason: draft.decisions[i.id].reason || null,
          })),
          auto_fields: Object.fromEntries(fields.map((f) => [f.id, f.input.value.trim()])),
          signatures: { fiscal: fiscalSig, operator: operatorSig, operator_refused: refused.checked },
          defence: { deadline_days: defence?.days ?? null, instance: defence?.instance_pt ?? null, due: defence?.due ?? null },
          public_token: token,
        },
      });
      navigate(`/fiscal/auto-emitido?id=${id}`, { replace: true });
    } catch (error) {
      if (number) await voidLater(number, `Auto não concluído no aparelho: ${error.message}`.slice(0, 500));
      message.textContent = error.message;
      message.hidden = false;
      submit.disabled = false;
      submit.textContent = 'Assinar e emitir auto';
    }
  });

  mount(root, 
    el('h1', {}, 'Auto de infração'),
    el('p', { class: block.available.length <= NUMBERS_WARN_AT ? 'notice notice-warn' : 'hint', id: 'next-number' },
      `Número: ${block.available[0]}${block.available.length <= NUMBERS_WARN_AT ? ` — restam só ${block.available.length} números` : ''}`),
    el('section', {}, el('h2', {}, 'Infrações confirmadas'),
      el('ul', { class: 'list compact' }, confirmed.map((i) => el('li', {}, el('strong', {}, i.label_pt), el('br'), `${citationLabel(rules, i.citation)} — ${amountText(i.amount, i.penalty, i)}`)))),
    el('div', { class: 'stack' }, el('label', { for: 'place' }, 'Local da infração'), place,
      ...fields.flatMap((f) => [el('label', { for: f.input.id }, `${f.label_pt}${f.required ? '' : ' (opcional)'}`), f.input,
        el('span', { class: 'hint' }, citationLabel(rules, f.citation))])),
    el('p', { class: 'hint' }, `Dados do aparelho ${formatAge(draft.data_age_s)}.`),
    gpsText, noGps,
    steps.length
      ? el('div', { id: 'auto-deadlines' }, el('p', { class: 'hint' }, 'Prazos de defesa e recurso:'), el('ul', { class: 'list compact' }, steps.map((d, i) => el('li', {}, instanceText(d, i)))))
      : el('p', { class: 'hint', id: 'auto-deadlines' }, 'A lei municipal não prevê prazo de defesa ou recurso.'),
    fiscalPad.node, operatorPad.node,
    el('label', { class: 'choice' }, refused, 'O autuado recusou-se a assinar'),
    message, submit,
  );
  return () => setBusy(false);
}
