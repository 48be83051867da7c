// Start screen: choose the mode.
import { hasSession } from '../data/operator.js';
import { get } from '../data/db.js';
import { shellVersion } from '../sw-bridge.js';
import { el } from './format.js';

export async function render(root, { navigate }) {
  const signedIn = await hasSession().catch(() => false);
  const fiscal = await get('meta', 'fiscal-session').catch(() => null);
  const version = el('p', { class: 'footnote', id: 'shell-version' });
  root.append(
    el('h1', {}, 'Motofiscal'),
    el('p', { class: 'lead' }, 'Fiscalização de mototáxi e crachá digital. Funciona sem internet depois de aberto uma vez.'),
    el('div', { class: 'stack' },
      el('button', {
        type: 'button',
        class: 'button button-primary button-big',
        id: 'go-operator',
        onclick: () => navigate(signedIn ? '/operador/cracha' : '/operador/entrar'),
      }, signedIn ? 'Meu crachá' : 'Sou mototaxista'),
      el('button', {
        type: 'button', class: 'button button-big', id: 'go-fiscal',
        onclick: () => navigate(fiscal ? '/fiscal' : '/fiscal/entrar'),
      }, fiscal ? 'Fiscalizar' : 'Sou fiscal'),
    ),
    version,
  );
  const showVersion = () => shellVersion().then((v) => { version.textContent = v ? `Versão do app: ${v}` : ''; });
  showVersion();
  // First visit: the service worker takes control a moment after the page loads.
  const sw = navigator.serviceWorker;
  if (sw) sw.addEventListener('controllerchange', showVersion);
  return () => { if (sw) sw.removeEventListener('controllerchange', showVersion); };
}
