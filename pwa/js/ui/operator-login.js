// First access: the operator types the code the back office handed them and gets this phone's
// access token. Link form: #/operador/entrar?m=<municipality>&c=<code> fills the fields in.
import { activate, listMunicipalities } from '../data/operator.js';
import { el } from './format.js';

export async function render(root, { params, navigate }) {
  const municipalityField = await municipalityInput(params.get('m'));
  const code = el('input', {
    id: 'access-code', name: 'code', required: true, autocomplete: 'one-time-code',
    autocapitalize: 'characters', spellcheck: 'false', class: 'input input-code',
    value: params.get('c') || '',
  });
  const message = el('p', { class: 'notice notice-error', role: 'alert', hidden: true });
  const submit = el('button', { type: 'submit', class: 'button button-primary button-big' }, 'Entrar');
  const form = el('form', { class: 'stack', novalidate: true },
    el('label', { for: 'municipality' }, 'Município'), municipalityField,
    el('label', { for: 'access-code' }, 'Código de primeiro acesso'), code,
    el('p', { class: 'hint' }, 'O código é entregue pelo setor de cadastro da prefeitura e vale uma única vez.'),
    message, submit,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.hidden = true;
    if (!municipalityField.value || !code.value.trim()) {
      showError(message, 'Informe o município e o código.');
      return;
    }
    submit.disabled = true;
    submit.textContent = 'Entrando…';
    try {
      await activate(municipalityField.value, code.value);
      navigate('/operador/cracha', { replace: true });
    } catch (error) {
      const reasons = Object.values(error.fields || {}).flat().filter((r) => r !== error.message);
      showError(message, [error.message, ...reasons].join(' '));
      submit.disabled = false;
      submit.textContent = 'Entrar';
    }
  });
  root.append(
    el('h1', {}, 'Primeiro acesso'),
    el('p', { class: 'lead' }, 'Ative o seu crachá digital neste celular.'),
    form,
  );
}

function showError(box, text) {
  box.textContent = text;
  box.hidden = false;
}

// A list when the server can tell us the municipalities; a plain text field otherwise.
async function municipalityInput(preselected) {
  try {
    const list = await listMunicipalities();
    const select = el('select', { id: 'municipality', name: 'municipality', required: true, class: 'input' },
      el('option', { value: '' }, 'Escolha…'),
      list.map((m) => el('option', { value: m.slug, selected: m.slug === preselected }, `${m.name} – ${m.uf}`)));
    return select;
  } catch {
    return el('input', { id: 'municipality', name: 'municipality', class: 'input', value: preselected || '', placeholder: 'ex.: sapezal' });
  }
}
