// The checklist from the municipality's packs for today, answerable by habit: every compliance
// question is answered "Conforme / Não conforme / Não verificado" whatever its phrasing (the
// pack's `compliant_if`), a number the law sets a threshold for has a quick "Conforme" (its
// `compliant_value`, recorded as not counted), the situation (passageiro a bordo, chuva) first
// with Sim / Não; what cannot apply given the other answers is not asked (no helmet → no visor)
// and is recorded "não se aplica" with the answers that rule it out; what waits on an unanswered
// situation is not shown yet. Each group ends with its declaration ("Tudo conforme neste grupo";
// the situation: "Nenhuma destas"), which answers only the group's items that have been on the
// screen (watched as they scroll by) and have no answer: no control answers an item the fiscal
// has not been shown. How every answer was given is kept (fiscal/provenance.js) and signed with
// the record. Citation (tap for the article's text), registry facts prefilled and marked,
// evidence photos on a non-conformity. Every answer is written to IndexedDB at once.
import { checklist } from '../rules/index.js';
import { rulesOf } from '../fiscal/rules-of.js';
import { citationLabel, engineFacts, GROUP_LABELS, groupItems, groupOf, hasQuickValue, isCompliance, isSituation, isVisible, NOT_CHECKED, registryFacts } from '../fiscal/checklist-model.js';
import { answerFromRegistry, answerItem, declareGroup, ensureProvenance, markShown, settleNotApplicable } from '../fiscal/provenance.js';
import { loadField } from '../fiscal/field-data.js';
import { isTariffItem } from '../fiscal/tariff.js';
import { tariffBlock } from './tariff.js';
import { transitionBox } from './transition-box.js';
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

const now = () => new Date().toISOString();
const idOf = (fact) => `f-${fact.replace(/\W/g, '-')}`;

/** An element at least half on the screen now (the declaration's own check, so a tap right
 *  after a jump does not wait for the observer's next callback). */
function onScreen(node) {
  const r = node.getBoundingClientRect();
  const visible = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
  return r.height > 0 && visible >= Math.min(r.height, innerHeight) / 2;
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
  ensureProvenance(draft);
  // Registry facts go in once, marked as such; the fiscal may still correct them.
  const known = registryFacts(rules, draft.subject);
  for (const [name, value] of Object.entries(known)) {
    if (!(name in draft.answers)) answerFromRegistry(draft, name, value);
  }
  const itemsOf = (answers) => checklist(rules, date, engineFacts(rules, answers));
  const screenOrder = (items) => groupItems(items).flatMap((g) => g.items);
  settleNotApplicable(draft, itemsOf(draft.answers));
  draft.step = 'checklist';
  await saveDraft(draft);

  let saving = Promise.resolve();
  const save = () => {
    draft.updated_at = now();
    saving = saving.then(() => saveDraft(draft)); // in order: the last write holds the last answer
    return saving;
  };
  // Items scroll by: each one at least half on the screen is "shown" (the declarations answer
  // nothing else). Saved with the next answer, or soon after.
  let shownSaveTimer = null;
  const noteShown = (facts) => {
    const fresh = facts.filter((f) => !(f in draft.shown));
    if (!fresh.length) return;
    markShown(draft, fresh, now());
    clearTimeout(shownSaveTimer);
    shownSaveTimer = setTimeout(() => save(), 800);
    refreshDeclarations();
  };
  // Half of the item on the screen, or half of the screen filled by an item taller than it.
  const seen = (e) => e.isIntersecting
    && e.intersectionRect.height >= Math.min(e.boundingClientRect.height, innerHeight) / 2;
  const observer = new IntersectionObserver((entries) => {
    noteShown(entries.filter(seen).map((e) => e.target.dataset.fact));
  }, { threshold: [0, 0.25, 0.5, 0.75, 1] });

  const list = el('div', { id: 'checklist' });
  const resultHint = el('p', { class: 'hint', id: 'result-hint', role: 'status' });
  const declarationButtons = new Map(); // group key → button
  let shownKey = '';
  let current = [];

  const visibleItems = () => current.filter((i) => isVisible(i, current));
  const unanswered = (items) => items.filter((i) => !(i.fact in draft.answers));
  // What a declaration of this group would answer now, and whether the checklist would then be
  // done (nothing visible left without an answer): then it also goes on to the result.
  const declarable = (item, group) => (group === 'situacao' ? isSituation(item) : isCompliance(item) || hasQuickValue(item));
  const declarationPlan = (group) => {
    const visible = visibleItems();
    const mine = unanswered(visible.filter((i) => groupOf(i.fact, i) === group));
    const answers = mine.filter((i) => declarable(i, group) && i.fact in draft.shown);
    const left = unanswered(visible).filter((i) => !answers.includes(i));
    return { count: answers.length, finishes: answers.length > 0 && left.length === 0 };
  };
  const declarationLabel = (group, plan) => {
    if (group === 'situacao') {
      const any = visibleItems().some((i) => groupOf(i.fact, i) === 'situacao' && i.fact in draft.answers);
      return any ? 'Não às demais situações' : 'Nenhuma destas situações';
    }
    return plan.finishes ? 'Tudo conforme neste grupo · ver resultado' : 'Tudo conforme neste grupo';
  };
  function refreshDeclarations() {
    for (const [group, button] of declarationButtons) {
      const plan = declarationPlan(group);
      button.hidden = unanswered(visibleItems().filter((i) => groupOf(i.fact, i) === group && declarable(i, group))).length === 0;
      button.textContent = declarationLabel(group, plan);
      button.dataset.finishes = plan.finishes ? '1' : '';
    }
    const left = unanswered(visibleItems()).length;
    resultHint.textContent = left ? `${left} item(ns) sem resposta ficam como não verificados.` : 'Todos os itens exibidos foram respondidos.';
  }

  const draw = (force = false) => {
    current = itemsOf(draft.answers);
    const visible = visibleItems();
    const key = visible.map((i) => i.fact).join('|');
    if (!force && key === shownKey) { refreshDeclarations(); return; }
    shownKey = key;
    observer.disconnect();
    declarationButtons.clear();
    list.replaceChildren(...groupItems(visible).map((group) => {
      const button = el('button', { type: 'button', class: 'button button-ok declare', id: `all-ok-${group.key}`, onclick: () => declare(group.key) });
      declarationButtons.set(group.key, button);
      return el('section', { class: 'group', 'aria-labelledby': `g-${group.key}`, dataset: { group: group.key } },
        el('h2', { id: `g-${group.key}` }, group.label),
        ...group.items.map((item) => itemView(item)),
        button);
    }));
    list.querySelectorAll('fieldset[data-fact]').forEach((node) => observer.observe(node));
    refreshDeclarations();
  };
  // After any answer: what can no longer apply loses its answer ("não se aplica"), then redraw.
  const settle = () => settleNotApplicable(draft, itemsOf(draft.answers));

  const declare = async (group) => {
    const finishes = declarationButtons.get(group)?.dataset.finishes === '1';
    // What is on the screen at the tap counts as shown, even before the observer reports it.
    noteShown([...list.querySelectorAll(`section[data-group="${group}"] fieldset[data-fact]`)].filter(onScreen).map((n) => n.dataset.fact));
    declareGroup(draft, { group, label: GROUP_LABELS[group], kind: group === 'situacao' ? 'none' : 'compliant', at: now(), itemsOf, order: screenOrder });
    settle();
    await save();
    const after = itemsOf(draft.answers);
    if (finishes && !unanswered(after.filter((i) => isVisible(i, after))).length) {
      navigate(`/fiscal/resultado?id=${draft.id}`);
      return;
    }
    draw(true);
    // On to the next group that still has something to answer.
    const next = [...list.querySelectorAll('section[data-group]')].find((s) => s.dataset.group !== group
      && [...s.querySelectorAll('fieldset[data-fact]')].some((f) => !(f.dataset.fact in draft.answers)));
    const target = next || list.querySelector(`section[data-group="${group}"]`);
    target?.querySelector('h2')?.scrollIntoView({ block: 'start' });
  };
  const answer = async (fact, value, options = {}) => {
    answerItem(draft, fact, value, now(), options);
    settle();
    await save();
    draw();
  };
  const itemView = (item) => {
    const value = draft.answers[item.fact];
    const how = draft.answer_how[item.fact];
    const fromRegistry = how?.how === 'registry';
    const name = idOf(item.fact);
    const photoWanted = (val) => item.photo !== 'none' && (!isCompliance(item) || val === !item.compliant_if);
    const choice = (val, label, options = {}) => el('label', { class: 'choice' },
      el('input', { type: 'radio', name, value: String(val), checked: value === val && (!options.quick || how?.quick === true), onchange: () => { photoRow.hidden = !(photoWanted(val) || (draft.item_photos[item.fact] || []).length); answer(item.fact, val, options); } }), label);
    let input;
    if (isCompliance(item)) {
      const ok = item.compliant_if;
      input = el('div', { class: `choices choices-verdict${item.input === 'yes_no_na' ? ' choices-4' : ''}`, role: 'radiogroup', 'aria-labelledby': `${name}-q` },
        choice(ok, 'Conforme'), choice(!ok, 'Não conforme'), item.input === 'yes_no_na' ? choice('na', 'Não se aplica') : null, choice(NOT_CHECKED, 'Não verificado'));
    } else if (item.input === 'yes_no' || item.input === 'yes_no_na') {
      input = el('div', { class: 'choices choices-verdict', role: 'radiogroup', 'aria-labelledby': `${name}-q` },
        choice(true, 'Sim'), choice(false, 'Não'), item.input === 'yes_no_na' ? choice('na', 'Não se aplica') : null);
    } else if (item.input === 'choice') {
      input = el('div', { class: 'choices', role: 'radiogroup', 'aria-labelledby': `${name}-q` },
        ...(item.values || []).map((v) => choice(v, item.value_labels_pt?.[v] || v)), choice(NOT_CHECKED, 'Não verificado'));
    } else {
      const quick = hasQuickValue(item) && how?.quick;
      const field = el('input', {
        id: name, class: 'input', type: item.input === 'number' ? 'text' : item.input === 'date' ? 'date' : 'text',
        inputmode: item.input === 'number' ? 'decimal' : null, 'aria-labelledby': `${name}-q`,
        'aria-label': item.input === 'number' ? `Valor medido${item.unit ? ` (${item.unit})` : ''}` : null,
        placeholder: item.input === 'number' ? (item.unit || 'valor') : null,
        value: value !== undefined && value !== NOT_CHECKED && value !== 'na' && !quick ? String(value) : '',
        onchange: (e) => answer(item.fact, typed(item.input, e.target.value)),
      });
      input = el('div', { class: `choices choices-verdict${hasQuickValue(item) ? ' choices-number' : ''}` },
        hasQuickValue(item) ? choice(item.compliant_value, `Conforme (${item.compliant_pt})`, { quick: true }) : null,
        field,
        item.input === 'number' && rules.facts[item.fact]?.na_allowed ? choice('na', 'Não se aplica') : null,
        choice(NOT_CHECKED, 'Não verificado'));
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
      how?.how === 'group' ? el('p', { class: 'how-mark' }, 'Conforme por declaração do grupo') : null,
      isTariffItem(item) ? tariffBlock(data.field?.tariff, { id: `${name}-tariff` }) : null,
      cites.length ? el('details', { class: 'citation' },
        el('summary', {}, `${citationLabel(rules, cites[0])}${cites.length > 1 ? ` e mais ${cites.length - 1}` : ''}`),
        ...cites.map((c) => el('p', {}, cites.length > 1 ? `${citationLabel(rules, c)}: ` : '', c.text || 'Texto do artigo não incluído no pacote.'))) : null,
      item.photo !== 'none' || photos.length ? photoRow : null);
  };
  draw(true);
  const fromRegistry = Object.entries(draft.answers).filter(([name]) => draft.answer_how[name]?.how === 'registry');
  const registryValue = (name, value) => {
    const decl = rules.facts[name];
    if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
    if (decl?.labels_pt?.[value]) return decl.labels_pt[value];
    if (decl?.type === 'date') return formatDate(value);
    return `${value}${decl?.unit ? ` ${decl.unit}` : ''}`;
  };
  const toResult = el('button', { type: 'button', class: 'button button-primary button-big', id: 'go-result', onclick: () => navigate(`/fiscal/resultado?id=${draft.id}`) }, 'Ver resultado');
  mount(root,
    el('h1', {}, 'Checklist'),
    transitionBox(draft.subject?.transitions, 'checklist-transitions'),
    fromRegistry.length
      ? el('details', { class: 'registry-facts', id: 'registry-facts' },
        el('summary', {}, `Do cadastro (${fromRegistry.length}) — já considerados`),
        el('dl', {}, fromRegistry.flatMap(([name, value]) => [el('dt', {}, rules.facts[name]?.label_pt || name), el('dd', {}, registryValue(name, value))])))
      : null,
    el('p', { class: 'hint' }, `${draft.subject?.name || 'Sem identificação'} · ${formatPlate(draft.plate)} · respostas salvas automaticamente`),
    el('p', { class: 'hint', id: 'checklist-how' }, 'Marque o que não está conforme; no fim de cada grupo, "Tudo conforme neste grupo" responde só os itens que passaram pela tela. Não verificado nunca é infração.'),
    list,
    resultHint,
    toResult,
  );
  return () => { observer.disconnect(); clearTimeout(shownSaveTimer); save(); setBusy(false); };
}
