// How the checklist behind an auto was answered, as the operator's signed copy carries it
// (issue 34): one short text among the copy's texts, signed with the rest,
//   "R1:<item>,<quick>,<group>,<declarations>,<registry>,<not_applicable>|<one letter per infraction>"
// counts of the answers given item by item, numbers answered "conforme" without counting, answers
// set by group declarations and how many declarations, registry answers, items not asked ("não se
// aplica"); per confirmed infraction what it rests on: i (answers given item by item), r (the
// registry), x (both), ? (not recorded). A copy without it (an auto of an earlier app) says the
// form of its answers was not recorded. Pure: the codec, the copy's page and its PDF share it.
const TAG = 'R1:';
const COUNTS = ['item', 'quick', 'group', 'declarations', 'registry', 'not_applicable'];
export const NOT_RECORDED_PT = 'Forma das respostas do checklist não registrada nesta cópia.';

/** A confirmed infraction's letter from its grounds ([{how}]), '?' when the auto has none. */
export function groundsLetter(grounds) {
  if (!Array.isArray(grounds)) return '?';
  const hows = new Set(grounds.map((g) => g?.how).filter((h) => h === 'item' || h === 'registry'));
  if (hows.size === 2) return 'x';
  if (hows.has('item')) return 'i';
  if (hows.has('registry')) return 'r';
  return '?';
}

/** The text the copy carries, from the auto body's checklist_how and its confirmed infractions;
 *  null for an auto that did not record how (the copy then has no such text). */
export function howText(summary, infractions) {
  if (!summary || typeof summary !== 'object') return null;
  const n = COUNTS.map((k) => (Number.isInteger(summary[k]) && summary[k] >= 0 ? summary[k] : 0));
  return `${TAG}${n.join(',')}|${(infractions || []).map((i) => groundsLetter(i.grounds)).join('')}`;
}

/** The copy's texts beyond the ones every copy has → {counts, letters} or null. */
export function parseHow(extra) {
  const text = (extra || []).find((t) => typeof t === 'string' && t.startsWith(TAG));
  if (!text) return null;
  const m = /^R1:(\d+(?:,\d+){5})\|([ixr?]*)$/.exec(text);
  if (!m) return null;
  const values = m[1].split(',').map(Number);
  return { counts: Object.fromEntries(COUNTS.map((k, i) => [k, values[i]])), letters: [...m[2]] };
}

const LETTER_PT = { i: 'constatada em resposta dada item a item', r: 'constatada no cadastro municipal',
  x: 'constatada item a item e no cadastro municipal', '?': 'forma da constatação não registrada' };

/** pt-BR words: {summary, infraction(i)} for the page and the PDF. */
export function howWords(how) {
  if (!how) return { summary: NOT_RECORDED_PT, infraction: () => null };
  const c = how.counts;
  const parts = [`${c.item} resposta(s) dada(s) item a item`];
  if (c.quick) parts.push(`${c.quick} número(s) declarado(s) conforme(s) sem contar`);
  parts.push(`${c.group} declarada(s) conforme(s) em ${c.declarations} grupo(s), depois de exibidos os itens`);
  if (c.registry) parts.push(`${c.registry} do cadastro`);
  parts.push(`${c.not_applicable} item(ns) que não se aplica(m)`);
  return {
    summary: `Respostas do checklist: ${parts.join('; ')}. Uma declaração de grupo só registra conformidade: as infrações vêm de respostas dadas item a item ou do cadastro.`,
    infraction: (i) => LETTER_PT[how.letters[i]] || null,
  };
}
