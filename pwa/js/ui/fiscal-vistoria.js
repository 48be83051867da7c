// Vistoria, step 1: which motorcycle (plate or permit number searched in the phone's registry,
// including a vehicle without a permit yet; or from a crachá's verdict, ?veiculo=<id>) and which
// kind of vistoria. Works offline: everything comes from the field data.
import { loadField } from '../fiscal/field-data.js';
import { requireFiscal } from '../fiscal/guard.js';
import { findVehicles, VISTORIA_KINDS, vistoriaState } from '../fiscal/vistoria-model.js';
import { startVistoria } from '../fiscal/vistoria.js';
import { localIsoDate } from '../data/operator.js';
import { el, formatPlate, mount } from './format.js';

function defaultKind(found) {
  if (found.vehicle.vistoria_result === 'reprovada') return 'retorno';
  return found.permit ? 'periodica' : 'inicial';
}

function vehicleLine(found) {
  const v = found.vehicle;
  return [formatPlate(found.plate), [v.make, v.model, v.year_manufacture].filter(Boolean).join(' '),
    found.permit ? `alvará ${found.permit.number}` : 'sem alvará'].filter(Boolean).join(' · ');
}

export async function render(root, { params, navigate }) {
  if (!(await requireFiscal(navigate))) return;
  const data = await loadField();
  const today = localIsoDate(new Date());
  const choice = el('section', { id: 'vistoria-choice', 'aria-live': 'polite' });

  const choose = (found) => {
    const state = vistoriaState(found.vehicle, today);
    const kind = defaultKind(found);
    const radios = Object.entries(VISTORIA_KINDS).map(([value, label]) => el('label', { class: 'choice choice-wide' },
      el('input', { type: 'radio', name: 'vistoria-kind', value, checked: value === kind }), label));
    const start = el('button', { type: 'button', class: 'button button-primary button-big', id: 'start-vistoria' }, 'Começar vistoria');
    start.addEventListener('click', async () => {
      start.disabled = true;
      const picked = root.querySelector('input[name="vistoria-kind"]:checked')?.value || kind;
      const draft = await startVistoria(found, picked);
      navigate(`/fiscal/vistoria/checklist?id=${draft.id}`, { replace: true });
    });
    choice.replaceChildren(
      el('h2', {}, 'Moto escolhida'),
      el('p', { class: 'lead', id: 'vistoria-vehicle' }, vehicleLine(found)),
      found.operator ? el('p', { class: 'hint' }, found.operator.name) : null,
      el('p', { class: `notice${state.state === 'valida' ? '' : ' notice-warn'}`, id: 'vistoria-current' }, `Vistoria atual: ${state.label}.`),
      el('fieldset', { class: 'item', id: 'vistoria-kinds' },
        el('legend', { class: 'question' }, 'Tipo de vistoria'),
        el('div', { class: 'choices', role: 'radiogroup', 'aria-label': 'Tipo de vistoria' }, radios)),
      start);
    choice.scrollIntoView?.({ block: 'start' });
  };

  const input = el('input', { id: 'vistoria-search', class: 'input input-code', autocapitalize: 'characters', spellcheck: 'false', autocomplete: 'off', placeholder: 'ABC1D23' });
  const results = el('ul', { class: 'list', id: 'vistoria-results', 'aria-live': 'polite', hidden: true });
  const form = el('form', { class: 'stack', role: 'search', novalidate: true },
    el('label', { for: 'vistoria-search' }, 'Placa ou nº do alvará'), input,
    el('button', { type: 'submit', class: 'button button-primary button-big' }, 'Buscar moto'), results);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const found = findVehicles(data.field, data.index, input.value.trim());
    results.hidden = found.length === 1;
    if (found.length === 1) { results.replaceChildren(); choose(found[0]); return; }
    results.replaceChildren(...(found.length
      ? found.map((f) => el('li', {}, el('button', { type: 'button', class: 'button button-big result-button', onclick: () => choose(f) }, vehicleLine(f))))
      : [el('li', { class: 'empty', id: 'vistoria-empty' }, data.index.size ? 'Nenhuma moto com essa placa ou alvará no cadastro do aparelho.' : 'Cadastro ainda não baixado neste aparelho.')]));
  });

  mount(root,
    el('h1', {}, 'Vistoria'),
    el('p', { class: 'hint' }, 'Vistoria prévia ou periódica da moto, com o checklist de veículo e equipamentos da lei do município. Funciona sem internet.'),
    form,
    el('p', { class: 'hint' }, 'Com crachá: ', el('a', { href: '#/fiscal/ler', id: 'vistoria-scan' }, 'ler o crachá'), ' e, no resultado, tocar em “Vistoria desta moto”.'),
    choice);

  const preset = Number(params.get('veiculo'));
  if (preset) {
    const vehicle = (data.field?.vehicles || []).find((v) => v.id === preset);
    const permitNumber = params.get('alvara');
    const view = permitNumber ? data.index.byNumber(permitNumber) : null;
    if (vehicle) choose({ vehicle, permit: view?.permit || null, operator: view?.operator || null, plate: view?.plate || vehicle.plate });
  }
}
