// The checklist from the municipality's packs for today, answerable by habit: every compliance
// question is answered "Conforme / Não conforme / Não verificado" whatever its phrasing (the
// pack's `compliant_if`), the situation (passageiro a bordo, chuva) first with Sim / Não, so what
// cannot apply is hidden; grouped by what the fiscal looks at, questions on one thing together;
// "Tudo conforme neste grupo" and "Demais itens conformes" answer the rest once the exceptions
// are tapped; "não verificado" is never a failure. Citation (tap for the article's text),
// registry facts prefilled and marked, evidence photos on a non-conformity. Every answer is
// written to IndexedDB at once.
import { checklist } from '../rules/index.js';
import { rulesOf } from '../fiscal/rules-of.js';
import { citationLabel, compliantAnswers, engineFacts, groupItems, isCompliance, NOT_CHECKED, registryFacts } from '../fiscal/checklist-model.js';
import { loadField } from '../fiscal/field-data.js';
import { isTariffItem } from '../fiscal/tariff.js';
import { tariffBlock } from './tariff.js';
import { requireFiscal } from '../fiscal/guard.js';
import { compressPhoto, photoSize } from '../fiscal/photos.js';
import { getDraft, saveDraft, storePhoto } from '../fiscal/records.js';
import { localIsoDate } from '../data/operator.js';
import { setBusy } from '../sw-bridge.js';
import { el, formatDate, formatPlate, mount } from './format.js';

// A typed value as the answer to keep: null when cleared; numbers accept a decimal comma.
function typed(input, text) {
  const value = text.trim();
  if (!value) return null;
  if (input !== 'number') return value;
  const n = Number(value.replace(',', '.'));
  return Number.isFinite(n) ? n : value;
}

export async function render(root, { params, navigate }) {
  if (!(await requireFiscal(navigate))) return undefined;
  let draft = await getDraft(params.get('id'));
  if (!draft) { navigate('/fiscal', { replace: true }); return undefined; }
  const data = await loadField();
  if (!data.rules) {
    mount(root, el('p', { class: 'notice notice-error' }, 'Regras ainda não baixadas neste aparelho. Atualize os dados.'));
    return undefined;
  }
  setBusy(true); // no update reload in the middle of an inspection
  const rules = rulesOf(data);
  const date = localIsoDate(new Date());
  // Registry facts go in once, marked as such; the fiscal may still correct them.
  const known = registryFacts(rules, draft.subject);
  for (const [name, value] of Object.entries(known)) {
    if (!(name in draft.answers)) { draft.answers[name] = value; draft.answer_sources[name] = 'registry'; }
  }
  draft.step = 'checklist';
  await saveDraft(draft);

  const save = async () => { draft.updated_at = new Date().toISOString(); await saveDraft(draft); };
  const list = el('div', { id: 'checklist' });
  let shown = '';
  let current = [];
  const draw = (force = false) => {
    const items = checklist(rules, date, engineFacts(rules, draft.answers)).filter((i) => i.applicable !== false);
    current = items;
    const key = items.map((i) => i.fact).join('|');
    if (!force && key === shown) return;
    shown = key;
    list.replaceChildren(...groupItems(items).map((group) => el('section', { class: 'group', 'aria-labelledby': `g-${group.key}` },
      el('div', { class: 'group-head' }, el('h2', { id: `g-${group.key}` }, group.label),
        group.items.some(isCompliance)
          ? el('button', { type: 'button', class: 'button button-ok', id: `all-ok-${group.key}`, onclick: () => allOk(group.items) }, 'Tudo conforme neste grupo')
          : null),
      ...group.items.map((item) => itemView(item)))));
  };
  const allOk = async (items) => {
    Object.entries(compliantAnswers(items, draft.answers)).forEach(([fact, value]) => {
      draft.answers[fact] = value;
      draft.answer_sources[fact] = 'fiscal';
    });
    await save();
    draw(true);
  };
  const answer = async (fact, value) => {
    if (value === null) {
      delete draft.answers[fact]; // cleared: back to unanswered
      delete draft.answer_sources[fact];
    } else {
      draft.answers[fact] = value;
      draft.answer_sources[fact] = 'fiscal';
    }
    await save();
    draw();
  };
  const itemView = (item) => {
    const value = draft.answers[item.fact];
    const fromRegistry = draft.answer_sources[item.fact] === 'registry';
    const name = `f-${item.fact.replace(/\W/g, '-')}`;
    const photoWanted = (val) => item.photo !== 'none' && (!isCompliance(item) || val === !item.compliant_if);
    const choice = (val, label) => el('label', { class: val === NOT_CHECKED ? 'choice choice-wide' : 'choice' },
      el('input', { type: 'radio', name, value: String(val), checked: value === val, onchange: () => { photoRow.hidden = !(photoWanted(val) || (draft.item_photos[item.fact] || []).length); answer(item.fact, val); } }), label);
    let input;
    const compliance = isCompliance(item);
    if (compliance) {
      const ok = item.compliant_if;
      input = el('div', { class: `choices choices-verdict${item.input === 'yes_no_na' ? ' choices-4' : ''}`, role: 'radiogroup', 'aria-labelledby': `${name}-q` },
        choice(ok, 'Conforme'), choice(!ok, 'Não conforme'), item.input === 'yes_no_na' ? choice('na', 'Não se aplica') : null, choice(NOT_CHECKED, 'Não verificado'));
    } else if (item.input === 'yes_no' || item.input === 'yes_no_na') {
      input = el('div', { class: 'choices', role: 'radiogroup', 'aria-labelledby': `${name}-q` },
        choice(true, 'Sim'), choice(false, 'Não'), item.input === 'yes_no_na' ? choice('na', 'Não se aplica') : null, choice(NOT_CHECKED, 'Não verificado'));
    } else if (item.input === 'choice') {
      input = el('div', { class: 'choices', role: 'radiogroup', 'aria-labelledby': `${name}-q` },
        ...(item.values || []).map((v) => choice(v, item.value_labels_pt?.[v] || v)), choice(NOT_CHECKED, 'Não verificado'));
    } else {
      const field = el('input', {
        id: name, class: 'input', type: item.input === 'number' ? 'text' : item.input === 'date' ? 'date' : 'text',
        inputmode: item.input === 'number' ? 'decimal' : null, 'aria-labelledby': `${name}-q`,
        value: value !== undefined && value !== NOT_CHECKED ? String(value) : '',
        onchange: (e) => answer(item.fact, typed(item.input, e.target.value)),
      });
      input = el('div', { class: 'choices' }, field, item.unit ? el('span', { class: 'unit' }, item.unit) : null, choice(NOT_CHECKED, 'Não verificado'));
    }
    const photos = draft.item_photos[item.fact] || [];
    const photoInput = el('input', { type: 'file', accept: 'image/*', capture: 'environment', class: 'visually-hidden', id: `${name}-photo`, tabindex: '-1', 'aria-label': `Foto: ${item.label_pt}` });
    photoInput.addEventListener('change', async () => {
      const file = photoInput.files[0];
      if (!file) return;
      const sha = await storePhoto(await compressPhoto(file, photoSize((await loadField()).field)));
      draft.item_photos[item.fact] = [...(draft.item_photos[item.fact] || []), sha];
      await save();
      draw(true);
    });
    const photoRow = el('div', { class: 'photo-row', hidden: !(photos.length || (value !== undefined && photoWanted(value))) },
      el('button', { type: 'button', class: 'button', onclick: () => photoInput.click() }, photos.length ? `Fotos: ${photos.length} · adicionar` : 'Tirar foto'),
      photoInput);
    const cites = item.citations.filter(Boolean);
    return el('fieldset', { class: `item${fromRegistry ? ' item-registry' : ''}`, dataset: { fact: item.fact } },
      el('legend', { id: `${name}-q`, class: 'question' }, item.label_pt),
      fromRegistry ? el('p', { class: 'registry-mark' }, 'Do cadastro') : null,
      item.help_pt ? el('p', { class: 'hint' }, item.help_pt) : null,
      input,
      isTariffItem(item) ? tariffBlock(data.field?.tariff, { id: `${name}-tariff` }) : null,
      cites.length ? el('details', { class: 'citation' },
        el('summary', {}, `${citationLabel(rules, cites[0])}${cites.length > 1 ? ` e mais ${cites.length - 1}` : ''}`),
        ...cites.map((c) => el('p', {}, cites.length > 1 ? `${citationLabel(rules, c)}: ` : '', c.text || 'Texto do artigo não incluído no pacote.'))) : null,
      item.photo !== 'none' || photos.length ? photoRow : null);
  };
  draw(true);
  const fromRegistry = Object.entries(draft.answers).filter(([name]) => draft.answer_sources[name] === 'registry');
  const registryValue = (name, value) => {
    const decl = rules.facts[name];
    if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
    if (decl?.labels_pt?.[value]) return decl.labels_pt[value];
    if (decl?.type === 'date') return formatDate(value);
    return `${value}${decl?.unit ? ` ${decl.unit}` : ''}`;
  };
  mount(root, 
    el('h1', {}, 'Checklist'),
    fromRegistry.length
      ? el('details', { class: 'registry-facts', id: 'registry-facts' },
        el('summary', {}, `Do cadastro (${fromRegistry.length}) — já considerados`),
        el('dl', {}, fromRegistry.flatMap(([name, value]) => [el('dt', {}, rules.facts[name]?.label_pt || name), el('dd', {}, registryValue(name, value))])))
      : null,
    el('p', { class: 'hint' }, `${draft.subject?.name || 'Sem identificação'} · ${formatPlate(draft.plate)} · respostas salvas automaticamente`),
    el('p', { class: 'hint', id: 'checklist-how' }, 'Marque só o que não está conforme; o resto, "Tudo conforme" no grupo ou "Demais itens conformes" no fim. Não verificado nunca é infração.'),
    list,
    el('button', { type: 'button', class: 'button button-primary button-big', id: 'rest-ok', onclick: async () => { await allOk(current); navigate(`/fiscal/resultado?id=${draft.id}`); } }, 'Demais itens conformes · ver resultado'),
    el('button', { type: 'button', class: 'button button-big', id: 'go-result', onclick: () => navigate(`/fiscal/resultado?id=${draft.id}`) }, 'Ver resultado (não marcados = não verificados)'),
  );
  return () => setBusy(false);
}
