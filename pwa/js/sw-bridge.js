// Bridge between the page and the service worker: registration, the update prompt, and the
// reload once the new version takes over.
//
// Rules: a new version never activates without the user's consent ("Atualizar" → SKIP_WAITING),
// and the page never reloads while a screen has declared itself busy (an open inspection or
// draft): such screens call setBusy(true) when work starts and setBusy(false) when it is saved.

const state = {
  busy: false,
  waiting: null,        // the installed worker waiting for consent
  consented: false,     // the user pressed "Atualizar" in this page
  reloadPending: false, // the new worker took over while busy: reload when no longer busy
  prompt: null,
};

export function setBusy(value) {
  state.busy = Boolean(value);
  if (state.busy) {
    hidePrompt();
    return;
  }
  if (state.reloadPending) window.location.reload();
  else if (state.waiting) showPrompt();
}

export function isBusy() {
  return state.busy;
}

/** Version of the shell serving this page, or null without a controlling worker. */
export function shellVersion() {
  const controller = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!controller) return Promise.resolve(null);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), 2000);
    channel.port1.onmessage = (event) => { clearTimeout(timer); resolve(event.data.version); };
    controller.postMessage({ type: 'GET_VERSION' }, [channel.port2]);
  });
}

export async function registerServiceWorker({ prompt, acceptButton }) {
  if (!('serviceWorker' in navigator)) return null;
  state.prompt = prompt;
  acceptButton.addEventListener('click', accept);
  // Without a controller this is the first install: its clients.claim() must not reload us.
  const hadController = Boolean(navigator.serviceWorker.controller);

  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!hadController && !state.consented) return;
    if (!state.consented) {
      // Another tab accepted the update: offer a reload instead of pulling the page away.
      state.waiting = null;
      offer();
      return;
    }
    if (state.busy) state.reloadPending = true;
    else window.location.reload();
  });

  const registration = await navigator.serviceWorker.register('sw.js', {
    scope: './',
    updateViaCache: 'none',
  });
  if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
  // Ask the browser not to evict our storage (crachá, drafts, outbox) under pressure.
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener('statechange', () => {
      if (worker.state === 'installed' && navigator.serviceWorker.controller) offer(worker);
    });
  });
  // Phones keep the app open for days: look for a new version whenever it comes back to front.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') registration.update().catch(() => {});
  });
  return registration;
}

function offer(worker) {
  if (worker) state.waiting = worker;
  if (!state.busy) showPrompt();
}

function accept() {
  hidePrompt();
  if (state.waiting) {
    state.consented = true;
    state.waiting.postMessage({ type: 'SKIP_WAITING' }); // controllerchange then reloads
  } else {
    window.location.reload(); // the new version is already active (accepted in another tab)
  }
}

function showPrompt() {
  if (state.prompt) state.prompt.hidden = false;
}

function hidePrompt() {
  if (state.prompt) state.prompt.hidden = true;
}
