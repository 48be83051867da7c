// The operator's copy says how the checklist was answered (issue 34): one short signed text, read
// back into the same counts and one letter per infraction; a copy without it says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { groundsLetter, howText, howWords, NOT_RECORDED_PT, parseHow } from '../../pwa/js/autocopy/answers-how.js';

const SUMMARY = { item: 2, quick: 1, group: 26, declarations: 3, registry: 11, not_checked: 0, not_applicable: 9 };
const INFRACTIONS = [
  { grounds: [{ fact: 'driver.helmet', how: 'item' }, { fact: 'service.goods_delivery', how: 'group' }] },
  { grounds: [{ fact: 'permit.valid_until', how: 'registry' }] },
  { grounds: [{ fact: 'driver.vest', how: 'item' }, { fact: 'permit.exists', how: 'registry' }] },
  {},
];

test('the copy\'s text round-trips the counts and each infraction\'s letter', () => {
  const text = howText(SUMMARY, INFRACTIONS);
  assert.equal(text, 'R1:2,1,26,3,11,9|irx?');
  assert.deepEqual(parseHow(['other text', text]), {
    counts: { item: 2, quick: 1, group: 26, declarations: 3, registry: 11, not_applicable: 9 },
    letters: ['i', 'r', 'x', '?'],
  });
});

test('a group declaration never grounds an infraction: only item and registry answers count', () => {
  assert.equal(groundsLetter([{ how: 'group' }]), '?');
  assert.equal(groundsLetter(undefined), '?');
});

test('words for the page and the PDF; a copy without the text says the form was not recorded', () => {
  const words = howWords(parseHow([howText(SUMMARY, INFRACTIONS)]));
  assert.match(words.summary, /^Respostas do checklist: 2 resposta\(s\) dada\(s\) item a item; 1 número\(s\) declarado\(s\) conforme\(s\) sem contar; 26 declarada\(s\) conforme\(s\) em 3 grupo\(s\), depois de exibidos os itens; 11 do cadastro; 9 item\(ns\) que não se aplica\(m\)\./);
  assert.equal(words.infraction(0), 'constatada em resposta dada item a item');
  assert.equal(words.infraction(1), 'constatada no cadastro municipal');
  assert.equal(howWords(parseHow([])).summary, NOT_RECORDED_PT);
  assert.equal(howText(null, INFRACTIONS), null, 'an auto of an earlier app: no text');
  assert.equal(parseHow(['R1:1,2|i']), null, 'malformed: ignored, never half-read');
});

test('the copy carries it signed with the rest, read back into `extra`; a copy without it still decodes', async () => {
  const { copyOfRecord, decodeCopy, encodeCopy, CopyError } = await import('../../pwa/js/autocopy/codec.js');
  const body = {
    public_token: 'A'.repeat(43), clock: { device_at: '2026-12-01T10:15:00-04:00' }, number: 'SAP-2026-000001',
    plate: 'QBA1C23', permit_number: '001/2026', place: 'Av. Brasil, 100', defence: { deadline_days: 15 },
    checklist_how: SUMMARY,
    infractions: [{ id: 'a', label_pt: 'Sem capacete', citation: 'Lei 125/1999, art. 16, I', decision: 'confirmed', grounds: INFRACTIONS[0].grounds },
      { id: 'b', label_pt: 'Removida', decision: 'removed', grounds: INFRACTIONS[1].grounds }],
  };
  const copy = copyOfRecord(body, { ibge: 5107875, deviceId: 3 });
  assert.equal(copy.answers_how, 'R1:2,1,26,3,11,9|i', 'one letter per confirmed infraction');
  const back = decodeCopy(encodeCopy(copy));
  assert.deepEqual(parseHow(back.extra).letters, ['i']);
  const earlier = decodeCopy(encodeCopy(copyOfRecord({ ...body, checklist_how: undefined }, { ibge: 5107875, deviceId: 3 })));
  assert.equal(earlier.extra, undefined);
  assert.equal(howWords(parseHow(earlier.extra)).summary, NOT_RECORDED_PT);
  // Codec version 2: the text is one of the compressed texts after the infractions'; a text there
  // that is not this one (a later writer's) is kept apart and reads as not recorded.
  const other = decodeCopy(encodeCopy({ ...copy, answers_how: 'X9:outro' }));
  assert.deepEqual(other.extra, ['X9:outro']);
  assert.equal(parseHow(other.extra), null);
  assert.throws(() => decodeCopy(encodeCopy(copy).subarray(0, 60)), (e) => e instanceof CopyError);
});
