// Inspection of someone without a crachá (or not in the registry): the no-alvará case.
import { normalisePlate } from '../fiscal/field-merge.js';
import { requireFiscal } from '../fiscal/guard.js';
import { startUnidentified } from '../fiscal/inspection.js';
import { el, mount } from './format.js';

export async function render(root, { params, navigate }) {
  if (!(await requireFiscal(navigate))) return;
  const plate = el('input', { id: 'plate', class: 'input input-code', autocapitalize: 'characters', value: params.get('placa') || '', placeholder: 'ABC1D23' });
  const name = el('input', { id: 'person-name', class: 'input', autocomplete: 'off' });
  const form = el('form', { class: 'stack', novalidate: true },
    el('label', { for: 'plate' }, 'Placa da moto (se houver)'), plate,
    el('label', { for: 'person-name' }, 'Nome informado pelo condutor (se houver)'), name,
    el('button', { type: 'submit', class: 'button button-primary button-big' }, 'Iniciar fiscalização'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const draft = await startUnidentified({ plate: normalisePlate(plate.value) || null, name: name.value.trim() || null });
    navigate(`/fiscal/checklist?id=${draft.id}`, { replace: true });
  });
  mount(root, el('h1', {}, 'Pessoa sem crachá'), el('p', { class: 'lead' }, 'Fiscalização sem alvará identificado.'), form);
}
