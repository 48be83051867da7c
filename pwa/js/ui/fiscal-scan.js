// Scanner: rear camera; native BarcodeDetector where present, else zxing-wasm (jsQR as its
// fallback) in a worker loaded only now. Torch where the camera offers it. Manual entry of permit
// number or plate always. A verified crachá's verdict is drawn here, in place.
import { openCamera, releaseCamera, stopCamera } from '../fiscal/camera.js';
import { holdRows } from '../fiscal/field-data.js';
import { requireFiscal } from '../fiscal/guard.js';
import { prepareVerification, startFromPayload } from '../fiscal/inspection.js';
import { qrDecoder } from '../fiscal/qr-decoder.js';
import { adoptRoute, afterPaint } from '../router.js';
import { el, mount } from './format.js';
import { searchForm } from './fiscal-search.js';
import { rehearseVerdict, showVerdict } from './fiscal-verdict.js';

const MAX_EDGE = 640; // full frames are decoded downscaled to ~640 px (ARCHITECTURE.md measurements)
const CROP_EDGE = 320; // the guide box alone, at ~320 px: a quarter of the whole frame's pixels (zxing ~4× faster)

/** The yellow guide box (CSS inset 18 % of the viewfinder, video object-fit: cover) in video pixels. */
export function guideBox(videoW, videoH, viewW, viewH, inset = 0.18) {
  const scale = Math.max(viewW / videoW, viewH / videoH); // cover: the larger scale fills the view
  const shownW = viewW / scale;
  const shownH = viewH / scale;
  const w = shownW * (1 - 2 * inset);
  const h = shownH * (1 - 2 * inset);
  return { x: (videoW - w) / 2, y: (videoH - h) / 2, w, h };
}

// How long the scanner holds the home's read of the registry rows at most: a crachá held to the
// camera reads in ~250 ms; a fiscal still aiming (or typing) after this lets the read go on.
const HOLD_ROWS_MS = 2000;
const SAY_CHECKING_AFTER_MS = 150; // a check that takes longer says so (a slow phone, a large registry)

/**
 * What the scanner does for its first crachá, done ahead by the home when idle: the verification
 * prepared and the verdict rehearsed. The scanner asks again (cheap once done; the whole of it
 * after a hasty tap).
 */
export function rehearseScanner() {
  prepareVerification({ rehearse: true }).catch(() => {});
  rehearseVerdict();
}

export async function render(root, { navigate }) {
  // The registry's idle read waits from here to the verdict's first frame (issue 40).
  const releaseRows = holdRows();
  const holding = setTimeout(releaseRows, HOLD_ROWS_MS);
  if (!(await requireFiscal(navigate))) { releaseRows(); return undefined; }
  // The camera (warm from the stop's last crachá, or starting) and the decoder's worker (its
  // WebAssembly compiling) start before this screen draws: getUserMedia took ~400 ms at 4× CPU.
  const opening = openCamera();
  opening.catch(() => {}); // handled below, once the screen is up
  const decode = qrDecoder();
  const video = el('video', { class: 'scan-video', id: 'scan-video', muted: true, playsinline: true, autoplay: true, 'aria-label': 'Imagem da câmera' });
  const message = el('p', { class: 'notice', role: 'status', id: 'scan-status' }, 'Aponte a câmera para o QR do crachá.');
  const frame = el('div', { class: 'scan-frame' }, video, el('div', { class: 'scan-target', 'aria-hidden': 'true' }));
  const torch = el('button', { type: 'button', class: 'button', id: 'torch', hidden: true, 'aria-pressed': 'false' }, 'Lanterna');
  mount(root,
    el('h1', {}, 'Ler crachá'),
    frame,
    message, torch,
    el('h2', {}, 'Ou digite'),
    searchForm(navigate),
  );
  performance.mark('scan-screen'); // bench: tap → screen drawn → camera playing → decoder ready

  // Field data, index and trusted keys, the signature check warmed up and the verdict rehearsed,
  // so a decoded frame goes straight to a verdict (bench/fieldapp_perf.py): done already when
  // the home had an idle moment (rehearseScanner), here otherwise.
  const prepared = prepareVerification().catch(() => null);
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  afterPaint().then(() => {
    if (left) return;
    rehearseVerdict();
    ctx.getImageData(0, 0, 1, 1); // the canvas read-back's first call, off the first frame's path
  });
  let stopped = false; // no more frames: a verdict is up or the screen was left
  let left = false; // the router moved on (this screen's cleanup ran)
  let verdictCleanup = null;
  const entry = location.hash; // this scanner's URL, which its verdict's replaces
  // Page hidden mid-scan: camera.js stops the camera and the decoder (privacy, battery); back in
  // view, the screen is drawn again, which opens both anew.
  const revive = () => {
    if (!document.hidden && !left && !stopped) window.dispatchEvent(new HashChangeEvent('hashchange'));
  };
  document.addEventListener('visibilitychange', revive);
  const cleanup = () => {
    clearTimeout(holding);
    releaseRows();
    left = true;
    stopped = true;
    document.removeEventListener('visibilitychange', revive);
    video.srcObject = null;
    releaseCamera(); // warm for the stop's next crachá; camera.js stops it when the stop is left
    if (typeof verdictCleanup === 'function') verdictCleanup();
  };
  let stream;
  try {
    stream = await opening;
    performance.mark('scan-stream'); // bench: getUserMedia's stream here, then playing (scan-camera)
  } catch (error) {
    frame.hidden = true;
    message.className = 'notice notice-warn';
    message.textContent = 'Câmera indisponível (sem permissão ou em uso). Digite o número do alvará ou a placa.';
    stopCamera();
    return cleanup;
  }
  if (left) return cleanup;
  video.srcObject = stream;
  await video.play().catch(() => {});
  performance.mark('scan-camera');
  const track = stream.getVideoTracks()[0];
  const caps = track.getCapabilities ? track.getCapabilities() : {};
  if (caps.torch) {
    torch.hidden = false;
    torch.setAttribute('aria-pressed', String(Boolean(track.getSettings?.().torch)));
    torch.addEventListener('click', async () => {
      const on = torch.getAttribute('aria-pressed') !== 'true';
      await track.applyConstraints({ advanced: [{ torch: on }] }).catch(() => {});
      torch.setAttribute('aria-pressed', String(on));
    });
  }

  const decoder = await decode;
  await decoder.ready; // zxing compiled (or jsQR loaded): the first frame grabbed is decoded at once
  performance.mark('scan-ready', { detail: { engine: decoder.engine, warm: decoder.warm } });
  if (stopped) return cleanup;
  // The verdict is drawn here, in place of the scanner: a route change would re-run the guard's
  // IndexedDB reads (session, PIN) and the draft's, ~160 ms at 4× CPU. The URL still becomes the
  // verdict route (replaceState, no hashchange), so back and reload behave as before.
  const found = async (text) => {
    stopped = true;
    // Said only when the check is slow to come: a status change now is a style, layout and paint
    // of this screen inside the ~30 ms of a usual check, which the verdict then paints over.
    const saying = setTimeout(() => { message.textContent = 'Verificando…'; }, SAY_CHECKING_AFTER_MS);
    const draft = await startFromPayload(text, await prepared).finally(() => clearTimeout(saying));
    performance.mark('scan-verified'); // bench: decoded → verified → verdict visible
    if (left) return;
    root.replaceChildren();
    verdictCleanup = showVerdict(root, draft, navigate);
    root.focus({ preventScroll: true });
    // After the verdict's first frame: the URL (history.replaceState alone took 20–35 ms of main
    // thread at 4× CPU before the paint); the camera stays warm for "Ler outro crachá".
    // Only over this scanner's own URL (adoptRoute: back pressed meanwhile moved it).
    requestAnimationFrame(() => setTimeout(() => {
      releaseRows();
      if (left || !adoptRoute(`/fiscal/verificacao?id=${draft.id}`, { over: entry })) return;
      video.srcObject = null;
      releaseCamera();
    }, 0));
  };
  let full = true; // what the last read was
  const tick = async () => {
    if (stopped) return;
    if (video.readyState >= 2 && video.videoWidth) {
      const vw = video.videoWidth;
      const vh = video.videoHeight;
      // The cheaper read first: the yellow guide box, where the fiscal holds the QR, downscaled
      // to CROP_EDGE, with zxing's quicker binarizer; when it finds nothing, the whole frame at
      // once with the robust one (a QR outside the box, shade, glare).
      full = !full || !video.clientWidth;
      const box = full ? { x: 0, y: 0, w: vw, h: vh } : guideBox(vw, vh, video.clientWidth, video.clientHeight);
      const scale = Math.min(1, (full ? MAX_EDGE : CROP_EDGE) / Math.max(box.w, box.h));
      const width = Math.round(box.w * scale);
      const height = Math.round(box.h * scale);
      if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
      performance.clearMarks('scan-frame');
      performance.mark('scan-frame', { detail: { full } }); // bench/fieldapp_perf.py times frame → verdict from here
      ctx.drawImage(video, box.x, box.y, box.w, box.h, 0, 0, width, height);
      const text = await decoder.read(canvas, ctx, { cheap: !full }).catch(() => null);
      if (text && !stopped) {
        performance.mark('scan-decoded', { detail: { engine: decoder.engine, ms: decoder.ms, full } });
        found(text).catch((error) => {
          console.error('scan', error);
          if (left) return;
          stopped = false;
          message.textContent = 'Não foi possível verificar este QR. Aponte de novo ou digite.';
          setTimeout(tick, 80);
        });
        return;
      }
    }
    setTimeout(tick, full ? 80 : 0); // a missed guide box: the same scene, whole, right away
  };
  tick();
  return cleanup;
}
