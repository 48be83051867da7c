// How each checklist answer was given (issue 34 item 1), the pure part: a group declaration
// answers only what was shown and applies, never an item its parent ruled out; what cannot apply
// is "não se aplica" with the answers that rule it out; an infraction rests on item answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { engineFacts, groupItems, NOT_CHECKED } from '../../pwa/js/fiscal/checklist-model.js';
import { answerItem, declareGroup, ensureProvenance, infractionGrounds, markShown, provenanceFields,
  provenanceSummary, settleNotApplicable } from '../../pwa/js/fiscal/provenance.js';
import { checklist, compileComposed, compose, evaluate } from '../../pwa/js/rules/index.js';

const DAY = '2026-11-30';
const AT = '2026-11-30T14:00:00.000Z';
const rulesOf = (pack) => {
  const read = (name) => JSON.parse(readFileSync(new URL(`../../shared_rules/packs/${name}.json`, import.meta.url)));
  return compileComposed(compose([read('federal-base'), read(pack)], { spec_version: '1.0.0', municipality: pack.split('-')[0] }));
};
const sapezal = rulesOf('sapezal-lei-125-1999');

const newDraft = () => ensureProvenance({ answers: {}, answer_sources: {} });
// The screens pass the engine what it takes: "não verificado" left out (engineFacts).
const itemsOf = (rules) => (answers) => checklist(rules, DAY, engineFacts(rules, answers));
const settle = (rules, draft) => settleNotApplicable(draft, itemsOf(rules)(draft.answers));
const screenOrder = (items) => groupItems(items).flatMap((g) => g.items);
const groupFacts = (rules, answers, key) => groupItems(itemsOf(rules)(answers)).find((g) => g.key === key).items.map((i) => i.fact);
const declare = (rules, draft, group, kind = 'compliant') => {
  const answered = declareGroup(draft, { group, label: group, kind, at: AT, itemsOf: itemsOf(rules), order: screenOrder });
  settle(rules, draft);
  return answered;
};

test('"Nenhuma destas" answers the situation shown with "não", and what that rules out is not applicable with the reason', () => {
  const draft = newDraft();
  markShown(draft, groupFacts(sapezal, {}, 'situacao'), AT);
  const answered = declare(sapezal, draft, 'situacao', 'none');
  assert.equal(draft.answers['passenger.present'], false);
  assert.equal(draft.answers['service.goods_delivery'], false);
  assert.ok(!('context.raining' in draft.answers), 'no passenger: the rain decides nothing, it is not answered');
  assert.deepEqual(draft.not_applicable['context.raining'], { because: { 'passenger.present': false } });
  assert.deepEqual(draft.not_applicable['passenger.helmet'], { because: { 'passenger.present': false } });
  assert.ok(!answered.includes('context.raining'));
  assert.deepEqual(draft.answer_how['passenger.present'], { how: 'group', declaration: 0 });
  assert.equal(draft.group_declarations[0].kind, 'none');
});

test('a group declaration keeps the exceptions, answers only what was shown, never a dependant of a failed answer', () => {
  const draft = newDraft();
  answerItem(draft, 'passenger.present', false, AT);
  settle(sapezal, draft);
  const driverGroup = groupFacts(sapezal, draft.answers, 'condutor');
  // The fiscal saw the first part of the group only (scrolled no further), tapped two exceptions.
  const seen = driverGroup.slice(0, driverGroup.indexOf('driver.carries_cnh') + 1);
  markShown(draft, seen, AT);
  answerItem(draft, 'driver.helmet', false, AT);
  answerItem(draft, 'driver.vest', false, AT);
  answerItem(draft, 'driver.footwear_ok', NOT_CHECKED, AT);
  settle(sapezal, draft);
  const answered = declare(sapezal, draft, 'condutor');
  assert.equal(draft.answers['driver.helmet'], false, 'the exception tapped is kept');
  assert.equal(draft.answers['driver.footwear_ok'], NOT_CHECKED, '"não verificado" is kept');
  for (const fact of ['driver.helmet_visor', 'driver.helmet_inmetro', 'driver.vest_retroreflective', 'driver.vest_shows_ponto_permit']) {
    assert.ok(!(fact in draft.answers), `${fact}: its parent failed, never stored`);
    assert.ok(fact in draft.not_applicable, fact);
  }
  assert.deepEqual(draft.not_applicable['driver.helmet_visor'].because, { 'driver.helmet': false });
  assert.ok(answered.includes('driver.carries_cnh') && answered.includes('driver.intoxicated'));
  for (const fact of driverGroup.filter((f) => !seen.includes(f))) {
    assert.ok(!(fact in draft.answers), `${fact}: never on the screen, never answered`);
  }
  const declaration = draft.group_declarations[0];
  assert.deepEqual(declaration.answered, answered);
  assert.ok(answered.every((f) => declaration.shown.includes(f)));
  assert.ok(answered.every((f) => driverGroup.includes(f)), 'another group: untouched');
});

test('the visor becomes askable through the declaration itself and is answered only because it was on the screen', () => {
  const draft = newDraft();
  answerItem(draft, 'passenger.present', false, AT);
  markShown(draft, ['driver.helmet', 'driver.helmet_visor'], AT);
  declare(sapezal, draft, 'condutor');
  assert.equal(draft.answers['driver.helmet'], true);
  assert.equal(draft.answers['driver.helmet_visor'], true);
  assert.ok(!('driver.helmet_inmetro' in draft.answers), 'not shown');
  // The fiscal then finds no helmet after all: the visor's "conforme" goes, "não se aplica" comes.
  answerItem(draft, 'driver.helmet', false, AT);
  settle(sapezal, draft);
  assert.ok(!('driver.helmet_visor' in draft.answers));
  assert.deepEqual(draft.not_applicable['driver.helmet_visor'], { because: { 'driver.helmet': false } });
});

test('numbers: a quick "Conforme" stores the law\'s threshold, marked as not counted; a declaration gives the same', () => {
  const draft = newDraft();
  answerItem(draft, 'equipment.mirrors_count', 2, AT, { quick: true });
  markShown(draft, ['equipment.foot_protector_cm', 'equipment.helmets_on_board'], AT);
  declare(sapezal, draft, 'moto');
  assert.equal(draft.answers['equipment.foot_protector_cm'], 10);
  assert.equal(draft.answers['equipment.helmets_on_board'], 2);
  const fields = { ...provenanceFields(draft), answers: draft.answers };
  assert.deepEqual(fields.answer_how['equipment.mirrors_count'], { how: 'item', at: AT, quick: true });
  const summary = provenanceSummary(fields);
  assert.deepEqual([summary.quick, summary.group, summary.declarations], [1, 2, 1]);
});

test('an infraction rests on the answers given item by item, never on a group declaration', () => {
  const draft = newDraft();
  markShown(draft, groupFacts(sapezal, {}, 'situacao'), AT);
  declare(sapezal, draft, 'situacao', 'none');
  const all = itemsOf(sapezal)(draft.answers).map((i) => i.fact);
  markShown(draft, all, AT);
  answerItem(draft, 'driver.helmet', false, AT);
  answerItem(draft, 'driver.vest', false, AT);
  settle(sapezal, draft);
  for (const group of ['moto', 'condutor']) declare(sapezal, draft, group);
  const out = evaluate(sapezal, DAY, engineFacts(sapezal, draft.answers), []);
  const fields = { ...provenanceFields(draft), answers: draft.answers };
  const proposed = out.infractions.filter((i) => i.triggered_by.length);
  assert.ok(proposed.length >= 2);
  for (const inf of proposed) {
    const grounds = infractionGrounds(sapezal, fields, inf);
    assert.ok(grounds.length, inf.id);
    assert.ok(grounds.every((g) => g.how !== 'group' || g.fact.startsWith('passenger.present') || g.fact === 'service.goods_delivery'), JSON.stringify(grounds));
    assert.ok(grounds.some((g) => g.how === 'item' && g.value === false), inf.id);
  }
  // Everything answered is either item, group or "não se aplica": nothing both.
  for (const fact of Object.keys(draft.not_applicable)) assert.ok(!(fact in draft.answers), fact);
  // Nothing left undecided by the checklist but what the registry holds (no registry here).
  const checklistFacts = new Set(all);
  const undecided = out.undecided.filter((u) => u.kind === 'requirement' && (u.facts || []).some((f) => checklistFacts.has(f)));
  assert.deepEqual(undecided.map((u) => u.id), []);
});
