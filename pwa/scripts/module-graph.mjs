// The field app's static ES-module graph (import/export … from, bare import), read from the
// sources: what a browser fetches before a module runs. Dynamic import() is not followed — that
// is what loads on demand. Used by bench/fieldapp_shell.mjs (bytes per screen) and by
// tests/js/fieldapp_preload.test.mjs (index.html's modulepreload list = the fiscal home's graph).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*['"]([^'"]+)['"]/g;

/** Absolute paths of `entry` and every module it statically imports, transitively. */
export function staticGraph(entry, seen = new Set()) {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const text = readFileSync(entry, 'utf8').replace(/^\s*\/\/.*$/gm, ''); // not imports quoted in comments
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] || m[2];
    if (spec.startsWith('.')) staticGraph(resolve(dirname(entry), spec), seen);
  }
  return seen;
}
