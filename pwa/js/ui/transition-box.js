// The requirements an imported permit is recorded in transition for (fiscal/transitions.js), on
// the verdict and atop the checklist: the fiscal knows before answering that the law gives time.
import { localIsoDate } from '../data/operator.js';
import { transitionLines } from '../fiscal/transitions.js';
import { el } from './format.js';

export function transitionBox(transitions, id) {
  const lines = transitionLines(transitions, localIsoDate(new Date()));
  if (!lines.length) return null;
  return el('div', { class: 'notice notice-warn', id },
    el('p', {}, el('strong', {}, 'Frota existente em transição — aviso, não infração:')),
    el('ul', { class: 'list compact' }, lines.map((line) => el('li', {}, line))));
}
