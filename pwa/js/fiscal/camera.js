// The scanner's camera, warm between the crachás of one roadside stop: "Ler outro crachá" finds
// the rear camera already running (getUserMedia took ~400 ms at 4× CPU, bench/fieldapp_perf.py)
// instead of starting it again. For battery and privacy it stops as soon as the stop is left —
// any screen other than the scanner and its verdict (home, checklist, search…), the page hidden
// (screen off, another app) or a verdict left idle for IDLE_MS.
const STOP_SCREENS = new Set(['/fiscal/ler', '/fiscal/verificacao']);
const IDLE_MS = 60000;

let stream = null;
let opening = null; // getUserMedia in flight: a second caller (the tap, then the screen) shares it
let idle = null;

function live(s) {
  return s && s.getVideoTracks().some((track) => track.readyState === 'live');
}

/** The running rear camera, or a new one (rejects as getUserMedia does: no permission, in use). */
export function openCamera() {
  clearTimeout(idle);
  if (live(stream)) return Promise.resolve(stream);
  if (opening) return opening;
  const starting = navigator.mediaDevices.getUserMedia({
    video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 } }, audio: false,
  }).then((started) => {
    if (opening !== starting) { // stopCamera() ran meanwhile (the stop was left)
      started.getTracks().forEach((track) => track.stop());
      throw new Error('camera stopped while starting');
    }
    opening = null;
    stream = started;
    return started;
  }, (error) => {
    if (opening === starting) opening = null;
    throw error;
  });
  opening = starting;
  return starting;
}

// A press on "Ler crachá" starts the camera before the finger lifts: the stream's start is the
// longest step from the tap to the verdict, and a tap on a phone holds the glass ~100 ms. A press
// that does not end on the scanner (a scroll, a press dragged away, a long press) stops it again.
const AHEAD_MS = 1500;

/** openCamera() for a press that is not a tap yet: stopped AHEAD_MS later unless the scanner is up. */
export function openCameraAhead() {
  const opening = openCamera();
  setTimeout(() => { if (!STOP_SCREENS.has(currentScreen())) stopCamera(); }, AHEAD_MS);
  return opening;
}

/** The scanner has no more use for the camera now; keep it warm for the stop's next crachá. */
export function releaseCamera() {
  clearTimeout(idle);
  if (!stream) return;
  if (document.hidden || !STOP_SCREENS.has(currentScreen())) { stopCamera(); return; }
  idle = setTimeout(stopCamera, IDLE_MS);
}

/** Camera off now. */
export function stopCamera() {
  clearTimeout(idle);
  opening = null; // one still starting is stopped as soon as it arrives
  if (stream) stream.getTracks().forEach((track) => track.stop());
  stream = null;
}

function currentScreen() {
  return (location.hash.replace(/^#/, '') || '/').split('?')[0];
}

window.addEventListener('hashchange', () => { if (!STOP_SCREENS.has(currentScreen())) stopCamera(); });
document.addEventListener('visibilitychange', () => { if (document.hidden) stopCamera(); });
window.addEventListener('pagehide', stopCamera);
