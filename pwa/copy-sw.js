/* The operator's copy worker: scope /a/, registered by the operator's app (js/data/copy-verifier.js)
 * as /app/copy-sw.js?m=<IBGE of the operator's municipality>.
 *
 * A fiscal's signed copy (/a/#…) is verified in the operator's browser with the device keys the
 * municipality publishes. At a stop without signal the operator's phone cannot fetch them, nor
 * the page: this worker keeps both. It precaches the copy page and every file it loads, and the
 * municipality's device keys, refreshed on each contact — every verification made online, and
 * every start of the operator's app (REFRESH_KEYS). Keys are public (device id, key, status);
 * nothing personal is stored: the copy itself lives in the address's fragment only.
 *
 * The server (server/modules/fieldapp/copy_worker.py) replaces the two literals below with the
 * version (a hash of the page and the files) and the list of those files, so any change to the
 * page makes a new worker. It activates at once: the copy page holds no work to lose.
 */
const VERSION = "__COPY_VERSION__";
const FILES = ["__COPY_FILES__"];

const PAGE_CACHE = `copy-page-${VERSION}`;
const KEYS_CACHE = 'copy-keys';
const PAGE_PATH = '/a/';
const KEYS_PATH = /^\/api\/v1\/public\/municipalities\/\d{1,7}\/device-keys$/;
// Set on a saved answer: when it was fetched, so the page can say how old the keys it used are.
const SAVED_HEADER = 'X-Copy-Keys-Saved';
// A roadside connection can hang: past this, the saved keys answer and the network refreshes them.
const NETWORK_TIMEOUT_MS = 3000;
const IBGE = new URL(self.location.href).searchParams.get('m');

const keysUrl = (ibge) => new URL(`/api/v1/public/municipalities/${encodeURIComponent(ibge)}/device-keys`, self.location.origin).href;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(PAGE_CACHE);
    // Anonymous and past the HTTP cache: the page as any visitor gets it, never a stale file.
    await cache.addAll(FILES.map((url) => new Request(url, { cache: 'reload', credentials: 'omit' })));
    if (IBGE) await refreshKeys(keysUrl(IBGE)).catch(() => {}); // offline now: the next contact saves them
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith('copy-page-') && name !== PAGE_CACHE).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  const type = event.data && event.data.type;
  if (type !== 'REFRESH_KEYS' || !IBGE) return;
  const reply = event.ports && event.ports[0];
  event.waitUntil(refreshKeys(keysUrl(IBGE)).then(
    ({ saved, at }) => reply && reply.postMessage({ saved, at }),
    () => reply && reply.postMessage({ saved: false }),
  ));
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (KEYS_PATH.test(url.pathname)) {
    event.respondWith(keysNetworkFirst(event, url.href));
    return;
  }
  // The copy page itself (its fragment never reaches here) and the files it loads. Anything else
  // in scope — /a/<token>, the server's view of an auto — goes to the network untouched.
  const key = request.mode === 'navigate' ? (url.pathname === PAGE_PATH ? PAGE_PATH : null) : url.pathname;
  if (key === null || !FILES.includes(key)) return;
  event.respondWith(cacheFirst(key, request));
});

async function cacheFirst(key, request) {
  const cached = await caches.match(key, { cacheName: PAGE_CACHE });
  return cached || fetch(request);
}

// The network's answer when it comes in time (saved for later); else the saved one, marked.
async function keysNetworkFirst(event, href) {
  const network = refreshKeys(href);
  event.waitUntil(network.catch(() => {}));
  const timeout = new Promise((resolve) => { setTimeout(() => resolve(null), NETWORK_TIMEOUT_MS); });
  const fresh = await Promise.race([network.then((r) => r.response, () => null), timeout]);
  if (fresh) return fresh;
  const saved = await caches.match(href, { cacheName: KEYS_CACHE });
  return saved || network.then((r) => r.response); // nothing saved: the network's answer or error
}

// Fetch the keys and save a copy, marked with the time it was fetched: {response, at, saved}.
// A 404 (unknown municipality) or a server error is answered, never saved over good keys.
async function refreshKeys(href) {
  const response = await fetch(href, { cache: 'no-store', credentials: 'omit', headers: { Accept: 'application/json' } });
  const at = new Date().toISOString();
  if (!response.ok) return { response, at, saved: false };
  const headers = new Headers(response.headers);
  headers.set(SAVED_HEADER, at);
  const body = await response.clone().arrayBuffer();
  const cache = await caches.open(KEYS_CACHE);
  await cache.put(href, new Response(body, { status: response.status, headers }));
  return { response, at, saved: true };
}
