// QR decoding off the main thread for browsers without BarcodeDetector (iOS, desktop Chrome).
// Classic worker, loaded only by the scanner. First choice: zxing-cpp compiled to WebAssembly
// (npm zxing-wasm, reader build, self-hosted in vendor/ — never its CDN default), ~6× faster than
// jsQR on a 640 px frame (docs/benchmarks/fieldapp-perf.md). If its script or its .wasm cannot
// load (old browser, CSP, a shell without it), jsQR (npm, vendor/) decodes instead.
// First message: { ready: 'zxing'|'jsqr', warm: the warm-up QR decoded }; then one reply per frame ({ data, width, height,
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
    }).then(warmUp).then((warm) => ({ engine: 'zxing', warm }));
  } catch (error) {
    return Promise.reject(error);
  }
}

// Fresh WebAssembly runs on V8's baseline tier until its hot functions are optimized: the
// first real frame took 4–6× the warm decode (bench/fieldapp_perf.py, 2026-12-03). So, before
// reporting ready, the worker reads a real QR the way the scanner will — the guide box's crop
// with the global-histogram binarizer, the whole frame with the local-average one, once
// inverted — so that finder, sampler and Reed–Solomon paths are warm too (a blank or
// checkerboard frame only ever ran the binarizer). The code below is a version-7 QR (level Q,
// 45 modules, no quiet zone) of WARM_TEXT, one hex string per row, made with the Python qrcode
// package; the reply's `warm` says whether it decoded (tests/e2e/test_fiscal_scan.py).
const WARM_TEXT = 'https://motofiscal.invalid/aquecimento-do-leitor/0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const WARM_ROWS = [
  '1fcd14e1d97f', '104fb56a0241', '175c8bad8a5d', '174c6c263b5d', '175423f3ef5d', '1055e51c0041',
  '1fd55555557f', '00002f1e0e00', '0954dbf248b4', '1f1d190ccf48', '0a408345c8da', '0f82d6da0f32',
  '0aff14fcf853', '15885c3c8368', '1d7cf29df77e', '12385036b982', '0ad94266165a', '1d2d714b6156',
  '0fd1cafc7976', '100920a19a8c', '13f02bf4d9fb', '011b071e6911', '1d5a035b2959', '17111d105112',
  '09f25bfc99f8', '011b2bb3cae4', '1ec5fb607894', '1698c8886d63', '13d5b0e67893', '1aa21ec4d3a6',
  '0ded417ccb52', '0c10896a51d2', '076fb94e88d8', '08b97ade56ee', '014613e4f802', '0f2e29f68133',
  '1370ddf225f0', '001f731e4f1a', '1fc70552fd5e', '104a931ed315', '17531bfe5dfd', '1745c65490f8',
  '1742e0256a10', '1054f93772b4', '1fc79fff1629',
];
const WARM_ROUNDS = 3; // decodes per kind of read: enough for V8 to tier the hot functions up

/** An opaque RGBA frame, light grey, with the warm-up QR centred at `module` px per module. */
function warmFrame(width, height, module) {
  const size = WARM_ROWS.length;
  const data = new Uint8ClampedArray(width * height * 4);
  const pixels = new Uint32Array(data.buffer);
  pixels.fill(0xffebebeb);
  const left = Math.floor((width - size * module) / 2);
  const top = Math.floor((height - size * module) / 2);
  WARM_ROWS.forEach((hex, row) => {
    const bits = BigInt(`0x${hex}`);
    for (let col = 0; col < size; col += 1) {
      if (!((bits >> BigInt(size - 1 - col)) & 1n)) continue;
      for (let y = 0; y < module; y += 1) {
        const start = (top + row * module + y) * width + left + col * module;
        pixels.fill(0xff141414, start, start + module);
      }
    }
  });
  return { data, width, height };
}

async function warmUp() {
  const crop = warmFrame(320, 320, 5); // the guide box at CROP_EDGE (fiscal-scan.js)
  const whole = warmFrame(640, 480, 6); // the whole frame at MAX_EDGE
  let warm = true;
  const read = async (image, binarizer, tryInvert = false) => {
    const [found] = await ZXingWASM.readBarcodes(image, { ...ZXING_OPTIONS, binarizer, tryInvert });
    warm = warm && Boolean(found && found.isValid && found.text === WARM_TEXT);
  };
  for (let i = 0; i < WARM_ROUNDS; i += 1) {
    await read(crop, 'GlobalHistogram');
    await read(whole, 'LocalAverage', i === 0);
  }
  return warm;
}

function loadJsqr() {
  importScripts(`${VENDOR}jsqr/jsQR.js`);
  return { engine: 'jsqr', warm: false };
}

// Starts at once (the scanner creates this worker while the camera starts), so the .wasm is
// compiled before the first frame arrives.
const engine = loadZxing().catch((error) => {
  console.warn('zxing-wasm unavailable, using jsQR', error);
  return loadJsqr();
});
// The scanner grabs its first frame only then: a frame that waited for the decoder is stale.
// (Neither decoder loaded: 'none', and every frame answers null; manual entry still works.)
engine.then(({ engine: which, warm }) => self.postMessage({ ready: which, warm }), (error) => {
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
  const { engine: which } = await engine;
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
