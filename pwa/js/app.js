// Field app entry point: starts the router, registers the service worker, shows connectivity.
import { startRouter } from './router.js';
import { routes } from './routes.js';
import { registerServiceWorker } from './sw-bridge.js';

function showConnectivity() {
  const badge = document.getElementById('net-status');
  const update = () => { badge.hidden = navigator.onLine; };
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  update();
}

showConnectivity();
startRouter({ routes, outlet: document.getElementById('screen') });
registerServiceWorker({
  prompt: document.getElementById('update-prompt'),
  acceptButton: document.getElementById('update-accept'),
}).catch((error) => console.error('service worker registration failed', error));
