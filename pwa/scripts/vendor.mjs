// Copies the third-party ES modules the field app imports from node_modules/ into vendor/.
// Run at set-up after `npm ci` (vendor/ is gitignored: third-party code is never committed).
// The server hashes vendor/ with the rest of the shell, so a dependency bump changes the
// service-worker version and reaches phones through the normal update prompt.
import { copyFileSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pwaRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

// [package file, destination under vendor/]; add a line per module a screen needs.
const FILES = [
  ['qrcode-generator/dist/qrcode.mjs', 'qrcode-generator/qrcode.mjs'], // crachá QR (js/ui/qr-code.js)
  ['@noble/ed25519/index.js', '@noble/ed25519/index.js'], // Ed25519 fallback (js/credentials/verify.js)
  // The operator's copy as a PDF (js/autocopy/pdf.js), imported only when the fiscal asks for it.
  ['pdf-lib/dist/pdf-lib.esm.min.js', 'pdf-lib/pdf-lib.esm.min.js'],
  ['jsqr/dist/jsQR.js', 'jsqr/jsQR.js'], // QR decoder without BarcodeDetector (js/fiscal/qr-worker.js, loaded by the scanner only)
  // Faster QR decoder (zxing-cpp in WebAssembly, reader only) for the same worker, jsQR its fallback.
  // The worker points locateFile here: the package's default would fetch the .wasm from a CDN.
  ['zxing-wasm/dist/iife/reader/index.js', 'zxing-wasm/reader.js'],
  ['zxing-wasm/dist/reader/zxing_reader.wasm', 'zxing-wasm/zxing_reader.wasm'],
];

const vendorDir = join(pwaRoot, 'vendor');
rmSync(vendorDir, { recursive: true, force: true });

function copy([from, to]) {
  const src = join(pwaRoot, 'node_modules', from);
  if (!existsSync(src)) throw new Error(`missing ${src}: run "npm ci" in pwa/ first`);
  const dest = join(vendorDir, to);
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(src, dest);
  console.log(`vendor/${to}`);
}

FILES.forEach(copy);

// Back-office scripts the server serves from its own static folder (strict CSP: same origin),
// kept out of the field app's vendor/ so they never enter its shell or service-worker cache.
// server/static/vendor/ is gitignored like vendor/.
const BACKOFFICE_FILES = [
  ['chart.js/dist/chart.umd.min.js', 'chart.js/chart.umd.min.js'], // dashboard charts (server/static/js/dashboard-charts.js)
];
const staticVendorDir = join(pwaRoot, '..', 'server', 'static', 'vendor');
rmSync(staticVendorDir, { recursive: true, force: true });
BACKOFFICE_FILES.forEach(([from, to]) => {
  const src = join(pwaRoot, 'node_modules', from);
  if (!existsSync(src)) throw new Error(`missing ${src}: run "npm ci" in pwa/ first`);
  const dest = join(staticVendorDir, to);
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(src, dest);
  console.log(`server/static/vendor/${to}`);
});
