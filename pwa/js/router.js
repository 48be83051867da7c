// Hash router: "#/operador/cracha?x=1" → the screen registered for "/operador/cracha".
// A screen module exports render(root, ctx) and may return a cleanup function (called before
// the next screen renders) — e.g. to release a wake lock or stop a camera.

let current = { cleanup: null, seq: 0 };

export function navigate(path, { replace = false } = {}) {
  const hash = `#${path}`;
  if (replace) {
    history.replaceState(null, '', hash);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    location.hash = hash;
  }
}

/**
 * The current screen has drawn another route's content itself (the scanner shows its verdict in
 * place, ~160 ms faster than a route change at 4× CPU): record that route in the URL without a
 * hashchange, so back and reload land on it, and label the page as that route would. `over`:
 * the URL the screen was drawn for; when the URL is no longer that one (back pressed before the
 * router ran the screen's cleanup), nothing is adopted — it would land on the entry gone back to —
 * and false is returned.
 */
export function adoptRoute(path, { over = location.hash } = {}) {
  if (location.hash !== over) return false;
  history.replaceState(null, '', `#${path}`);
  const bare = path.split('?')[0];
  const route = known.find((r) => r.path === bare);
  document.title = route?.title ? `${route.title} · Motofiscal` : 'Motofiscal';
  document.body.dataset.route = bare;
  return true;
}

let known = [];

/** Resolves after the next frame is painted: work a screen's first paint must not wait for. */
export function afterPaint() {
  return new Promise((resolve) => { requestAnimationFrame(() => setTimeout(resolve, 0)); });
}

export function startRouter({ routes, outlet, notFound = '/' }) {
  known = routes;
  async function show() {
    const [path, query = ''] = (location.hash.replace(/^#/, '') || '/').split('?');
    const route = routes.find((r) => r.path === path) || routes.find((r) => r.path === notFound);
    const seq = ++current.seq;
    let screen;
    try {
      screen = await route.load();
    } catch (error) {
      outlet.replaceChildren(errorBox('Não foi possível abrir esta tela.', error));
      return;
    }
    if (seq !== current.seq) return; // the user navigated again meanwhile
    if (typeof current.cleanup === 'function') current.cleanup();
    current.cleanup = null;
    outlet.replaceChildren();
    document.title = route.title ? `${route.title} · Motofiscal` : 'Motofiscal';
    document.body.dataset.route = path;
    try {
      current.cleanup = await screen.render(outlet, { params: new URLSearchParams(query), navigate });
    } catch (error) {
      outlet.replaceChildren(errorBox('Erro ao mostrar esta tela.', error));
    }
    // A screen that put the focus on its first field (the auto's place) keeps it.
    if (!outlet.contains(document.activeElement)) outlet.focus({ preventScroll: true });
  }
  window.addEventListener('hashchange', show);
  return show();
}

function errorBox(message, error) {
  console.error(error);
  const box = document.createElement('p');
  box.className = 'notice notice-error';
  box.textContent = message;
  return box;
}
