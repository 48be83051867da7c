// Every fiscal screen starts here: no enrollment → login; idle for too long → PIN.
import { enrollment, isLocked, touch } from './session.js';
import { afterPaint } from '../router.js';

let tracking = false;

export async function requireFiscal(navigate) {
  const { session: s, hasPin } = await enrollment();
  if (!s) {
    navigate('/fiscal/entrar', { replace: true });
    return null;
  }
  if (!hasPin) {
    navigate('/fiscal/pin?criar=1', { replace: true });
    return null;
  }
  if (isLocked()) {
    navigate(`/fiscal/pin?volta=${encodeURIComponent(location.hash.slice(1))}`, { replace: true });
    return null;
  }
  if (!tracking) {
    tracking = true;
    let last = 0;
    const seen = () => { const now = Date.now(); if (now - last > 15000) { last = now; touch(); } };
    window.addEventListener('pointerdown', seen, { passive: true });
    window.addEventListener('keydown', seen);
  }
  touch();
  // The sync (and the outbox, field data and chain modules it imports) after the screen's first
  // paint: a cold start's home shows without them (tests/js/fieldapp_preload.test.mjs).
  afterPaint().then(() => import('./sync.js')).then((sync) => sync.startAutoSync(), (error) => console.error('sync', error));
  return s;
}
