"""Layouts of a registry chunk in IndexedDB side by side (issue 40), in Chromium at 4× CPU: v5's
array of 512 row objects; the same rows packed (ids in a Float64Array, the rows as one JSON text
with each row's end offset: a structured clone of three flat buffers, a verdict parsing one row's
slice); and both with 128 ids a chunk. For
50,000 synthetic permits, operators and vehicles shaped as the server's rows
(server/modules/fieldsync/field_data.py), each layout on its own database:

- write: group into chunks (+ pack) and put every chunk in one transaction, until durable; `puts`
  is the synchronous loop of puts (the structured clone's serialization runs there);
- verdict read: one transaction reading 4 chunks and taking one row out of each (as
  field-store.js readPermitView); 30 of each layout, alternated one by one, 30 ms apart; the cell
  is the median over all runs' reads;
- whole read: every chunk of the 3 kinds read back and turned into rows, twice each, alternated.

All layouts live in one page (one database each) per run, so their reads see the same load;
the run's order alternates.

Usage: .venv/bin/python bench/field_chunk_layout.py [runs=3] [rows per kind=50000]. Prints; writes nothing.
"""
import functools
import http.server
import os
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

LAYOUTS = ["arrays", "packed", "arrays, 128 ids", "packed, 128 ids"]  # as PAGE names them; the first is v5's
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
ROWS = int(sys.argv[2]) if len(sys.argv) > 2 else 50_000

PAGE = """<!doctype html><meta charset="utf-8"><body><script type="module">
// The packed layout tried (issue 40) and not kept: a chunk's ids in a Float64Array, its rows as
// one JSON array text with each row's end offset in a Uint32Array.
function packChunk(rows) {
  const ids = new Float64Array(rows.length);
  const ends = new Uint32Array(rows.length);
  const texts = new Array(rows.length);
  let at = 1;
  for (let i = 0; i < rows.length; i += 1) {
    texts[i] = JSON.stringify(rows[i]);
    at += texts[i].length;
    ends[i] = at;
    at += 1;
    ids[i] = rows[i].id;
  }
  return { ids, ends, text: `[${texts.join(',')}]` };
}
const chunkRows = (chunk) => JSON.parse(chunk.text);
function chunkRow({ ids, ends, text }, id) {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ids[middle] === id) return JSON.parse(text.slice(middle ? ends[middle - 1] + 1 : 1, ends[middle]));
    if (ids[middle] < id) low = middle + 1; else high = middle - 1;
  }
  return undefined;
}
const day = (n) => new Date(n * 86400000).toISOString().slice(0, 10);
const rnd = (i, m) => ((i * 2654435761) >>> 0) % m;
function makeRows(n) {
  const permits = [], operators = [], vehicles = [];
  for (let i = 1; i <= n; i += 1) {
    permits.push({ id: i, number: `MT-${String(i).padStart(6, '0')}`, status: rnd(i, 10) ? 'ativo' : 'suspenso', issued_on: day(18000 + rnd(i, 2000)),
      valid_until: day(20000 + rnd(i, 900)), holder_operator_id: 100000 + i, vehicle_id: 200000 + i, ponto_id: 1 + rnd(i, 40), driver_ids: [], transitions: [] });
    operators.push({ id: 100000 + i, name: `Fulano de Tal Silva ${i}`, photo: 1, cnh_category: 'A', cnh_first_issue_date: day(12000 + rnd(i, 5000)),
      birth_date: day(3000 + rnd(i, 9000)), residence_since: day(15000 + rnd(i, 3000)) });
    vehicles.push({ id: 200000 + i, plate: `QQA${String(i).padStart(4, '0')}`, make: 'HONDA', model: 'CG 160 FAN', year_manufacture: 2015 + rnd(i, 9),
      engine_cc: 160, plate_category: 'aluguel', vistoria_until: day(20300 + rnd(i, 400)), vistoria_on: day(19900 + rnd(i, 300)),
      vistoria_result: 'aprovado', insurance_until: day(20200 + rnd(i, 500)) });
  }
  return { permits, operators, vehicles };
}
const AS_ARRAYS = { pack: (rows) => rows, row: (chunk, id) => chunk.find((r) => r.id === id), rows: (chunk) => chunk };
const PACKED = { pack: packChunk, row: chunkRow, rows: chunkRows };
// name → the layout and the chunk's id shift (512 ids a chunk: CHUNK_SHIFT 9).
const LAYOUTS = {
  arrays: { ...AS_ARRAYS, shift: 9 },
  packed: { ...PACKED, shift: 9 },
  'arrays, 128 ids': { ...AS_ARRAYS, shift: 7 },
  'packed, 128 ids': { ...PACKED, shift: 7 },
};
const req = (r) => new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
async function write(name, rows) {
  const layout = LAYOUTS[name];
  await req(indexedDB.deleteDatabase(name));
  const opening = indexedDB.open(name, 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore('c');
  const db = await req(opening);
  await new Promise((ok) => setTimeout(ok, 300));
  const t = performance.now();
  const groups = new Map();
  for (const [kind, list] of Object.entries(rows)) for (const r of list) {
    const key = `${kind}|${r.id >> layout.shift}`;
    if (!groups.has(key)) groups.set(key, [[kind, r.id >> layout.shift], []]);
    groups.get(key)[1].push(r);
  }
  const records = [...groups.values()].map(([key, list]) => [key, layout.pack(list)]);
  const build = performance.now() - t;
  const tx = db.transaction('c', 'readwrite');
  for (const [key, value] of records) tx.objectStore('c').put(value, key);
  const puts = performance.now() - t - build;
  await new Promise((ok) => { tx.oncomplete = ok; });
  return [db, { build, puts, write: performance.now() - t }];
}
async function verdictRead(db, layout, n, j) {
  const i = 1 + rnd(j + 7, n);
  const t = performance.now();
  const store = db.transaction('c').objectStore('c');
  const want = [['permits', i], ['operators', 100000 + i], ['vehicles', 200000 + i], ['permits', 1 + rnd(i, n)]];
  const got = await Promise.all(want.map(([kind, id]) => req(store.get([kind, id >> layout.shift])).then((chunk) => layout.row(chunk, id))));
  if (got.some((r) => !r)) throw new Error('a row is missing');
  return performance.now() - t;
}
async function wholeRead(db, layout, n) {
  const t = performance.now();
  let count = 0;
  for (const kind of ['permits', 'operators', 'vehicles']) {
    const chunks = await req(db.transaction('c').objectStore('c').getAll(IDBKeyRange.bound([kind, -Infinity], [kind, Infinity])));
    for (const chunk of chunks) count += layout.rows(chunk).length;
  }
  if (count !== 3 * n) throw new Error(`${count} rows read back`);
  return performance.now() - t;
}
// Both layouts in one page, written in `order`, then their reads alternated one by one: each
// pair of reads sees the same load.
window.run = async (order, n) => {
  const out = {};
  const dbs = {};
  for (const name of order) {
    const rows = makeRows(n);
    [dbs[name], out[name]] = await write(name, rows);
    out[name].reads = [];
    out[name].wholes = [];
  }
  for (let j = 0; j < 30; j += 1) {
    for (const name of (j % 2 ? [...order].reverse() : order)) {
      await new Promise((ok) => setTimeout(ok, 30));
      out[name].reads.push(await verdictRead(dbs[name], LAYOUTS[name], n, j));
    }
  }
  for (let j = 0; j < 2; j += 1) {
    for (const name of (j % 2 ? [...order].reverse() : order)) out[name].wholes.push(await wholeRead(dbs[name], LAYOUTS[name], n));
  }
  for (const name of order) {
    dbs[name].close();
    out[name].read = median(out[name].reads);
    out[name].whole = median(out[name].wholes);
  }
  return out;
};
window.ready = true;
</script>"""


class Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        if self.path != "/layout.html":
            return super().do_GET()
        body = PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None

    def log_message(self, *args):
        pass


def main():
    from playwright.sync_api import sync_playwright

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(ROOT / "pwa")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/layout.html"
    out = {name: [] for name in LAYOUTS}
    loads = [os.getloadavg()[0]]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for run in range(RUNS):
            order = list(LAYOUTS) if run % 2 == 0 else list(reversed(LAYOUTS))
            page = browser.new_page()
            page.goto(url)
            page.wait_for_function("window.ready")
            page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
            result = page.evaluate("([order, n]) => window.run(order, n)", [order, ROWS])
            page.close()
            for name in order:
                out[name].append(result[name])
            loads.append(os.getloadavg()[0])
        browser.close()
    server.shutdown()
    print(f"{ROWS:,} rows of each of 3 kinds, {RUNS} runs alternating, load average {min(loads):.1f}–{max(loads):.1f}; "
          "median (range) ms at 4× CPU, " + " | ".join(LAYOUTS))
    for key in ("build", "puts", "write", "reads", "wholes"):
        cells = []
        for name in out:
            values = sorted(v for r in out[name] for v in (r[key] if isinstance(r[key], list) else [r[key]]))
            cells.append(f"{statistics.median(values):.1f} ({values[0]:.1f}–{values[-1]:.1f})")
        print(f"{key}: " + " | ".join(cells))


if __name__ == "__main__":
    main()
