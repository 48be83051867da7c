// Fiscal enrollment: one online login (user, password, device name) gives this phone its token
// and its own signing key; then the fiscal chooses the offline PIN.
import { enroll } from '../fiscal/session.js';
import { el, mount } from './format.js';

export async function render(root, { params, navigate }) {
  const field = (id, label, attrs) => [el('label', { for: id }, label), el('input', { id, name: id, class: 'input', required: true, ...attrs })];
  const message = el('p', { class: 'notice notice-error', role: 'alert', hidden: true });
  const submit = el('button', { type: 'submit', class: 'button button-primary button-big' }, 'Entrar e cadastrar este celular');
  const form = el('form', { class: 'stack', novalidate: true },
    ...field('username', 'Usuário', { autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false' }),
    ...field('password', 'Senha', { type: 'password', autocomplete: 'current-password' }),
    ...field('device-name', 'Nome deste celular', { value: 'Celular do fiscal', maxlength: 80 }),
    el('p', { class: 'hint' }, 'Precisa de internet só agora. Depois o aplicativo funciona sem sinal.'),
    message, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.hidden = true;
    const values = ['username', 'password', 'device-name'].map((id) => form.querySelector(`#${id}`).value);
    if (values.some((v) => !v.trim())) {
      message.textContent = 'Informe usuário, senha e o nome do celular.';
      message.hidden = false;
      return;
    }
    submit.disabled = true;
    submit.textContent = 'Entrando…';
    try {
      await enroll({ username: values[0], password: values[1], deviceName: values[2] });
      navigate(params.get('expirado') ? '/fiscal' : '/fiscal/pin?criar=1', { replace: true });
    } catch (error) {
      message.textContent = error.offline ? 'Sem conexão: o primeiro acesso precisa de internet.' : error.message;
      message.hidden = false;
      submit.disabled = false;
      submit.textContent = 'Entrar e cadastrar este celular';
    }
  });
  mount(root, 
    el('h1', {}, 'Sou fiscal'),
    params.get('expirado') ? el('p', { class: 'notice notice-warn', role: 'status' }, 'Sua sessão expirou. Entre de novo: os registros ainda não enviados continuam neste celular e serão enviados depois.') : null,
    params.get('revogado') ? el('p', { class: 'notice notice-warn', role: 'status' }, 'Este celular foi desativado pela prefeitura e seus dados foram apagados. Entre de novo para recadastrá-lo.') : null,
    form);
}
