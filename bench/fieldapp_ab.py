"""A/B of the phone's scan and start at one registry size, interleaved run by run: the same city
(tests/large_registry.py) served twice, once with this checkout's pwa/ (B) and once with another
copy (A: `BENCH_PWA_ROOT`, e.g. an older commit's pwa/), each on its own origin (its own
IndexedDB and service worker) in one browser, both phones enrolled through their screens. Each
run measures A then B or B then A (alternating): the offline cold start and bench/fieldapp_perf.py's
scan (tap "Ler crachá" 1 s after the home → verdict, "Ler outro crachá", the hasty tap),
the field data downloaded again as a snapshot (the first download's write: REWRITE) and then read
back whole as the home reads it when idle (fieldapp_city.HELD), so both
sides see the same load — on a shared machine a run of the full bench for each side, minutes
apart, does not (issue 40: decoded → verified 22 ms in one such run of the older code, 37 in
the next of the newer, at the same load average).

Usage: BENCH_PWA_ROOT=/path/to/old/pwa .venv/bin/python bench/fieldapp_ab.py [runs=12] [permits=50000]
Prints each figure's median (range) for A and B; writes nothing.
"""
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from tests.e2e.fiscal_helpers import StoppableServer, write_y4m  # noqa: E402
from fieldapp_city import HELD, USERNAME, city_app  # noqa: E402
from fieldapp_harness import WATCH, Slow, crachá_png, enroll, on_fiscal_home, throttled_page  # noqa: E402
from fieldapp_measure import cold_start, floor, scan  # noqa: E402

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 12
PERMITS = int(sys.argv[2]) if len(sys.argv) > 2 else 50_000
FIGURES = {  # name → (scan index or None, key)
    "cold start offline → home": (None, "offline"),
    "tap → verdict, first tap 1 s after the home": (0, "tap"),
    "  tap → camera playing": (0, "camera"),
    "tap → verdict, \"Ler outro crachá\"": (1, "tap"),
    "frame → verdict, first crachá": (0, "frame"),
    "frame → verdict, \"Ler outro crachá\"": (1, "frame"),
    "frame → verdict, hasty tap": (2, "frame"),
    "decoded → verified (all three)": ("all", "verify"),
    "  decoded → signature checked": ("all", "signed"),
    "  decoded → permit's rows read": ("all", "read"),
    "verified → visible (all three)": ("all", "paint"),
    "the field data downloaded again as a snapshot: decode + IndexedDB (`storeAnswer`)": (None, "write"),
    "the rows read into memory when idle (`loadField`)": (None, "held"),
}

# The first download's write again, on a phone already enrolled: its registry rows and cursor
# dropped, then "Atualizar dados" (`download()`), whose field step is then a snapshot; the
# `field-sync` measure's `store` (decode + IndexedDB, as bench/fieldapp_perf.py's first write).
REWRITE = """async () => {
    const db = await import('./js/data/db.js');
    const field = await import('./js/fiscal/field-data.js');
    await db.clear('field_chunks');
    await db.del('reference', 'field');
    field.forgetField();
    performance.clearMeasures('field-sync');
    const { steps } = await field.download();
    const [measure] = performance.getEntriesByName('field-sync');
    return { step: steps.field, snapshot: measure?.detail.snapshot, store: measure?.detail.store };
}"""


def rewrite(context, url):
    written = on_fiscal_home(context, url, REWRITE)
    assert written["step"] == "ok" and written["snapshot"], written
    return written["store"]


def main():
    from playwright.sync_api import sync_playwright
    from large_registry import PASSWORD
    from server import create_app

    old = os.environ.pop("BENCH_PWA_ROOT", None)
    assert old, "BENCH_PWA_ROOT: the A side's pwa/"
    tmp = Path(tempfile.mkdtemp())
    app_b = city_app(tmp, PERMITS)  # this checkout's pwa/
    video = write_y4m(crachá_png(app_b, aimed=True), tmp / "cracha.y4m", fps=30)
    app_a = create_app({**{k: app_b.config[k] for k in ("TESTING", "SECRET_KEY", "RATELIMIT_ENABLED", "SQLALCHEMY_DATABASE_URI")},
                        "FIELDAPP_ROOT": old})
    app_a.instance_path = app_b.instance_path  # the same signing keys' folder
    for app in (app_a, app_b):
        app.wsgi_app = Slow(app.wsgi_app)  # it serves the floor page too
    sides = {"A": StoppableServer(app_a).start(), "B": StoppableServer(app_b).start()}
    print(", ".join(f"{side}: {server.url}" for side, server in sides.items()), flush=True)
    out = {side: {"offline": [], "floor": [], "scans": [], "write": [], "held": []} for side in sides}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + [
            "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"])
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pt-BR",
                                      timezone_id="America/Cuiaba", service_workers="allow",
                                      permissions=["camera", "geolocation"])
        context.add_init_script(WATCH)
        for server in sides.values():
            page = throttled_page(context)
            enroll(page, server.url, USERNAME, PASSWORD)
            page.close()
            cold_start(context, server.url)  # warm-up (first load after install)
        loads = [os.getloadavg()[0]]
        for run in range(RUNS):
            for side in ("AB" if run % 2 == 0 else "BA"):
                url = sides[side].url
                out[side]["floor"].append(floor(context, url)[0])
                context.set_offline(True)
                out[side]["offline"].append(cold_start(context, url))
                context.set_offline(False)
                out[side]["scans"].append(scan(context, url))
                out[side]["write"].append(rewrite(context, url))
                out[side]["held"].append(on_fiscal_home(context, url, HELD)["ms"])
            loads.append(os.getloadavg()[0])
            print(f"run {run + 1}/{RUNS}", flush=True)
        browser.close()
    for server in sides.values():
        server.stop()
    print(f"\n{PERMITS:,} permits, {RUNS} interleaved runs, load average {min(loads):.1f}–{max(loads):.1f}; "
          "median (range) ms, A → B")
    for name, (which, key) in FIGURES.items():
        cells = []
        for side in sides:
            if which is None:
                values = out[side][key]
            elif which == "all":
                values = [s[key] for scans in out[side]["scans"] for s in scans]
            else:
                values = [scans[which][key] for scans in out[side]["scans"]]
            values = sorted(v for v in values if v == v)
            cells.append(f"{statistics.median(values):.0f} ({values[0]:.0f}–{values[-1]:.0f})" if values else "—")
        print(f"{name}: {cells[0]} → {cells[1]}")
    print("floor page's start, A's runs / B's runs: "
          f"{statistics.median(out['A']['floor']):.0f} / {statistics.median(out['B']['floor']):.0f}")


if __name__ == "__main__":
    main()
