"""Benchmark: the fiscal's phone in Chromium with the CPU slowed 4× (CDP
Emulation.setCPUThrottlingRate 4, a mid-range phone). Issue 9 targets:

- cold start offline: service worker installed, network off, a new page load → the fiscal home
  ("Ler crachá") visible, ≤ 600 ms;
- the same with 2 s round trips: every response of the server is held 2 s (a WSGI wrapper, so the
  service worker's own requests wait too, which CDP network emulation of the page would not
  cover) — the shell must open from the cache as fast;
- scan: fake camera (.y4m of a printed crachá) → verdict on screen ≤ 200 ms, timed from the
  decoded frame's capture (performance mark `scan-frame` in fiscal-scan.js) and, for reference,
  from opening the scanner (camera start and decoder start-up included);
- merging a one-change field-data delta into 10,000 permits (+ holders, vehicles) ≤ 10 ms.

The app runs on the in-process server (demo data, temporary SQLite migrated by the real
migrations), enrolled once through its screens. Times are in-page `performance.now()` (navigation
start → home visible). Results: docs/benchmarks/fieldapp-perf.md.

Usage: .venv/bin/python bench/fieldapp_perf.py [runs=7]
"""
import os
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from tests.e2e.fiscal_helpers import StoppableServer, write_y4m  # noqa: E402

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
OUT = ROOT / "docs" / "benchmarks" / "fieldapp-perf.md"
PASSWORD = "demo-motofiscal"
ENGINES = set()  # which decoder the scanner's worker ran ('zxing' or 'jsqr'), reported in the doc

# Sets window.__homeAt / __verdictAt (performance.now()) the first frame each is visible.
WATCH = """(() => {
  const seen = (sel) => { const e = document.querySelector(sel); return e && e.offsetParent !== null; };
  const tick = () => {
    if (!window.__homeAt && seen('#go-scan')) { window.__homeAt = performance.now(); console.debug('bench:home'); }
    if (!window.__verdictAt && seen('#verdict-word')) {
      window.__verdictAt = performance.now();
      window.__frameAt = performance.getEntriesByName('scan-frame').pop()?.startTime ?? null;
      window.__decodedAt = performance.getEntriesByName('scan-decoded').pop()?.startTime ?? null;
      window.__verifiedAt = performance.getEntriesByName('scan-verified').pop()?.startTime ?? null;
      window.__engine = performance.getEntriesByName('scan-decoded').pop()?.detail?.engine ?? null;
      window.__decodeMs = performance.getEntriesByName('scan-decoded').pop()?.detail?.ms ?? null;
      console.debug('bench:verdict');
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();"""

MERGE = """async ({ permits, runs }) => {
  const { mergeField, indexField } = await import('./js/fiscal/field-merge.js');
  const rows = (n, make) => Array.from({ length: n }, (_, i) => make(i + 1));
  const stored = {
    cursor: 10, generated_at: new Date().toISOString(), municipality: { slug: 'sapezal' }, photo_url: '/x',
    permits: rows(permits, (id) => ({ id, number: `SAP-${id}`, kind: 'individual', status: 'ativo', issued_on: '2025-01-02', valid_until: '2026-12-31', holder_operator_id: id, vehicle_id: id, ponto_id: 1 + id % 40 })),
    operators: rows(permits, (id) => ({ id, name: `Operador Número ${id} da Silva`, cpf: '***.456.789-**', photo: 1, cnh_category: 'A', cnh_expiry: '2028-01-01', birth_date: '1990-05-06', residence_since: '2010-01-01' })),
    vehicles: rows(permits, (id) => ({ id, plate: `QQA${String(id).padStart(4, '0')}`, make: 'Honda', model: 'CG 160', year_manufacture: 2020, engine_cc: 160 })),
    pontos: rows(40, (id) => ({ id, name: `Ponto ${id}` })), penalties: [],
  };
  const delta = { snapshot: false, cursor: 11, generated_at: new Date().toISOString(),
    permits: { id: [4321], number: ['SAP-4321'], kind: ['individual'], status: ['suspenso'], issued_on: ['2025-01-02'], valid_until: ['2026-12-31'], holder_operator_id: [4321], vehicle_id: [4321], ponto_id: [2] },
    operators: { id: [] }, vehicles: { id: [] }, pontos: { id: [] }, penalties: { id: [] }, removed: {} };
  const merge = [], index = [];
  let out;
  for (let i = 0; i < runs; i += 1) {
    let t = performance.now();
    out = mergeField(stored, delta);
    merge.push(performance.now() - t);
    t = performance.now();
    indexField(out);
    index.push(performance.now() - t);
  }
  const changed = out.permits.find((p) => p.id === 4321).status;
  return { merge, index, changed, permits: out.permits.length };
}"""


class Slow:
    """WSGI wrapper: when `delay` is set, every response waits that long (a 2 s round trip)."""

    def __init__(self, app):
        self.app, self.delay = app, 0.0

    def __call__(self, environ, start_response):
        if self.delay:
            time.sleep(self.delay)
        return self.app(environ, start_response)


def make_app(tmp):
    from flask_migrate import upgrade

    from server import create_app
    from server.modules.demo.dataset import load_demo

    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'bench.sqlite3'}",
                      # BENCH_PWA_ROOT: another copy of pwa/ (e.g. an older commit's) for an A/B run.
                      "FIELDAPP_ROOT": os.environ.get("BENCH_PWA_ROOT", str(ROOT / "pwa"))})
    app.instance_path = str(tmp)
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        load_demo()
    return app


def crachá_png(app):
    from server.extensions import db
    from server.modules.credentials import operations as credentials
    from server.modules.credentials.operations import card_data
    from server.modules.credentials.render import card_png_bytes
    from server.modules.registry.models import Municipality, Permit

    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        if credentials.active_key(muni) is None:
            credentials.create_key(muni)
        credential = credentials.issue_credential(permit)
        db.session.commit()
        return card_png_bytes(card_data(credential))


def enroll(page, url):
    page.goto(f"{url}/app/#/fiscal/entrar")
    page.fill("#username", "fiscal.sapezal")
    page.fill("#password", PASSWORD)
    page.fill("#device-name", "Celular do benchmark")
    page.get_by_role("button", name="Entrar e cadastrar este celular").click()
    page.fill("#pin", "1357")
    page.fill("#pin-again", "1357")
    page.get_by_role("button", name="Salvar PIN").click()
    page.get_by_role("button", name="Começar").click(timeout=60000)
    page.wait_for_selector("#go-scan")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)


def throttled_page(context):
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    return page


def wait_for(page, signal):
    """Wait for WATCH's console signal. Not wait_for_function: Playwright's polling runs its
    injected script in the page every frame, ~50 ms of main thread at 4× CPU (seen in a trace)
    competing with the very start it measures; a console event reaches us without touching it."""
    return page.expect_console_message(lambda message: message.text == f"bench:{signal}", timeout=60000)


def cold_start(context, url):
    page = throttled_page(context)
    with wait_for(page, "home"):
        page.goto(f"{url}/app/#/fiscal", wait_until="commit")
    took = page.evaluate("() => window.__homeAt")
    page.close()
    return took


def scan(context, url):
    page = throttled_page(context)
    with wait_for(page, "home"):
        page.goto(f"{url}/app/#/fiscal")
    with wait_for(page, "verdict"):
        opened = page.evaluate("() => { location.hash = '#/fiscal/ler'; return performance.now(); }")
    verdict, frame, decoded, verified, word, engine, decode_ms = page.evaluate(
        "() => [window.__verdictAt, window.__frameAt, window.__decodedAt, window.__verifiedAt, "
        "document.querySelector('#verdict-word').textContent, window.__engine, window.__decodeMs]")
    assert word == "VÁLIDO", word
    page.close()
    ENGINES.add(engine)
    return (verdict - frame, verdict - opened, decoded - frame, verdict - decoded, verified - decoded,
            verdict - verified, decode_ms if decode_ms is not None else float("nan"))


def stats(values):
    values = sorted(values)
    return statistics.median(values), values[0], values[-1]


def row(name, values, target):
    values = [v for v in values if v == v]  # NaN: not measured (a build without the figure)
    if not values:
        return f"| {name} | — | — | — | not measured |"
    median, low, high = stats(values)
    verdict = "met" if median <= target else "**missed**"
    return f"| {name} | {median:.0f} | {low:.0f}–{high:.0f} | ≤ {target} | {verdict} |"


def main():
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        app = make_app(tmp)
        video = write_y4m(crachá_png(app), tmp / "cracha.y4m")
        slow = Slow(app.wsgi_app)
        app.wsgi_app = slow
        server = StoppableServer(app).start()
        load_before = os.getloadavg()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + [
                "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                f"--use-file-for-fake-video-capture={video}"])
            context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pt-BR",
                                          timezone_id="America/Cuiaba", service_workers="allow",
                                          permissions=["camera", "geolocation"])
            context.add_init_script(WATCH)
            enroll(context.new_page(), server.url)

            cold_start(context, server.url)  # warm-up (first load after install)
            context.set_offline(True)
            offline = [cold_start(context, server.url) for _ in range(RUNS)]
            context.set_offline(False)
            slow.delay = 2.0
            rtt = [cold_start(context, server.url) for _ in range(RUNS)]
            slow.delay = 0.0
            scans = [scan(context, server.url) for _ in range(RUNS)]
            merge_page = throttled_page(context)
            merge_page.goto(f"{server.url}/app/#/fiscal")
            merged = merge_page.evaluate(MERGE, {"permits": 10000, "runs": 21})
            assert merged["changed"] == "suspenso" and merged["permits"] == 10000
            browser.close()
        server.stop()
    load_after = os.getloadavg()

    engines = " / ".join(sorted(map(str, ENGINES)))  # zxing, or jsqr when the WASM failed to load
    version = os.popen(f"{CHROMIUM} --version 2>/dev/null").read().strip() or "chromium"
    lines = [
        "# Field app in the browser: start, scan, delta merge (CPU 4× slower)",
        "",
        f"Measured by `.venv/bin/python bench/fieldapp_perf.py {RUNS}` on "
        f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {version}, headless, CDP "
        "`Emulation.setCPUThrottlingRate` 4, phone viewport 390×844. Shared 2-core machine "
        f"(load average {load_before[0]:.1f} before, {load_after[0]:.1f} after: other sessions "
        "were running, so times are pessimistic and noisy). Median of "
        f"{RUNS} runs (merge: 21), range in ms.",
        "",
        "| measure | median ms | range ms | target ms | |",
        "| --- | ---: | ---: | ---: | --- |",
        row("cold start offline → home visible", offline, 600),
        row("cold start, 2 s round trips → home visible", rtt, 600),
        row("scan: frame captured → verdict visible", [s[0] for s in scans], 200),
        row("scan: scanner opened → verdict visible (camera + decoder start)", [s[1] for s in scans], 10**9).replace("≤ 1000000000 | met", "— | reference"),
        row(f"  of which: frame → QR decoded (worker: {engines}; zxing reads the whole 640 px frame, jsQR the guide box at 400 px and the whole frame every 3rd)", [s[2] for s in scans], 10**9).replace("≤ 1000000000 | met", "— | reference"),
        row("    the decode alone, inside the worker", [s[6] for s in scans], 10**9).replace("≤ 1000000000 | met", "— | reference"),
        row("  of which: decoded → verdict visible (verify, screen; draft written after)", [s[3] for s in scans], 10**9).replace("≤ 1000000000 | met", "— | reference"),
        row("    decoded → verified (signature check, registry look-up)", [s[4] for s in scans], 10**9).replace("≤ 1000000000 | met", "— | reference"),
        row("    verified → verdict visible (drawn in the scanner screen, no route change)", [s[5] for s in scans], 10**9).replace("≤ 1000000000 | met", "— | reference"),
        row("merge one-change delta into 10,000 permits", merged["merge"], 10),
        row("re-index after the merge (look-ups by number/plate/name)", merged["index"], 10**9).replace("≤ 1000000000 | met", "— | reference"),
        "",
        "Cold start = a new page in a context whose service worker is installed (the browser "
        "process already running, as on a phone with the browser in memory): navigation start "
        "→ first frame with the \"Ler crachá\" button visible. The 2 s case holds every server "
        "response 2 s, the service worker's navigation request included.",
        "",
        "History (2026-11-30, same machine, load ≈ 6–8): before the service worker served the "
        "shell page cache-first, the 2 s case took 2,837 ms (network-first navigation waited for "
        "the server); before `mergeField` patched rows in one pass, the merge took 13 ms (a Map "
        "of every row rebuilt). The scanner warms the field data, the trusted keys and the "
        "verdict screen while the camera starts, and jsQR looks for dark-on-light codes only "
        "(light-on-dark every fourth frame).",
        "",
        "Before / after the second pass (issue 9, 20:31 and 20:52 UTC): offline cold start 695 → "
        "427 ms, 2 s-RTT cold start 780 → 348 ms, scan frame → verdict 509 → 230 ms (decode 258 → "
        "100, decoded → verdict 236 → 132), medians of 7 and 5 runs at load 3.6 and 1.5 — the "
        "lower load flatters the after numbers; a 7-run re-run at load 6.7–9.0 (20:57) gave 668 / "
        "776 / 413 ms (decode 147, verdict 253), against 695 / 780 / 509 at load 3.6 before. What "
        "changed: the fiscal home paints its buttons before reading the field data (data age, "
        "auto numbers and drafts fill in after); index.html modulepreloads the home's module "
        "graph (6 imports deep, fetched one level at a time before); the service worker registers "
        "after the first screen; jsQR decodes the yellow guide box at 400 px (under half the "
        "pixels of the 640 px frame) and the whole frame every third frame; the field data and "
        "its index stay in memory (keyed by the last download) instead of being read out of "
        "IndexedDB on every scan; the verdict is shown before its draft is written, the photo "
        "fills its box after. The scan target (≤ 200 ms) is still missed. The split rows (added "
        "21:01, load 7.7–10.9) show where: the signature check + look-up is ~70 ms, the step "
        "from the verified draft to the painted verdict ~160 ms — the route change (hashchange, "
        "`requireFiscal`'s IndexedDB reads of session and PIN, the screen's render). Next step: "
        "draw the verdict inside the scanner screen (no route change), then jsQR (~100 ms).",
        "",
        "Third pass (issue 9, 2026-12-01 02:05–02:34 UTC, load 7–15 on the 2 cores: four other "
        "sessions were running their tests, so every figure is noisy). Measured since 02:20 with "
        "this bench waiting on a console signal instead of Playwright's `wait_for_function`, which "
        "polls from a script it injects into the measured page (a trace of a cold start shows a "
        "51 ms EvaluateScript at 4× with no URL, most likely that script); earlier history "
        "figures include that overhead. A/B, the previous commit's "
        "pwa/ (`BENCH_PWA_ROOT`) and this one, runs of 7 interleaved at load 9–14: scan frame → "
        "verdict 407 / 382 / 344 / 306 ms before, 182 / 346 / 224 / 271 after (the 346 and 271 "
        "at load 13–14); decoded → verified 62 / 59 / 45 / 49 → 25 / 54 / 28 / 30; verified → "
        "visible 162 / 128 / 119 / 133 → 69 / 80 / 68 / 65; frame → decoded 176 / 190 / 166 / "
        "121 → 97 / 171 / 87 / 181, of which the worker's decode alone 76 / 90 / 48 / 41 — the "
        "rest was frames waiting for the WebAssembly compile, fixed at 02:33: the scanner grabs "
        "its first frame once the worker reports ready (next run, load 9–10: scan 163, frame → "
        "decoded 87, decode alone 45). Cold start offline, same A/B: 617 / 604 / 784 / 742 before "
        "and 909 / 965 / 607 / 582 after — no difference measurable under this load; quiet "
        "(load 0.2–2, 02:05 and 02:10) it was 765 before and 381 after, 2 s round trips 681 → "
        "360. What changed: the verdict of a scanned crachá is drawn inside the scanner "
        "(`showVerdict`; no hashchange, no guard re-reading session and PIN from IndexedDB, no "
        "draft read; `history.replaceState` puts the verdict route in the URL); zxing-cpp in "
        "WebAssembly (npm zxing-wasm, self-hosted) decodes in the worker — ~4 ms for a 640 px "
        "frame natively against jsQR's 61 ms (Node, same frame) — on the whole frame, compiled "
        "and warmed up while the camera starts, with jsQR as its fallback; the camera track and "
        "the worker stop after the verdict's first frame (stopping the track inside the "
        "decoded → verified step cost ~30 ms); app.js opens IndexedDB while the home's modules "
        "load; at 02:46 the URL change (`history.replaceState`: 2–41 ms of main thread in "
        "performance marks) moved after the verdict's first frame too (verified → visible "
        "43–63 → 21–67 ms in 5 probe runs each, noisy). Runs before that last step (02:34 and "
        "02:40, load 6–10): scan 163 / 188 ms, offline "
        "cold start 515 / 693, 2 s round trips 462 / 480. So the scan target is met up to load "
        "~10 and missed above it (load 13–14: 271–346); the offline cold start is met quiet and "
        "missed in some loaded runs. Its critical path at 4× (a trace and performance marks, "
        "02:18 and 02:41): navigation commit and the page's script context (~110 + 35 ms in the "
        "trace), HTML parse, the home's 20-module graph evaluated (35 ms quiet, up to 130 "
        "loaded; all modulepreloaded and served by the service worker from its cache by ~230 "
        "ms), the guard's two IndexedDB reads (~25 ms), mount → painted ~25 ms; the field data "
        "is read after the first frame. What remains is the browser's own start-up and "
        "the number of modules (no bundler). The decoder's price is ~400 KB gzip more in the "
        "precache (the .wasm; outside the 80 KB screen budget, docs/benchmarks/fieldapp.md).",
        "",
    ]
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
