// QR decoding off the main thread for browsers without BarcodeDetector (iOS, desktop Chrome).
// Classic worker, loaded only by the scanner. First choice: zxing-cpp compiled to WebAssembly
// (npm zxing-wasm, reader build, self-hosted in vendor/ — never its CDN default), ~6× faster than
// jsQR on a 640 px frame (docs/benchmarks/fieldapp-perf.md). If its script or its .wasm cannot
// load (old browser, CSP, a shell without it), jsQR (npm, vendor/) decodes instead.
// Each reply: { text: string|null, engine: 'zxing'|'jsqr', ms: the decode's own time }.
/* global jsQR, ZXingWASM */
const VENDOR = new URL('../../vendor/', self.location).href;

// Printed crachás are dark on light: look for that on every frame, and for a light-on-dark code
// (a phone screen in dark mode) every fourth frame — jsQR: half the work of 'attemptBoth'.
let frames = 0;

function loadZxing() {
  try {
    importScripts(`${VENDOR}zxing-wasm/reader.js`);
    return ZXingWASM.prepareZXingModule({
      overrides: { locateFile: (file) => `${VENDOR}zxing-wasm/${file}` },
      fireImmediately: true,
    }).then(() => 'zxing');
  } catch (error) {
    return Promise.reject(error);
  }
}

function loadJsqr() {
  importScripts(`${VENDOR}jsqr/jsQR.js`);
  return 'jsqr';
}

// Starts at once (the scanner creates this worker while the camera starts), so the .wasm is
// compiled before the first frame arrives.
const engine = loadZxing().catch((error) => {
  console.warn('zxing-wasm unavailable, using jsQR', error);
  return loadJsqr();
});

const ZXING_OPTIONS = {
  formats: ['QRCode'], maxNumberOfSymbols: 1, tryRotate: false, tryDownscale: false, tryHarder: false,
};

async function decode({ data, width, height }) {
  const which = await engine;
  const started = performance.now(); // after the engine is ready: 'ms' is the decode alone
  frames += 1;
  const invert = frames % 4 === 0;
  if (which === 'zxing') {
    const image = { data: new Uint8ClampedArray(data), width, height };
    const [found] = await ZXingWASM.readBarcodes(image, { ...ZXING_OPTIONS, tryInvert: invert });
    return { text: found && found.isValid ? found.text : null, engine: which, ms: performance.now() - started };
  }
  const found = jsQR(new Uint8ClampedArray(data), width, height, { inversionAttempts: invert ? 'onlyInvert' : 'dontInvert' });
  return { text: found ? found.data : null, engine: which, ms: performance.now() - started };
}

self.onmessage = (event) => {
  decode(event.data).then(
    (reply) => self.postMessage(reply),
    (error) => { console.error('QR decode failed', error); self.postMessage({ text: null, engine: null }); },
  );
};
