// "Pronto para uso sem internet" only when it is true: the service worker controls this page
// (so a reload without network is answered from its cache), the app shell is in that cache, and
// the field data (crachás and keys, rules, registry, auto numbers) is in IndexedDB. Saying it
// when the download finished but before the worker took control let a fiscal go offline with a
// page that could not reload (issue 18, item 8).
import { get } from '../data/db.js';

export const FIELD_KEYS = { trust: 'crachás e chaves', rules: 'regras da lei', field: 'cadastro', numbers: 'números de auto' };

/** Pure: what is still missing, in the fiscal's words (empty = ready). */
export function missingForOffline({ controlled, shellCached, stored }) {
  const missing = [];
  if (!controlled || !shellCached) missing.push('o aplicativo ainda está sendo guardado no aparelho');
  for (const [key, label] of Object.entries(FIELD_KEYS)) if (!stored[key]) missing.push(label);
  return missing;
}

async function state() {
  const sw = navigator.serviceWorker;
  const keys = typeof caches !== 'undefined' ? await caches.keys() : [];
  const stored = {};
  for (const key of Object.keys(FIELD_KEYS)) {
    const value = await get('reference', key);
    stored[key] = key === 'numbers' ? Boolean(value?.available?.length) : Boolean(value?.data);
  }
  return { controlled: Boolean(sw && sw.controller), shellCached: keys.some((k) => k.startsWith('shell-')), stored };
}

/** Resolves with the missing list once the worker controls the page (or at once when the field
 *  data is incomplete: then no wait makes it ready). onUpdate(missing) on every change. */
export async function offlineReadiness(onUpdate = () => {}) {
  let missing = missingForOffline(await state());
  onUpdate(missing);
  const sw = navigator.serviceWorker;
  if (!sw) return missing;
  const dataMissing = missing.filter((m) => Object.values(FIELD_KEYS).includes(m));
  if (dataMissing.length) return missing;
  if (!sw.controller) {
    await sw.ready; // the worker's install (shell cached) is done; clients.claim() follows
    if (!sw.controller) await new Promise((resolve) => sw.addEventListener('controllerchange', resolve, { once: true }));
  }
  missing = missingForOffline(await state());
  onUpdate(missing);
  return missing;
}
