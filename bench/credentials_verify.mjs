// Node half of bench/credentials_verify.py: reads the fixture JSON given as argv[2], times the
// JS verifier (decode + signature + status lookup), prints results as JSON.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as noble from '../pwa/node_modules/@noble/ed25519/index.js';
import { prepareTrust, verify, setNoble } from '../pwa/js/credentials/verify.js';

setNoble(noble);
const fx = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const now = Date.parse(fx.now);

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, mean_ms: s.reduce((a, b) => a + b, 0) / s.length, median_ms: q(0.5), p95_ms: q(0.95), max_ms: s[s.length - 1] };
}

const out = { node: process.version };
for (const forceNoble of [false, true]) {
  const t0 = performance.now();
  const trust = await prepareTrust(fx.trust, { forceNoble });
  const prepareMs = performance.now() - t0;
  const samples = [];
  for (const p of fx.payloads) {
    const t = performance.now();
    const r = await verify(p, trust, now);
    samples.push(performance.now() - t);
    if (r.verdict !== 'VÁLIDO') throw new Error(`unexpected ${r.reason_code}`);
  }
  out[forceNoble ? 'noble' : 'webcrypto'] = { prepare_trust_ms: prepareMs, ...stats(samples) };
}
console.log(JSON.stringify(out));
