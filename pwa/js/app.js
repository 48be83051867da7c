// Field app entry point: starts the router, registers the service worker, shows connectivity.
import { startRouter } from './router.js';
import { routes } from './routes.js';

function showConnectivity() {
  const badge = document.getElementById('net-status');
  const update = () => { badge.hidden = navigator.onLine; };
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  update();
}

showConnectivity();
// (IndexedDB is already opening: data/db-early.js, loaded by index.html ahead of this graph.)
// The first screen before the service worker's registration: registering (an update check of
// sw.js) competes for the main thread and the network during the cold start.
// (At most 3 s later: a first screen may wait on the camera permission.)
const firstScreen = startRouter({ routes, outlet: document.getElementById('screen') });
// Its module is imported then too: nothing the first screen does not show loads before it.
Promise.race([firstScreen, new Promise((resolve) => { setTimeout(resolve, 3000); })])
  .then(() => import('./sw-bridge.js'))
  .then(({ registerServiceWorker }) => registerServiceWorker({
    prompt: document.getElementById('update-prompt'),
    acceptButton: document.getElementById('update-accept'),
  }))
  .catch((error) => console.error('service worker registration failed', error));
