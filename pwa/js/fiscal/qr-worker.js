// QR decoding off the main thread for browsers without BarcodeDetector (iOS, desktop Chrome).
// Classic worker: jsQR (npm, self-hosted in vendor/) is a UMD script. Loaded only by the scanner.
/* global jsQR */
importScripts('../../vendor/jsqr/jsQR.js');

// Printed crachás are dark on light: look for that on every frame (half the work of
// 'attemptBoth'), and for a light-on-dark code (a phone screen in dark mode) every fourth frame.
let frames = 0;
self.onmessage = (event) => {
  const { data, width, height } = event.data;
  frames += 1;
  const inversionAttempts = frames % 4 === 0 ? 'onlyInvert' : 'dontInvert';
  const found = jsQR(new Uint8ClampedArray(data), width, height, { inversionAttempts });
  self.postMessage(found ? found.data : null);
};
