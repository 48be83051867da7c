// Field-app shell size: gzip bytes a phone downloads to show each screen (entry page, CSS,
// the static import graph of app.js plus the screen module's graph), and everything shipped.
// Budget (issue 9): the shell without the QR decoder ≤ 80 KB gzip. Run: node bench/fieldapp_shell.mjs
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { staticGraph } from '../pwa/scripts/module-graph.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'pwa');
const gz = (file) => gzipSync(readFileSync(file), { level: 6 }).length;
const graph = staticGraph;

const routes = readFileSync(join(root, 'js/routes.js'), 'utf8');
const screens = [...routes.matchAll(/path: '([^']+)'.*import\('([^']+)'\)/g)].map(([, path, file]) => [path, resolve(root, 'js', file)]);
const base = [join(root, 'index.html'), join(root, 'css/app.css'), join(root, 'manifest.webmanifest'), ...graph(join(root, 'js/app.js'))];
const baseSet = new Set(base);
const sum = (files) => [...files].reduce((n, f) => n + gz(f), 0);

// What a screen module imports with import() itself (the fiscal home: its data after the first
// paint, the scanner's modules when idle) — not needed to show it, loaded right after.
const DYNAMIC = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
const rows = screens.map(([path, file]) => {
  const files = new Set([...baseSet, ...graph(file)]);
  const later = new Set();
  for (const m of readFileSync(file, 'utf8').matchAll(DYNAMIC)) {
    for (const f of graph(resolve(dirname(file), m[1]))) if (!files.has(f)) later.add(f);
  }
  return [path, sum(files), files.size, sum(later), later.size];
});
function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (['node_modules', 'scripts'].includes(name) || /^package|README|sw\.js$/.test(name)) return [];
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const shipped = walk(root);
// The scanner's worker alone loads these: zxing-wasm (script + .wasm) and jsQR, its fallback.
const decoder = shipped.filter((f) => f.includes('jsqr') || f.includes('zxing-wasm'));
// Imported dynamically by js/autocopy/pdf.js when the fiscal asks for the copy's PDF.
const onTap = shipped.filter((f) => f.includes('pdf-lib'));
const lines = [
  '# Field app: shell size (gzip -6, as served)',
  '',
  `Measured by \`node bench/fieldapp_shell.mjs\` on ${new Date().toISOString().slice(0, 10)}. Budget: ≤ 80 KB gzip to`,
  'show a screen, without the QR decoder (the scanner\'s worker loads zxing-wasm, or jsQR, separately).',
  '',
  '| screen | gzip KB (entry + CSS + app.js graph + screen graph) | files | then, imported by the screen after it shows: gzip KB | files |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...rows.map(([path, bytes, n, later, m]) => `| \`${path}\` | ${(bytes / 1024).toFixed(1)} | ${n} | ${m ? (later / 1024).toFixed(1) : '—'} | ${m || '—'} |`),
  '',
  `Largest screen: ${(Math.max(...rows.map((r) => r[1])) / 1024).toFixed(1)} KB. QR decoders (worker only): ${decoder.map((f) => `${relative(root, f)} ${(gz(f) / 1024).toFixed(1)} KB`).join(', ')}.`,
  `Loaded on the "Compartilhar cópia (PDF)" tap only: ${onTap.map((f) => `${relative(root, f)} ${(gz(f) / 1024).toFixed(1)} KB`).join(', ')}.`,
  `Everything precached (icons, all screens, vendored modules, decoder): ${(sum(shipped) / 1024).toFixed(1)} KB in ${shipped.length} files.`,
  '',
];
const out = resolve(root, '..', 'docs/benchmarks/fieldapp.md');
writeFileSync(out, lines.join('\n'));
console.log(lines.join('\n'));
console.log(`written ${relative(process.cwd(), out)}`);
