// Vistoria, step 2: the vehicle and equipment checklist of the municipality's packs for today
// (vistoriaItems: the same items the back office asks), grouped, with citations, "não
// verificado" always possible and photos. Every answer is written to IndexedDB at once.
import { citationLabel, groupItems, isCompliance, NOT_CHECKED } from '../fiscal/checklist-model.js';
import { loadField } from '../fiscal/field-data.js';
import { requireFiscal } from '../fiscal/guard.js';
import { compressPhoto, photoSize } from '../fiscal/photos.js';
import { getDraft, saveDraft, storePhoto } from '../fiscal/records.js';
import { VISTORIA_KINDS, vistoriaItems } from '../fiscal/vistoria-model.js';
import { localIsoDate } from '../data/operator.js';
import { setBusy } from '../sw-bridge.js';
import { rulesOf } from '../fiscal/rules-of.js';
import { el, formatPlate, mount } from './format.js';

function typed(text) {
  const value = text.trim();
  if (!value) return null;
  const n = Number(value.replace(',', '.'));
  return Number.isFinite(n) ? n : value;
}

/** A hidden file input (camera) and the button that opens it; `onPhoto(sha)` after storing. */
export function photoButton(id, label, count, onPhoto) {
  const input = el('input', { type: 'file', accept: 'image/*', capture: 'environment', class: 'visually-hidden', id, tabindex: '-1', 'aria-label': label });
  input.addEventListener('change', async () => {
    const file = input.files[0];
    if (file) await onPhoto(await storePhoto(await compressPhoto(file, photoSize((await loadField()).field))));
  });
  return el('div', { class: 'photo-row' },
    el('button', { type: 'button', class: 'button', onclick: () => input.click() }, count ? `Fotos: ${count} · adicionar` : 'Tirar foto'),
    input);
}

export async function render(root, { params, navigate }) {
  if (!(await requireFiscal(navigate))) return undefined;
  const draft = await getDraft(params.get('id'));
  if (!draft || draft.mode !== 'vistoria') { navigate('/fiscal', { replace: true }); return undefined; }
  const data = await loadField();
  if (!data.rules) {
    mount(root, el('p', { class: 'notice notice-error' }, 'Regras ainda não baixadas neste aparelho. Atualize os dados.'));
    return undefined;
  }
  setBusy(true); // no update reload in the middle of a vistoria
  const rules = rulesOf(data);
  const date = localIsoDate(new Date());
  // The vehicle's registry facts (year, engine) go in once, marked; the fiscal may correct them.
  for (const [name, value] of Object.entries(draft.vehicle.facts || {})) {
    if (rules.facts[name] && !(name in draft.answers)) { draft.answers[name] = value; draft.answer_sources[name] = 'registry'; }
  }
  draft.step = 'checklist';
  const save = () => saveDraft(draft);
  await save();

  const items = vistoriaItems(rules, date);
  const list = el('div', { id: 'checklist' });
  const draw = () => list.replaceChildren(...groupItems(items).map((group) => el('section', { class: 'group', 'aria-labelledby': `g-${group.key}` },
    el('h2', { id: `g-${group.key}` }, group.label), ...group.items.map(itemView))));
  const answer = async (fact, value) => {
    if (value === null) { delete draft.answers[fact]; delete draft.answer_sources[fact]; } else { draft.answers[fact] = value; draft.answer_sources[fact] = 'fiscal'; }
    await save();
  };
  const itemView = (item) => {
    const value = draft.answers[item.fact];
    const name = `v-${item.fact.replace(/\W/g, '-')}`;
    const choice = (val, label) => el('label', { class: val === NOT_CHECKED ? 'choice choice-wide' : 'choice' },
      el('input', { type: 'radio', name, value: String(val), checked: value === val, onchange: () => answer(item.fact, val) }), label);
    let input;
    if (item.input === 'number') {
      input = el('div', { class: 'choices' },
        el('input', { id: name, class: 'input', type: 'text', inputmode: 'decimal', 'aria-labelledby': `${name}-q`,
          value: value !== undefined && value !== NOT_CHECKED ? String(value) : '', onchange: (e) => answer(item.fact, typed(e.target.value)) }),
        item.unit ? el('span', { class: 'unit' }, item.unit) : null, choice(NOT_CHECKED, 'Não verificado'));
    } else if (isCompliance(item)) { // one polarity, as in the roadside checklist
      input = el('div', { class: `choices choices-verdict${item.input === 'yes_no_na' ? ' choices-4' : ''}`, role: 'radiogroup', 'aria-labelledby': `${name}-q` },
        choice(item.compliant_if, 'Conforme'), choice(!item.compliant_if, 'Não conforme'), item.input === 'yes_no_na' ? choice('na', 'Não se aplica') : null, choice(NOT_CHECKED, 'Não verificado'));
    } else {
      input = el('div', { class: 'choices', role: 'radiogroup', 'aria-labelledby': `${name}-q` },
        choice(true, 'Sim'), choice(false, 'Não'), item.input === 'yes_no_na' ? choice('na', 'Não se aplica') : null, choice(NOT_CHECKED, 'Não verificado'));
    }
    const photos = draft.item_photos[item.fact] || [];
    return el('fieldset', { class: 'item', dataset: { fact: item.fact } },
      el('legend', { id: `${name}-q`, class: 'question' }, item.label_pt),
      input,
      ...item.citations.filter(Boolean).map((c) => el('details', { class: 'citation' },
        el('summary', {}, citationLabel(rules, c)), el('p', {}, c.text || 'Texto do artigo não incluído no pacote.'))),
      photoButton(`${name}-photo`, `Foto: ${item.label_pt}`, photos.length, async (sha) => {
        draft.item_photos[item.fact] = [...(draft.item_photos[item.fact] || []), sha];
        await save();
        draw();
      }));
  };
  const general = el('div', { id: 'vistoria-photos' });
  const drawGeneral = () => general.replaceChildren(photoButton('vistoria-photo', 'Foto da moto', draft.photos.length, async (sha) => {
    draft.photos = [...draft.photos, sha];
    await save();
    drawGeneral();
  }));
  draw();
  drawGeneral();
  const fromRegistry = Object.entries(draft.answers).filter(([n]) => draft.answer_sources[n] === 'registry');
  mount(root,
    el('h1', {}, 'Vistoria'),
    el('p', { class: 'lead', id: 'vistoria-subject' }, `${VISTORIA_KINDS[draft.vistoria_kind]} · ${formatPlate(draft.plate)}${draft.permit_number ? ` · alvará ${draft.permit_number}` : ' · sem alvará'}`),
    el('p', { class: 'hint' }, `${items.length} itens de veículo e equipamentos · respostas salvas automaticamente`),
    fromRegistry.length
      ? el('details', { class: 'registry-facts', id: 'registry-facts' },
        el('summary', {}, `Do cadastro (${fromRegistry.length}) — já considerados`),
        el('dl', {}, fromRegistry.flatMap(([n, v]) => [el('dt', {}, rules.facts[n]?.label_pt || n), el('dd', {}, String(v))])))
      : null,
    list,
    el('section', { class: 'group', 'aria-labelledby': 'g-fotos' }, el('h2', { id: 'g-fotos' }, 'Fotos da moto'), general),
    el('button', { type: 'button', class: 'button button-primary button-big', id: 'go-vistoria-result', onclick: () => navigate(`/fiscal/vistoria/resultado?id=${draft.id}`) }, 'Ver resultado'),
  );
  return () => setBusy(false);
}
