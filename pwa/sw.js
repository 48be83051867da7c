/* Motofiscal field-app service worker, hand-written.
 *
 * The server (server/modules/fieldapp/shell.py) replaces the two literals below with the shell
 * version (a hash of every shipped file) and the list of those files, so any change to the app
 * changes this script's bytes and the browser installs it as a *waiting* worker. It activates
 * only when the user accepts the update prompt (js/sw-bridge.js sends SKIP_WAITING).
 */
const VERSION = "__SHELL_VERSION__";
const SHELL_FILES = ["__SHELL_FILES__"];

const SHELL_CACHE = `shell-${VERSION}`;
// Caches that survive activation. A later runtime cache must be listed here or it is deleted.
const KEEP_CACHES = new Set([SHELL_CACHE]);
// The operator's copy worker (copy-sw.js, scope /a/) owns these: not ours to delete.
const OTHER_WORKER_CACHES = /^copy-/;
const SCOPE_PATH = new URL('./', self.location).pathname; // "/app/"
const SHELL_PAGE = new URL('./', self.location).href;
// First visit before the shell is cached: a roadside connection can hang; give up after this.
const NAVIGATION_TIMEOUT_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // cache: 'reload' skips the HTTP cache, so a new shell is never assembled from stale files.
    await cache.addAll(SHELL_FILES.map((url) => new Request(url, { cache: 'reload' })));
  })());
  // No skipWaiting() here: an update waits for the user's consent.
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => !KEEP_CACHES.has(name) && !OTHER_WORKER_CACHES.test(name))
      .map((name) => caches.delete(name)));
    // Control the page that installed us on first visit, so it works offline without a reload.
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  const type = event.data && event.data.type;
  if (type === 'SKIP_WAITING') self.skipWaiting();
  if (type === 'GET_VERSION' && event.ports[0]) event.ports[0].postMessage({ version: VERSION });
});

// Background Sync (Chromium): the network is back — ask an open page to replay the outbox (the
// page owns the token and the replay logic; with no page open the next start replays it).
self.addEventListener('sync', (event) => {
  if (event.tag !== 'outbox') return;
  event.waitUntil((async () => {
    const pages = await self.clients.matchAll({ type: 'window' });
    pages.forEach((page) => page.postMessage({ type: 'SYNC_OUTBOX' }));
  })());
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(shellFirstNavigation(request));
    return;
  }
  // API calls (/api/…) and anything else outside the app go straight to the network and are
  // never stored in the shell cache: they carry personal data and must not outlive a logout.
  if (!url.pathname.startsWith(SCOPE_PATH)) return;
  event.respondWith(cacheFirst(request));
});

// The shell page comes from the cache, never waiting for the network: at the roadside a "one
// bar" connection (2 s round trips) must open the app as fast as no connection at all. It is
// versioned with the rest of the shell, so it always matches the cached scripts; a new shell
// arrives through the worker update (the browser checks sw.js on navigations by itself).
async function shellFirstNavigation(request) {
  const shell = await caches.match(SHELL_PAGE, { cacheName: SHELL_CACHE });
  if (shell) return shell;
  return withTimeout(fetch(request), NAVIGATION_TIMEOUT_MS);
}

// Shell files are versioned as a whole by SHELL_CACHE, so a cached copy is always current.
async function cacheFirst(request) {
  const cached = await caches.match(request, { cacheName: SHELL_CACHE });
  return cached || fetch(request);
}

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then(
      (value) => { clearTimeout(timer); resolve(value); },
      (error) => { clearTimeout(timer); reject(error); },
    );
  });
}
