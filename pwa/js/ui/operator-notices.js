// Where the Prefeitura tells the operator (issue 37): the contacts on record (masked), the channels
// this Prefeitura sends by, whether its notices can be an intimação, the opt-out of optional
// notices, and the LGPD basis and retention of what is sent. Needs a connection (it is the
// server's to say); the notices themselves read offline on each auto's page.
import { noticePreferences, savedBadge, setOptionalOptOut } from '../data/operator.js';
import { el, mount } from './format.js';

export async function render(root, { navigate }) {
  if (!(await savedBadge())) {
    navigate('/operador/entrar', { replace: true });
    return;
  }
  mount(root, el('h1', {}, 'Avisos e contatos'));
  let prefs;
  try {
    prefs = await noticePreferences();
  } catch (error) {
    mount(root, el('p', { class: 'notice notice-warn', role: 'alert' }, error.offline
      ? 'Sem conexão: abra esta tela com sinal. Os avisos já recebidos estão em cada auto.' : error.message),
    el('button', { type: 'button', class: 'button button-big', onclick: () => navigate('/operador/autos') }, 'Minhas autuações'));
    return;
  }
  const status = el('p', { role: 'status', class: 'hint', id: 'prefs-status' });
  const optOut = el('input', { type: 'checkbox', id: 'opt-out', checked: prefs.optional_opt_out });
  optOut.addEventListener('change', async () => {
    optOut.disabled = true;
    try {
      const saved = await setOptionalOptOut(optOut.checked);
      optOut.checked = saved.optional_opt_out;
      status.textContent = saved.optional_opt_out ? 'Você não receberá avisos opcionais.' : 'Você voltará a receber avisos opcionais.';
    } catch (error) {
      optOut.checked = !optOut.checked;
      status.textContent = error.offline ? 'Sem conexão: a escolha não foi salva.' : error.message;
    } finally {
      optOut.disabled = false;
    }
  });
  mount(root,
    el('dl', { class: 'facts', id: 'contacts' },
      el('div', {}, el('dt', {}, 'E-mail'), el('dd', {}, prefs.email || 'não cadastrado')),
      el('div', {}, el('dt', {}, 'Celular'), el('dd', {}, prefs.mobile || 'não cadastrado')),
      el('div', {}, el('dt', {}, 'Canais da Prefeitura'), el('dd', {}, prefs.channels.length ? prefs.channels.join(', ') : 'nenhum: os avisos aparecem só neste aplicativo'))),
    el('p', { class: 'hint' }, 'Para mudar e-mail ou celular, procure o setor de cadastro (os avisos do processo vão a eles).'),
    el('p', { class: 'notice', id: 'nature' }, prefs.intimacao
      ? `A Prefeitura admite a intimação eletrônica (${prefs.intimacao}) e você aderiu: a notificação de autuação enviada a você é intimação, e a ciência é a sua confirmação neste aplicativo.`
      : 'Os avisos não são intimação: os prazos correm da ciência registrada pela Prefeitura (assinatura no auto, entrega pessoal, carta com AR ou edital).'),
    el('label', { class: 'check-big', for: 'opt-out' }, optOut, 'Não quero avisos opcionais (prazo terminando, pagamento recebido)'),
    status,
    el('h2', {}, 'Seus dados'),
    el('p', { id: 'lgpd' }, prefs.lgpd_pt),
    el('p', { id: 'retention' }, prefs.retention_pt),
    el('button', { type: 'button', class: 'button button-big', onclick: () => navigate('/operador/autos') }, 'Minhas autuações'));
}
