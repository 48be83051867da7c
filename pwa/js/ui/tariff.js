// "Tarifa oficial": the tariff table in force, collapsed, for the verdict screen and next to the
// checklist item about charging another fare. Text from fiscal/tariff.js.
import { tariffView } from '../fiscal/tariff.js';
import { el } from './format.js';

export function tariffBlock(tariff, { id = 'tariff' } = {}) {
  const view = tariffView(tariff);
  if (view.missing) {
    return el('p', { class: 'hint tariff-missing', id }, 'Tarifa oficial: tarifa não cadastrada pela prefeitura.');
  }
  return el('details', { class: 'registry-facts tariff', id },
    el('summary', {}, 'Tarifa oficial'),
    el('p', { class: 'hint' }, `${view.act}, ${view.validity}.`),
    el('dl', {}, ...view.lines.flatMap((l) => [el('dt', {}, l.description), el('dd', {}, l.amount)])),
    view.warning ? el('p', { class: 'notice notice-warn' }, view.warning) : null,
    view.basis ? el('p', { class: 'hint' }, `Fixada por ato do Executivo (${view.basis}).`) : null,
    view.infraction ? el('p', { class: 'hint' }, `Cobrar fora da tabela: ${view.infraction}.`) : null);
}
