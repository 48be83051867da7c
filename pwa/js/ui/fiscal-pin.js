// Offline PIN: chosen right after enrollment, asked again after inactivity.
import { checkPin, setPin } from '../fiscal/session.js';
import { el, mount } from './format.js';

export async function render(root, { params, navigate }) {
  const creating = params.get('criar') === '1';
  const back = params.get('volta') || '/fiscal';
  const pin = el('input', { id: 'pin', class: 'input input-code', type: 'password', inputmode: 'numeric', autocomplete: creating ? 'new-password' : 'current-password', pattern: '[0-9]*', maxlength: 8, required: true });
  const again = creating ? el('input', { id: 'pin-again', class: 'input input-code', type: 'password', inputmode: 'numeric', autocomplete: 'new-password', maxlength: 8, required: true }) : null;
  const message = el('p', { class: 'notice notice-error', role: 'alert', hidden: true });
  const form = el('form', { class: 'stack', novalidate: true },
    el('label', { for: 'pin' }, creating ? 'Escolha um PIN (4 a 8 números)' : 'PIN'), pin,
    again ? el('label', { for: 'pin-again' }, 'Repita o PIN') : null, again,
    message,
    el('button', { type: 'submit', class: 'button button-primary button-big' }, creating ? 'Salvar PIN' : 'Desbloquear'));
  const fail = (text) => { message.textContent = text; message.hidden = false; pin.value = ''; if (again) again.value = ''; pin.focus(); };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.hidden = true;
    try {
      if (creating) {
        if (pin.value !== again.value) return fail('Os dois PINs não são iguais.');
        await setPin(pin.value);
        navigate('/fiscal/dados?primeira=1', { replace: true });
      } else if (await checkPin(pin.value)) {
        navigate(back, { replace: true });
      } else {
        fail('PIN incorreto.');
      }
    } catch (error) {
      fail(error.message);
    }
    return undefined;
  });
  mount(root, 
    el('h1', {}, creating ? 'Crie seu PIN' : 'Aplicativo bloqueado'),
    el('p', { class: 'lead' }, creating ? 'O PIN desbloqueia o aplicativo sem internet depois de um tempo parado.' : 'Digite seu PIN para continuar.'),
    form);
  pin.focus();
}
