// How each checklist answer was given (issue 34), kept in the draft and signed with the record:
//   answer_how[fact]      {how: 'item', at, quick?}  tapped on that item (quick: a number answered
//                                                     "Conforme", the law's threshold, not counted)
//                         {how: 'group', declaration: n}  set by group_declarations[n]
//                         {how: 'registry'}          from the registry
//   group_declarations[n] {group, label_pt, kind: 'compliant' | 'none', at, shown, answered}:
//                         "Tudo conforme neste grupo" (or, for the situation, "Nenhuma destas"),
//                         tapped after the group's items in `shown` were on the screen
//   not_applicable[fact]  {because: {fact: answer}}  not asked: the answers that rule it out
//   shown[fact]           when the item was first on the screen (the draft's own bookkeeping)
// A declaration answers only what was shown, applies and has no answer yet, so no control answers
// an item the fiscal has not seen; an item that cannot apply is never stored as compliant.
// Pure (Node tests): no DOM, no storage.
import { groupOf, hasQuickValue, isCompliance, isSituation, NOT_CHECKED } from './checklist-model.js';

export const HOW_PT = {
  item: 'item a item', group: 'declaração do grupo', registry: 'cadastro', quick: 'item a item, conforme sem medir',
};

/** The draft's provenance fields, created where an older draft lacks them. */
export function ensureProvenance(draft) {
  draft.answer_how ||= {};
  draft.group_declarations ||= [];
  draft.not_applicable ||= {};
  draft.shown ||= {};
  return draft;
}

/** The fiscal answered `fact` on its own control (value null: cleared). */
export function answerItem(draft, fact, value, at, { quick = false } = {}) {
  ensureProvenance(draft);
  if (value === null || value === undefined) {
    delete draft.answers[fact];
    delete draft.answer_sources[fact];
    delete draft.answer_how[fact];
    return;
  }
  draft.answers[fact] = value;
  draft.answer_sources[fact] = 'fiscal';
  draft.answer_how[fact] = quick ? { how: 'item', at, quick: true } : { how: 'item', at };
  delete draft.not_applicable[fact];
}

/** A registry fact prefilled into the answers. */
export function answerFromRegistry(draft, fact, value) {
  ensureProvenance(draft);
  draft.answers[fact] = value;
  draft.answer_sources[fact] = 'registry';
  draft.answer_how[fact] = { how: 'registry' };
}

export function markShown(draft, facts, at) {
  ensureProvenance(draft);
  for (const fact of facts) if (!(fact in draft.shown)) draft.shown[fact] = at;
}

/** What a declaration of `kind` stores for `item`, or undefined when it cannot answer it. */
function declared(item, kind) {
  if (kind === 'none') return isSituation(item) ? false : undefined;
  if (isCompliance(item)) return item.compliant_if;
  if (hasQuickValue(item)) return item.compliant_value;
  return undefined;
}

/**
 * "Tudo conforme neste grupo" ("Nenhuma destas" for the situation): the group's items that were
 * shown, apply and have no answer get the compliant answer (the situation: "não"), one at a time
 * in screen order, each on the checklist as the answers before it leave it (`itemsOf(answers)` →
 * the engine's items), so a question that becomes askable through this very declaration (the
 * visor once the helmet is "conforme") is answered only if it was on the screen. Returns the facts
 * answered. An item answered before ("não conforme", "não verificado") keeps its answer.
 */
export function declareGroup(draft, { group, label, kind = 'compliant', at, itemsOf, order = (items) => items }) {
  ensureProvenance(draft);
  const n = draft.group_declarations.length;
  const answered = [];
  for (let guard = 0; guard < 200; guard += 1) {
    const items = order(itemsOf(draft.answers)).filter((i) => groupOf(i.fact, i) === group);
    const next = items.find((i) => i.applicable === true && i.fact in draft.shown && !(i.fact in draft.answers)
      && declared(i, kind) !== undefined);
    if (!next) break;
    draft.answers[next.fact] = declared(next, kind);
    draft.answer_sources[next.fact] = 'fiscal';
    draft.answer_how[next.fact] = { how: 'group', declaration: n };
    delete draft.not_applicable[next.fact];
    answered.push(next.fact);
  }
  const shown = itemsOf(draft.answers).filter((i) => groupOf(i.fact, i) === group && i.fact in draft.shown).map((i) => i.fact);
  draft.group_declarations.push({ group, label_pt: label, kind, at, shown, answered });
  return answered;
}

/**
 * Items that cannot apply given the other answers (the engine's `applicable: false`) lose any
 * answer they had and are recorded "não se aplica" with the answers that rule them out
 * (`decided_by`); items that apply again leave that list. Registry answers are never touched.
 */
export function settleNotApplicable(draft, items) {
  ensureProvenance(draft);
  for (const item of items) {
    const fact = item.fact;
    if (item.applicable === false) {
      if (fact in draft.answers && draft.answer_sources[fact] !== 'registry') {
        delete draft.answers[fact];
        delete draft.answer_sources[fact];
        delete draft.answer_how[fact];
      }
      if (fact in draft.answers) continue;
      const because = {};
      for (const f of item.decided_by || []) if (f in draft.answers) because[f] = draft.answers[f];
      draft.not_applicable[fact] = { because };
    } else {
      delete draft.not_applicable[fact];
    }
  }
}

/** The record's provenance fields (what the inspection record signs). */
export function provenanceFields(draft) {
  ensureProvenance(draft);
  const how = {};
  for (const fact of Object.keys(draft.answers)) {
    how[fact] = draft.answer_how[fact] || (draft.answer_sources[fact] === 'registry' ? { how: 'registry' } : { how: 'item' });
  }
  return { answer_how: how, group_declarations: draft.group_declarations, not_applicable: draft.not_applicable };
}

/** Counts for the auto, the copy and the notificação: answers by how they were given. */
export function provenanceSummary(fields) {
  const out = { item: 0, quick: 0, group: 0, declarations: (fields.group_declarations || []).length, registry: 0,
    not_checked: 0, not_applicable: Object.keys(fields.not_applicable || {}).length };
  for (const [fact, how] of Object.entries(fields.answer_how || {})) {
    if (fields.answers?.[fact] === NOT_CHECKED) { out.not_checked += 1; continue; }
    if (how.how === 'group') out.group += 1;
    else if (how.how === 'registry') out.registry += 1;
    else if (how.quick) out.quick += 1;
    else out.item += 1;
  }
  return out;
}

/**
 * What an infraction rests on: every answer the requirements that proposed it read, but the
 * compliant ones (a compliant answer fails nothing), each with how it was given. Since a group
 * declaration only ever states compliance, a failure rests on answers given item by item or on
 * the registry; a situation declared by group ("nenhuma destas") can be part of the context.
 */
export function infractionGrounds(rules, fields, infraction) {
  const byId = new Map(rules.requirements.map((r) => [r.id, r]));
  const facts = [];
  for (const id of infraction.triggered_by || []) {
    const req = byId.get(id);
    if (!req) continue;
    for (const c of [req._applies, req._holds]) for (const f of c?.refs || []) if (!facts.includes(f)) facts.push(f);
  }
  const grounds = [];
  for (const fact of facts) {
    if (!(fact in (fields.answers || {}))) continue;
    const value = fields.answers[fact];
    const how = fields.answer_how?.[fact] || { how: 'item' };
    const ck = rules.facts[fact]?.checklist || {};
    if (value === NOT_CHECKED) continue;
    if (typeof ck.compliant_if === 'boolean' && value === ck.compliant_if) continue;
    if (how.quick) continue;
    grounds.push({ fact, value, how: how.how, ...(how.at ? { at: how.at } : {}) });
  }
  return grounds;
}
