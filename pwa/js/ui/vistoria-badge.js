// The vehicle's vistoria on the crachá verdict (valid / expired / rejected / in review / none,
// from the field data's vehicle row) and the way into a vistoria of that motorcycle.
import { loadFieldHead } from '../fiscal/field-data.js';
import { localIsoDate } from '../data/operator.js';
import { afterPaint } from '../router.js';
import { el } from './format.js';

/** A slot filled after the verdict's first frame; empty when the permit is not on the phone. */
export function vistoriaSlot(permitNumber) {
  const slot = el('div', { id: 'verdict-vistoria' });
  if (!permitNumber) return slot;
  // vistoria-model.js (with the rules engine it imports, ~25 KB gzip) loads after the verdict's
  // first frame too: the scanner and the verdict show without it (bench/fieldapp_shell.mjs).
  // The permit through the head's look-up (its one chunk until the rows are in memory, then the
  // kept copy): the slot does not wait for a city's rows to be read.
  afterPaint().then(() => Promise.all([loadFieldHead(), import('../fiscal/vistoria-model.js')])).then(async ([data, { vistoriaState }]) => {
    const view = await data.index.byNumber(permitNumber);
    if (!view?.vehicle) return;
    const state = vistoriaState(view.vehicle, localIsoDate(new Date()));
    slot.replaceChildren(
      el('p', { class: `notice${state.state === 'valida' ? '' : ' notice-warn'}`, id: 'verdict-vistoria-state', dataset: { state: state.state } },
        el('strong', {}, 'Vistoria: '), `${state.label}. `,
        el('a', { href: `#/fiscal/vistoria?veiculo=${view.vehicle.id}&alvara=${encodeURIComponent(permitNumber)}`, id: 'verdict-vistoria-start' }, 'Vistoria desta moto')));
  }).catch(() => {});
  return slot;
}
