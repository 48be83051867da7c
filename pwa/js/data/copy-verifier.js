// The operator's phone verifies a fiscal's signed copy (/a/#…) at a stop without signal: the copy
// worker (pwa/copy-sw.js, scope /a/) keeps the copy page and the device keys of the operator's
// municipality. Registered — and asked to refresh the keys — at every contact the operator's
// app has with the server (each crachá download), so the saved keys are as fresh as that.
const WORKER = '/app/copy-sw.js';
const SCOPE = '/a/';

/** Register the copy worker for municipality `ibge` (or update it) and refresh its saved keys. */
export async function keepCopyVerifier(ibge) {
  if (!ibge || !('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.register(`${WORKER}?m=${encodeURIComponent(ibge)}`, {
    scope: SCOPE,
    updateViaCache: 'none',
  });
  // A new worker saves the keys as it installs; one already running refreshes them now.
  if (registration.active) registration.active.postMessage({ type: 'REFRESH_KEYS' });
  return registration;
}
