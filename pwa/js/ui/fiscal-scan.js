// Scanner: rear camera; native BarcodeDetector where present, else zxing-wasm (jsQR as its
// fallback) in a worker loaded only now. Torch where the camera offers it. Manual entry of permit
// number or plate always. A verified crachá's verdict is drawn here, in place.
import { requireFiscal } from '../fiscal/guard.js';
import { prepareVerification, startFromPayload } from '../fiscal/inspection.js';
import { adoptRoute } from '../router.js';
import { el, mount } from './format.js';
import { searchForm } from './fiscal-search.js';
import { showVerdict } from './fiscal-verdict.js';

const MAX_EDGE = 640; // full frames are decoded downscaled to ~640 px (ARCHITECTURE.md measurements)
const CROP_EDGE = 400; // the guide box alone, at ~400 px: under half the pixels, the QR as sharp
const FULL_EVERY = 3; // every third frame the whole picture, for a QR held outside the box

/** The yellow guide box (CSS inset 18 % of the viewfinder, video object-fit: cover) in video pixels. */
export function guideBox(videoW, videoH, viewW, viewH, inset = 0.18) {
  const scale = Math.max(viewW / videoW, viewH / videoH); // cover: the larger scale fills the view
  const shownW = viewW / scale;
  const shownH = viewH / scale;
  const w = shownW * (1 - 2 * inset);
  const h = shownH * (1 - 2 * inset);
  return { x: (videoW - w) / 2, y: (videoH - h) / 2, w, h };
}

export async function render(root, { navigate }) {
  if (!(await requireFiscal(navigate))) return undefined;
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

  // While the camera starts: field data, index and trusted keys (the verdict screen is a static
  // import), so a decoded frame goes straight to a verdict (≤ 200 ms on a slow phone;
  // bench/fieldapp_perf.py).
  prepareVerification().catch(() => {});
  const decoding = decoder(); // the worker (and its WebAssembly) starts while the camera does
  let stream = null;
  let worker = null;
  let stopped = false;
  let left = false; // the router moved on (this screen's cleanup ran)
  let verdictCleanup = null;
  const stopCamera = () => {
    stopped = true;
    if (stream) stream.getTracks().forEach((t) => t.stop());
    if (worker) worker.terminate();
  };
  const cleanup = () => {
    left = true;
    stopCamera();
    if (typeof verdictCleanup === 'function') verdictCleanup();
  };
  decoding.then((d) => { worker = d.worker; if (stopped && worker) worker.terminate(); }, () => {});
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 } }, audio: false });
  } catch (error) {
    frame.hidden = true;
    message.className = 'notice notice-warn';
    message.textContent = 'Câmera indisponível (sem permissão ou em uso). Digite o número do alvará ou a placa.';
    stopCamera(); // and the decoder's worker, now or as soon as it exists
    return cleanup;
  }
  if (stopped) { cleanup(); return cleanup; }
  video.srcObject = stream;
  await video.play().catch(() => {});
  const track = stream.getVideoTracks()[0];
  const caps = track.getCapabilities ? track.getCapabilities() : {};
  if (caps.torch) {
    torch.hidden = false;
    torch.addEventListener('click', async () => {
      const on = torch.getAttribute('aria-pressed') !== 'true';
      await track.applyConstraints({ advanced: [{ torch: on }] }).catch(() => {});
      torch.setAttribute('aria-pressed', String(on));
    });
  }

  const decode = await decoding;
  await decode.ready; // zxing compiled (or jsQR loaded): the first frame grabbed is decoded at once
  if (stopped) return cleanup;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  // The verdict is drawn here, in place of the scanner: a route change would re-run the guard's
  // IndexedDB reads (session, PIN) and the draft's, ~160 ms at 4× CPU. The URL still becomes the
  // verdict route (replaceState, no hashchange), so back and reload behave as before.
  const found = async (text) => {
    stopped = true; // no more frames; the camera and the worker stop once the verdict is up
    message.textContent = 'Verificando…';
    const draft = await startFromPayload(text).catch((error) => { stopCamera(); throw error; });
    performance.mark('scan-verified'); // bench: decoded → verified → verdict visible
    if (left) { stopCamera(); return; }
    root.replaceChildren();
    verdictCleanup = showVerdict(root, draft, navigate);
    root.focus({ preventScroll: true });
    // After the verdict's first frame: the URL (history.replaceState alone took 20–35 ms of main
    // thread at 4× CPU before the paint), then the camera and the worker stop.
    requestAnimationFrame(() => setTimeout(() => {
      if (!left) adoptRoute(`/fiscal/verificacao?id=${draft.id}`);
      stopCamera();
    }, 0));
  };
  let frames = 0;
  const tick = async () => {
    if (stopped) return;
    if (video.readyState >= 2 && video.videoWidth) {
      const vw = video.videoWidth;
      const vh = video.videoHeight;
      frames += 1;
      // Native detectors and zxing-wasm (~60 ms for 640 px at 4× CPU) read the whole frame, so a
      // QR held outside the yellow box is found on the first frame; jsQR (~4× slower) gets the
      // guide box, the whole frame every third time.
      const full = decode.engine !== 'jsqr' || frames % FULL_EVERY === 0 || !video.clientWidth;
      const box = full ? { x: 0, y: 0, w: vw, h: vh } : guideBox(vw, vh, video.clientWidth, video.clientHeight);
      const scale = Math.min(1, (full ? MAX_EDGE : CROP_EDGE) / Math.max(box.w, box.h));
      const width = Math.round(box.w * scale);
      const height = Math.round(box.h * scale);
      if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
      performance.clearMarks('scan-frame');
      performance.mark('scan-frame'); // bench/fieldapp_perf.py times frame → verdict from here
      ctx.drawImage(video, box.x, box.y, box.w, box.h, 0, 0, width, height);
      const text = await decode.read(canvas, ctx).catch(() => null);
      if (text && !stopped) { performance.mark('scan-decoded', { detail: { engine: decode.engine, ms: decode.ms } }); found(text); return; }
    }
    setTimeout(tick, 80);
  };
  tick();
  return cleanup;
}

async function decoder() {
  if ('BarcodeDetector' in window) {
    try {
      const formats = await window.BarcodeDetector.getSupportedFormats();
      if (formats.includes('qr_code')) {
        const detector = new window.BarcodeDetector({ formats: ['qr_code'] });
        return { worker: null, engine: 'native', ready: Promise.resolve(), read: async (canvas) => (await detector.detect(canvas))[0]?.rawValue || null };
      }
    } catch { /* fall through to the worker */ }
  }
  const worker = new Worker(new URL('../fiscal/qr-worker.js', import.meta.url));
  let pending = null;
  let isReady;
  const api = {
    worker,
    engine: null, // 'zxing' or 'jsqr', from the worker's first message
    ready: new Promise((resolve) => { isReady = resolve; }),
    read: (canvas, ctx) => new Promise((resolve) => {
      const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
      pending = resolve;
      // The pixels move to the worker (transferred, not copied).
      worker.postMessage({ data: image.data.buffer, width: image.width, height: image.height }, [image.data.buffer]);
    }),
  };
  worker.onmessage = (event) => {
    if (event.data.ready) { api.engine = event.data.ready; isReady(); return; }
    api.engine = event.data.engine || api.engine;
    api.ms = event.data.ms; // the worker's own decode time, for bench/fieldapp_perf.py
    if (pending) { pending(event.data.text); pending = null; }
  };
  return api;
}
