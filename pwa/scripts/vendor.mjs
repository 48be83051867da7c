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
  ['qrcode-generator/dist/qrcode.mjs', 'qrcode-generator/qrcode.mjs'],
];
// Modules other helpers may add to package.json (e.g. @noble/ed25519 for js/credentials/):
// copied when installed, skipped silently otherwise so this script never blocks set-up.
const OPTIONAL = [
  ['@noble/ed25519/index.js', '@noble/ed25519/index.js'],
];

const vendorDir = join(pwaRoot, 'vendor');
rmSync(vendorDir, { recursive: true, force: true });

function copy([from, to], optional) {
  const src = join(pwaRoot, 'node_modules', from);
  if (!existsSync(src)) {
    if (optional) return;
    throw new Error(`missing ${src}: run "npm ci" in pwa/ first`);
  }
  const dest = join(vendorDir, to);
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(src, dest);
  console.log(`vendor/${to}`);
}

FILES.forEach((f) => copy(f, false));
OPTIONAL.forEach((f) => copy(f, true));
