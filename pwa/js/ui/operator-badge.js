// The operator's digital crachá, full screen: photo, name, permit, plate, validity, status and
// the signed QR the fiscal scans. Shown from the copy saved on the phone (works offline) and
// refreshed from the server when there is a connection.
import { effectiveStatus, hasSession, refreshBadge, savedBadge, signOutAndWipe } from '../data/operator.js';
import { unsentCount } from '../data/operator-outbox.js';
import { el, formatDate, formatDateTime, formatPlate } from './format.js';
import { qrSvg } from './qr-code.js';

export async function render(root, { navigate }) {
  let badge = await savedBadge();
  if (!badge) {
    if (!(await hasSession())) {
      navigate('/operador/entrar', { replace: true });
      return undefined;
    }
    try {
      badge = await refreshBadge(); // activated, but the first download did not finish
    } catch (error) {
      if (error.status === 401) {
        navigate('/operador/entrar', { replace: true });
        return undefined;
      }
      root.append(
        el('h1', {}, 'Crachá digital'),
        el('p', { class: 'notice notice-error', role: 'alert' }, `Não foi possível baixar o crachá. ${error.message}`),
        el('button', { type: 'button', class: 'button button-primary button-big', onclick: () => navigate('/operador/cracha', { replace: true }) }, 'Tentar novamente'),
      );
      return undefined;
    }
  }
  const photoUrls = [];
  const status = el('p', { class: 'notice', id: 'badge-sync', role: 'status' });
  const card = el('section', { class: 'badge-card', id: 'badge' });
  const draw = (b) => card.replaceChildren(...badgeContent(b, photoUrls));
  draw(badge);
  status.textContent = `Dados de ${formatDateTime(badge.fetched_at)}.`;

  const actions = el('div', { class: 'stack' },
    el('button', { type: 'button', class: 'button button-primary button-big', onclick: () => goFullscreen(card) }, 'Mostrar em tela cheia'),
    el('button', { type: 'button', class: 'button button-big', onclick: () => navigate('/operador/autos') }, 'Minhas autuações'),
    el('button', {
      type: 'button', class: 'button button-link',
      onclick: async () => {
        if (!window.confirm('Sair e apagar o crachá deste celular?')) return;
        const unsent = await unsentCount();
        if (unsent && !window.confirm(`${unsent} pedido(s) de defesa ou recurso ainda não chegaram à Prefeitura `
          + 'e serão apagados. Sair mesmo assim?')) return;
        await signOutAndWipe();
        navigate('/', { replace: true });
      },
    }, 'Sair deste celular'),
  );
  root.append(card, status, actions);

  const wakeLock = await keepScreenOn();
  refreshBadge().then((fresh) => {
    if (!fresh) return;
    badge = fresh;
    draw(badge);
    status.textContent = `Atualizado agora (${formatDateTime(badge.fetched_at)}).`;
  }).catch((error) => {
    if (error.status === 401) {
      navigate('/operador/entrar', { replace: true });
      return;
    }
    status.textContent = error.offline
      ? `Sem conexão: mostrando os dados salvos em ${formatDateTime(badge.fetched_at)}.`
      : `${error.message} Mostrando os dados salvos em ${formatDateTime(badge.fetched_at)}.`;
  });

  return () => {
    photoUrls.forEach((u) => URL.revokeObjectURL(u));
    if (wakeLock) wakeLock.release().catch(() => {});
  };
}

function badgeContent(badge, photoUrls) {
  const status = effectiveStatus(badge);
  let photo;
  if (badge.photo instanceof Blob) {
    const url = URL.createObjectURL(badge.photo);
    photoUrls.push(url);
    photo = el('img', { class: 'badge-photo', src: url, alt: `Foto de ${badge.name}` });
  } else {
    photo = el('div', { class: 'badge-photo badge-photo-missing' }, 'Sem foto');
  }
  const municipality = badge.municipality || {};
  return [
    el('header', { class: 'badge-header' },
      el('span', {}, `Prefeitura de ${municipality.name || ''}${municipality.uf ? ` – ${municipality.uf}` : ''}`),
      el('strong', {}, 'Crachá de mototaxista')),
    el('div', { class: 'badge-identity' },
      photo,
      el('div', {},
        el('h1', { class: 'badge-name', id: 'badge-name' }, badge.name),
        el('p', { class: `status status-${status.code}`, id: 'badge-status' }, status.label))),
    el('dl', { class: 'badge-facts' },
      // Nortelândia: the permit is held by a company; the crachá names its driver.
      badge.holder_company
        ? el('div', { class: 'wide' }, el('dt', {}, 'Autorizada'), el('dd', { id: 'badge-company' }, badge.holder_company))
        : null,
      el('div', { class: 'wide' }, el('dt', {}, badge.permit_kind_label || 'Alvará'), el('dd', { id: 'badge-permit' }, badge.permit_number)),
      el('div', {}, el('dt', {}, 'Placa'), el('dd', { id: 'badge-plate' }, formatPlate(badge.plate))),
      el('div', {}, el('dt', {}, 'Válido até'), el('dd', { id: 'badge-valid' }, formatDate(badge.valid_until)))),
    badge.credential_payload
      ? el('div', { class: 'badge-qr', id: 'badge-qr' }, qrSvg(badge.credential_payload))
      : el('p', { class: 'notice notice-warn', id: 'badge-no-qr' }, missingQrReason(status)),
  ];
}

function missingQrReason(status) {
  if (status.code === 'ativo') return 'Crachá assinado ainda não emitido: procure o setor de cadastro.';
  return `Situação: ${status.label.toLowerCase()} — sem crachá válido para trabalhar. Procure o setor de cadastro.`;
}

function goFullscreen(node) {
  if (!node.requestFullscreen) return;
  node.requestFullscreen().catch(() => {});
  // A tap anywhere on the crachá leaves full screen (easier with gloves than a small control).
  node.addEventListener('click', () => {
    if (document.fullscreenElement === node) document.exitFullscreen().catch(() => {});
  }, { once: true });
}

// Keep the screen lit while the crachá is shown to a fiscal (not every browser has it).
async function keepScreenOn() {
  try {
    return navigator.wakeLock ? await navigator.wakeLock.request('screen') : null;
  } catch {
    return null;
  }
}
