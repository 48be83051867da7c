// The scanner's QR decoder: the native BarcodeDetector where present, else the worker
// (qr-worker.js: zxing-wasm, jsQR as its fallback). The worker lives while the page is visible:
// the fiscal home starts it when idle (fiscal-home.js), so the first "Ler crachá" finds zxing
// compiled and warmed up instead of waiting ~400 ms at 4× CPU for both (bench/fieldapp_perf.py);
// an idle worker costs memory, not CPU. The page hidden (screen off, another app), it is
// terminated to give that memory back; the next home or scanner starts it again.
let current = null;

function stopDecoder() {
  const stopping = current;
  current = null;
  if (stopping) stopping.then((d) => { if (d.worker) d.worker.terminate(); }, () => {});
}

document.addEventListener('visibilitychange', () => { if (document.hidden) stopDecoder(); });
window.addEventListener('pagehide', stopDecoder);

/**
 * { engine, ready, read(canvas, ctx, { cheap }) → text|null, ms }: the same decoder until the
 * page is hidden. cheap: the quicker binarizer (the guide box's read; qr-worker.js).
 */
export function qrDecoder() {
  if (!current) current = start();
  return current;
}

async function start() {
  if ('BarcodeDetector' in window) {
    try {
      const formats = await window.BarcodeDetector.getSupportedFormats();
      if (formats.includes('qr_code')) {
        const detector = new window.BarcodeDetector({ formats: ['qr_code'] });
        return { worker: null, engine: 'native', ready: Promise.resolve(), read: async (canvas) => (await detector.detect(canvas))[0]?.rawValue || null };
      }
    } catch { /* fall through to the worker */ }
  }
  const worker = new Worker(new URL('./qr-worker.js', import.meta.url));
  let pending = null;
  let isReady;
  const api = {
    worker,
    engine: null, // 'zxing' or 'jsqr', from the worker's first message
    warm: false, // its warm-up QR decoded (qr-worker.js)
    ready: new Promise((resolve) => { isReady = resolve; }),
    read: (canvas, ctx, { cheap = false } = {}) => new Promise((resolve) => {
      const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
      pending = resolve;
      // The pixels move to the worker (transferred, not copied).
      worker.postMessage({ data: image.data.buffer, width: image.width, height: image.height, cheap }, [image.data.buffer]);
    }),
  };
  worker.onmessage = (event) => {
    if (event.data.ready) {
      api.engine = event.data.ready;
      api.warm = event.data.warm;
      performance.mark('decoder-ready'); // bench/fieldapp_perf.py: before or after the tap
      isReady();
      return;
    }
    api.engine = event.data.engine || api.engine;
    api.ms = event.data.ms; // the worker's own decode time, for bench/fieldapp_perf.py
    if (pending) { pending(event.data.text); pending = null; }
  };
  return api;
}
