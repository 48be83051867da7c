// QR decoding off the main thread for browsers without BarcodeDetector (iOS, desktop Chrome).
// Classic worker, loaded only by the scanner. First choice: zxing-cpp compiled to WebAssembly
// (npm zxing-wasm, reader build, self-hosted in vendor/ — never its CDN default), ~6× faster than
// jsQR on a 640 px frame (docs/benchmarks/fieldapp-perf.md). If its script or its .wasm cannot
// load (old browser, CSP, a shell without it), jsQR (npm, vendor/) decodes instead.
// First message: { ready: 'zxing'|'jsqr' }; then one reply per frame ({ data, width, height,
// cheap }):
// { text: string|null, engine: 'zxing'|'jsqr', ms: the decode's own time }.
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
    }).then(warmUp).then(() => 'zxing');
  } catch (error) {
    return Promise.reject(error);
  }
}

// Fresh WebAssembly runs on V8's baseline tier until its hot functions are optimized: a few
// decodes of a synthetic frame while the camera starts, so the first real frame runs fast.
async function warmUp() {
  const width = 640;
  const height = 480;
  const data = new Uint8ClampedArray(width * height * 4);
  const pixels = new Uint32Array(data.buffer); // one opaque grey RGBA pixel per element
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      // A checkerboard of 16 px squares: edges everywhere for the binarizer and the detector.
      pixels[y * width + x] = ((x >> 4) + (y >> 4)) % 2 ? 0xff141414 : 0xffebebeb;
    }
  }
  for (let i = 0; i < 2; i += 1) await ZXingWASM.readBarcodes({ data, width, height }, ZXING_OPTIONS);
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
// The scanner grabs its first frame only then: a frame that waited for the decoder is stale.
// (Neither decoder loaded: 'none', and every frame answers null; manual entry still works.)
engine.then((which) => self.postMessage({ ready: which }), (error) => {
  console.error('no QR decoder could load', error);
  self.postMessage({ ready: 'none' });
});

const ZXING_OPTIONS = {
  formats: ['QRCode'], maxNumberOfSymbols: 1, tryRotate: false, tryDownscale: false, tryHarder: false,
};

// cheap (the guide box, read first): a global-histogram threshold, about half the work of the
// local-average binarizer on the same pixels; enough for a crachá filling the box. The whole
// frame, read when that misses, gets the local binarizer, robust to shade and glare.
async function decode({ data, width, height, cheap = false }) {
  const which = await engine;
  const started = performance.now(); // after the engine is ready: 'ms' is the decode alone
  frames += 1;
  const invert = frames % 4 === 0;
  if (which === 'zxing') {
    const image = { data: new Uint8ClampedArray(data), width, height };
    const binarizer = cheap ? 'GlobalHistogram' : 'LocalAverage';
    const [found] = await ZXingWASM.readBarcodes(image, { ...ZXING_OPTIONS, binarizer, tryInvert: invert });
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
