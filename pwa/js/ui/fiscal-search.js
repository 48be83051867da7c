// Manual start: permit number, plate (Mercosul ABC1D23 or old ABC-1234) or operator name,
// searched in the registry kept on the phone. Also the screen for "pessoa sem crachá".
import { loadField } from '../fiscal/field-data.js';
import { isPlate, normalisePlate } from '../fiscal/field-merge.js';
import { requireFiscal } from '../fiscal/guard.js';
import { permitWords, startFromPermit } from '../fiscal/inspection.js';
import { el, formatPlate, mount } from './format.js';

export function searchForm(navigate) {
  const input = el('input', { id: 'search-text', class: 'input input-code', autocapitalize: 'characters', spellcheck: 'false', autocomplete: 'off', placeholder: 'ABC1D23, ABC-1234, nº do alvará ou nome' });
  const results = el('ul', { class: 'list', id: 'search-results', 'aria-live': 'polite' });
  const form = el('form', { class: 'stack', role: 'search', novalidate: true },
    el('label', { for: 'search-text' }, 'Alvará, placa ou nome'), input,
    el('button', { type: 'submit', class: 'button button-primary button-big' }, 'Buscar'), results);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    const data = await loadField();
    const { index } = data;
    const noun = permitWords(data).noun;
    let views = [];
    const byNumber = index.byNumber(text);
    if (byNumber) views = [byNumber];
    else if (isPlate(text)) views = index.byPlate(text);
    else views = index.byName(text);
    if (views.length === 1 && (byNumber || isPlate(text))) {
      const draft = await startFromPermit(views[0]);
      navigate(`/fiscal/verificacao?id=${draft.id}`);
      return;
    }
    results.replaceChildren(...(views.length ? views.map((v) => el('li', {},
      el('button', {
        type: 'button', class: 'button button-big result-button',
        onclick: async () => { const draft = await startFromPermit(v); navigate(`/fiscal/verificacao?id=${draft.id}`); },
      }, `${v.operator?.name || '—'} · ${noun} ${v.permit.number} · `, el('span', { class: 'plate nowrap' }, formatPlate(v.plate)))))
      : [el('li', { class: 'empty', id: 'search-empty' },
        index.size ? 'Nada encontrado no cadastro do aparelho. ' : 'Cadastro ainda não baixado neste aparelho. ',
        el('a', { href: `#/fiscal/sem-cracha?placa=${encodeURIComponent(isPlate(text) ? normalisePlate(text) : '')}` }, 'Fiscalizar sem identificação'))]));
  });
  return form;
}

export async function render(root, { navigate }) {
  if (!(await requireFiscal(navigate))) return;
  mount(root, el('h1', {}, 'Buscar'), searchForm(navigate));
  root.querySelector('#search-text').focus();
}
