// Auto de infração: the pack's auto fields filled from their declared sources (SPEC §8: registry
// and verdict, confirmed infractions, the fiscal's account and the municipality, clock, signature
// pads, defence deadline), fields two laws both require shown once; the fiscal types only the
// place (and optional observations). A number from the device's block, GPS (or "sem GPS" with a
// reason), the three clocks, signatures (fiscal; operator or "recusou-se a assinar"). Signed by the
// device key and chained: immutable afterwards.
import { autoForm } from '../rules/index.js';
import { citationLabel } from '../fiscal/checklist-model.js';
import { autoAtoms, SERVER_FILLED_PT, SOURCE_MISSING_PT } from '../fiscal/auto-sources.js';
import { instanceDeadlines, instanceText, stepsWord } from '../fiscal/deadlines.js';
import { formatAge, loadField, numbers, NUMBERS_WARN_AT, takeNumber, voidLater } from '../fiscal/field-data.js';
import { requireFiscal } from '../fiscal/guard.js';
import { currentPosition } from '../fiscal/gps.js';
import { commitRecord, deviceClock, getDraft, storePhoto } from '../fiscal/records.js';
import { infractionGrounds, provenanceFields, provenanceSummary } from '../fiscal/provenance.js';
import { randomToken, uuid } from '../fiscal/bytes.js';
import { signaturePad } from '../fiscal/signature-pad.js';
import { localIsoDate } from '../data/operator.js';
import { setBusy } from '../sw-bridge.js';
import { rulesOf } from '../fiscal/rules-of.js';
import { el, mount } from './format.js';
import { amountText } from '../fiscal/amounts.js';
import { autoInfractions, communicated } from '../fiscal/authority.js';

// A registry source the phone does not hold for this stop (nobody identified, no vehicle on
// file): then, and only then, the fiscal types it.
const FALLBACK_PT = { subject_name: 'Nome do condutor', plate: 'Placa' };

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
  // The municipal auto's infractions only: a CTB one is communicated apart (fiscal/authority.js).
  const integrated = Boolean(data.field?.traffic_authority_act);
  const stated = autoInfractions(draft.evaluation.infractions, draft.decisions, integrated);
  const confirmed = stated.filter((i) => draft.decisions[i.id]?.decision === 'confirmed');
  const toCommunicate = communicated(draft.evaluation.infractions, draft.decisions, integrated);
  const message = el('p', { class: 'notice notice-error', role: 'alert', hidden: true, id: 'auto-error' });
  if (!block.available.length) {
    mount(root, el('h1', {}, 'Auto de infração'),
      el('p', { class: 'notice notice-error', role: 'alert', id: 'no-numbers' }, 'Nenhum número de auto disponível neste aparelho: não é possível lavrar o auto. Conecte-se e atualize os dados.'));
    return () => setBusy(false);
  }
  const place = el('input', { id: 'place', class: 'input', required: true, autofocus: true, autocomplete: 'off', placeholder: 'Rua, número ou referência' });
  const observations = el('textarea', { id: 'observations', class: 'input', rows: 2, placeholder: 'Só o que o aparelho não sabe' });
  const fallback = {};
  for (const [source, label] of Object.entries(FALLBACK_PT)) {
    const known = source === 'plate' ? draft.plate : draft.subject?.name;
    if (!known) fallback[source] = { label, input: el('input', { id: `fb-${source.replace('_', '-')}`, class: 'input', autocomplete: 'off' }) };
  }
  const gpsText = el('p', { id: 'gps-status', role: 'status' }, 'Obtendo posição GPS…');
  const noGps = el('select', { id: 'no-gps-reason', class: 'input', hidden: true, 'aria-label': 'Motivo de estar sem GPS' },
    ['', 'GPS sem sinal no local', 'Permissão de localização negada', 'Aparelho sem GPS', 'Outro'].map((r) => el('option', { value: r }, r || 'Motivo de estar sem GPS…')));
  let position = null;
  const steps = instanceDeadlines(draft.evaluation.deadlines);
  const defence = steps[0] || null;
  const refused = el('input', { type: 'checkbox', id: 'operator-refused' });
  const list = el('dl', { class: 'auto-fields', id: 'auto-fields' });
  const missingBox = el('p', { class: 'notice notice-warn', id: 'auto-missing', role: 'status', 'aria-live': 'polite' });
  let atoms = {};
  // A registered operator's CNH comes from the registry on the server (SERVER_FILLED_PT).
  const serverFilled = (g) => (draft.subject?.operator_id && g.missing.length && g.missing.every((src) => src in SERVER_FILLED_PT)
    ? SERVER_FILLED_PT[g.missing[0]] : null);
  let form = [];
  const missingNow = () => {
    const missing = [];
    for (const g of form) {
      if (!g.required) continue;
      for (const source of g.missing) {
        const word = SOURCE_MISSING_PT[source] || (fallback[source] ? fallback[source].label.toLowerCase() : null);
        if (word && !missing.includes(word)) missing.push(word);
      }
    }
    if (!place.value.trim() && !missing.includes('local')) missing.unshift('local');
    if (fiscalPad.isEmpty() && !missing.includes('assinatura do fiscal')) missing.push('assinatura do fiscal');
    if (operatorPad.isEmpty() && !refused.checked && !missing.includes(SOURCE_MISSING_PT.operator_signature)) missing.push(SOURCE_MISSING_PT.operator_signature);
    if (position && !position.gps && !noGps.value) missing.push('motivo de estar sem GPS');
    return missing;
  };
  const refresh = () => {
    atoms = autoAtoms({
      rules, draft, confirmed, fiscal: s.user, municipality: data.field?.municipality || { name: null },
      place: place.value, at: new Date(), fiscalSigned: !fiscalPad.isEmpty(), operatorSigned: !operatorPad.isEmpty(),
      operatorRefused: refused.checked, defence, observations: observations.value,
    });
    for (const [source, f] of Object.entries(fallback)) {
      const v = f.input.value.trim();
      atoms[source] = v ? (source === 'plate' ? `placa ${v.toUpperCase()}` : v) : '';
    }
    form = autoForm(rules, date, atoms);
    list.replaceChildren(...form.flatMap((g) => [
      el('dt', {}, g.label_pt, el('span', { class: 'hint' }, ` — ${g.citations.filter(Boolean).map((c) => citationLabel(rules, c)).join('; ')}`)),
      el('dd', { dataset: { field: g.id, sources: g.source.join(' ') } }, g.value || serverFilled(g) || (g.required ? '—' : '— (se possível)')),
    ]));
    const missing = missingNow();
    missingBox.textContent = missing.length ? `Falta: ${missing.join('; ')}.` : 'Tudo preenchido: pode assinar e emitir.';
    missingBox.className = missing.length ? 'notice notice-warn' : 'notice';
  };
  const fiscalPad = signaturePad('Assinatura do fiscal', 'sig-fiscal', () => refresh());
  const operatorPad = signaturePad('Assinatura do autuado', 'sig-operator', () => refresh());
  [place, observations, ...Object.values(fallback).map((f) => f.input)].forEach((i) => i.addEventListener('input', () => refresh()));
  refused.addEventListener('change', () => refresh());
  noGps.addEventListener('change', () => refresh());
  currentPosition().then((p) => {
    position = p;
    if (p.gps) gpsText.textContent = `GPS: ${p.gps.lat.toFixed(5)}, ${p.gps.lon.toFixed(5)} (precisão ${p.gps.accuracy_m} m)`;
    else { gpsText.textContent = `Sem GPS: ${p.reason}`; noGps.hidden = false; }
    refresh();
  });
  const submit = el('button', { type: 'button', class: 'button button-primary button-big', id: 'sign-auto' }, 'Assinar e emitir auto');

  submit.addEventListener('click', async () => {
    message.hidden = true;
    refresh();
    const missing = missingNow();
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
      const how = { ...provenanceFields(draft), answers: draft.answers };
      await commitRecord({
        id, kind: 'auto', draftId: draft.id, photos,
        summary: { number, name: draft.subject?.name || null, plate: draft.plate, public_token: token, infractions: confirmed.map((i) => i.label_pt), inspection_id: draft.id },
        fields: {
          inspection_id: draft.id, number, place: place.value.trim(),
          clock: deviceClock(pos.gps_at), gps: pos.gps, no_gps_reason: pos.gps ? null : (noGps.value || pos.reason),
          data_age_s: draft.data_age_s, photos, permit_number: draft.permit_number, plate: draft.plate,
          operator_id: draft.subject?.operator_id ?? null,
          infractions: stated.map((i) => ({
            id: i.id, citation: i.citation, label_pt: i.label_pt,
            amount: i.amount ? { value: i.amount.value, unit: i.amount.unit } : null,
            amount_brl: i.amount?.brl_cents != null ? i.amount.brl_cents / 100 : null,
            decision: draft.decisions[i.id].decision, removal_reason: draft.decisions[i.id].reason || null,
            grounds: infractionGrounds(rules, how, i), // the answers it rests on, each with how it was given
          })),
          checklist_how: provenanceSummary(how),
          // Every field id of the packs with its group's value (merged fields print once), and
          // the source texts they were joined from: the server joins them again (auto_form).
          auto_fields: Object.fromEntries(form.flatMap((g) => g.ids.map((fid) => [fid, g.value]))),
          auto_sources: atoms, observations: atoms.observations || null,
          signatures: { fiscal: fiscalSig, operator: operatorSig, operator_refused: refused.checked },
          defence: { deadline_days: defence?.days ?? null, instance: defence?.instance_pt ?? null, due: defence?.due ?? null, kind: defence?.kind ?? null },
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
      el('ul', { class: 'list compact' }, confirmed.map((i) => el('li', {}, el('strong', {}, i.label_pt), el('br'), `${citationLabel(rules, i.citation)} — ${amountText(i.amount, i.penalty, integrated ? { ...i, integrated } : i)}`))),
      toCommunicate.length
        ? el('p', { class: 'hint', id: 'auto-traffic-apart' }, `Fora deste auto: ${toCommunicate.length} infração(ões) do CTB a comunicar ao órgão de trânsito pela Prefeitura.`)
        : null),
    el('div', { class: 'stack' }, el('label', { for: 'place' }, 'Local da infração'), place,
      ...Object.values(fallback).flatMap((f) => [el('label', { for: f.input.id }, `${f.label} (não consta no cadastro)`), f.input]),
      el('label', { for: 'observations' }, 'Observações (opcional)'), observations),
    el('section', { 'aria-labelledby': 'auto-fields-h' }, el('h2', { id: 'auto-fields-h' }, 'Campos do auto (preenchidos pelo aparelho)'), list),
    el('p', { class: 'hint' }, `Dados do aparelho ${formatAge(draft.data_age_s)}.`),
    gpsText, noGps,
    steps.length
      ? el('div', { id: 'auto-deadlines' }, el('p', { class: 'hint' }, `Prazos de ${stepsWord(steps)}:`), el('ul', { class: 'list compact' }, steps.map((d, i) => el('li', {}, instanceText(d, i)))))
      : el('p', { class: 'hint', id: 'auto-deadlines' }, 'A lei municipal não prevê prazo de defesa nem de recurso.'),
    fiscalPad.node, operatorPad.node,
    el('label', { class: 'choice' }, refused, 'O autuado recusou-se a assinar'),
    missingBox, message, submit,
  );
  refresh();
  place.focus();
  return () => setBusy(false);
}
