// Scanner: rear camera; native BarcodeDetector where present, else jsQR in a worker (loaded
// only now). Torch where the camera offers it. Manual entry of permit number or plate always.
import { requireFiscal } from '../fiscal/guard.js';
import { prepareVerification, startFromPayload } from '../fiscal/inspection.js';
import { el, mount } from './format.js';
import { searchForm } from './fiscal-search.js';

const MAX_EDGE = 640; // decode on frames downscaled to ~640 px (ARCHITECTURE.md measurements)

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

  // While the camera starts: field data, index, trusted keys and the verdict screen, so a decoded
  // frame goes straight to a verdict (≤ 200 ms on a slow phone; bench/fieldapp_perf.py).
  prepareVerification().catch(() => {});
  import('./fiscal-verdict.js').catch(() => {});
  let stream = null;
  let worker = null;
  let stopped = false;
  const cleanup = () => {
    stopped = true;
    if (stream) stream.getTracks().forEach((t) => t.stop());
    if (worker) worker.terminate();
  };
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 } }, audio: false });
  } catch (error) {
    frame.hidden = true;
    message.className = 'notice notice-warn';
    message.textContent = 'Câmera indisponível (sem permissão ou em uso). Digite o número do alvará ou a placa.';
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

  const decode = await decoder();
  worker = decode.worker;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const found = async (text) => {
    cleanup();
    message.textContent = 'Verificando…';
    const draft = await startFromPayload(text);
    navigate(`/fiscal/verificacao?id=${draft.id}`, { replace: true });
  };
  const tick = async () => {
    if (stopped) return;
    if (video.readyState >= 2 && video.videoWidth) {
      const scale = Math.min(1, MAX_EDGE / Math.max(video.videoWidth, video.videoHeight));
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      performance.clearMarks('scan-frame');
      performance.mark('scan-frame'); // bench/fieldapp_perf.py times frame → verdict from here
      ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
      const text = await decode.read(canvas, ctx).catch(() => null);
      if (text && !stopped) { performance.mark('scan-decoded'); found(text); return; }
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
        return { worker: null, read: async (canvas) => (await detector.detect(canvas))[0]?.rawValue || null };
      }
    } catch { /* fall through to the worker */ }
  }
  const worker = new Worker(new URL('../fiscal/qr-worker.js', import.meta.url));
  let pending = null;
  worker.onmessage = (event) => { if (pending) { pending(event.data); pending = null; } };
  return {
    worker,
    read: (canvas, ctx) => new Promise((resolve) => {
      const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
      pending = resolve;
      worker.postMessage({ data: image.data.buffer, width: image.width, height: image.height }, [image.data.buffer]);
    }),
  };
}
