// QR decoding off the main thread for browsers without BarcodeDetector (iOS, desktop Chrome).
// Classic worker: jsQR (npm, self-hosted in vendor/) is a UMD script. Loaded only by the scanner.
/* global jsQR */
importScripts('../../vendor/jsqr/jsQR.js');

self.onmessage = (event) => {
  const { data, width, height } = event.data;
  const found = jsQR(new Uint8ClampedArray(data), width, height, { inversionAttempts: 'attemptBoth' });
  self.postMessage(found ? found.data : null);
};
