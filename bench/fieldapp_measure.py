"""bench/fieldapp_perf.py's measurements of one registry size: cold starts (and the floor page
beside each), real taps on "Ler crachá" timed to the verdict, the idle read of the rows and the sync
step after one-change deltas. Each size's figures are a dict; fieldapp_page.py writes the page."""
import time
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from tests.e2e.fiscal_helpers import StoppableServer, write_y4m  # noqa: E402
from fieldapp_city import (HELD, SYNC, USERNAME, city_app, crachá_number,  # noqa: E402
                           held_permits, suspend_one)
from fieldapp_harness import (WATCH, WORKER_RATE, WRAPPED, Slow, crachá_png,  # noqa: E402
                              enroll, throttled_page, wait_for)

DELTAS = 5  # one-change deltas synced per size (the sync step after a delta)
IDLE_S = 3  # the origin idle (no page of it open) before a cold start: Chromium closes IndexedDB 2 s after its last connection
ENGINES = set()  # which decoder the scanner's worker ran ('zxing' or 'jsqr'), reported in the doc


def cold_start(context, url, path="/app/#/fiscal"):
    page = throttled_page(context)
    with wait_for(page, "home"):
        page.goto(f"{url}{path}", wait_until="commit")
    took = page.evaluate("() => window.__homeAt")
    page.close()
    return took


def floor(context, url):
    """The floor page of this moment: (cold start → button painted, a frame's round trip)."""
    page = throttled_page(context)
    with wait_for(page, "home"):
        page.goto(f"{url}/bench-floor/", wait_until="commit")
    start = page.evaluate("() => window.__homeAt")
    trip = page.evaluate("() => window.floorTrip()")
    page.close()
    return start, trip


def tap(page, selector):
    """A real tap (CDP mouse events, no script injected into the page at the moment measured)."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    page.evaluate("() => window.__rearm()")
    try:
        with wait_for(page, "verdict"):
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    except Exception:
        print("no verdict:", page.url, page.locator("main").inner_text()[:500], flush=True)
        raise
    verdict, tapped, frame, decoded, verified, word, engine, decode_ms, full = page.evaluate(
        "() => [window.__verdictAt, window.__tapAt, window.__frameAt, window.__decodedAt, window.__verifiedAt, "
        "document.querySelector('#verdict-word').textContent, window.__engine, window.__decodeMs, "
        "performance.getEntriesByName('scan-decoded').pop()?.detail?.full]")
    assert word == "VÁLIDO", word
    ENGINES.add(engine)
    # (None: a build without these marks, e.g. an older pwa/ under BENCH_PWA_ROOT)
    screen, stream, camera, ready, signed, read = (float("nan") if at is None else at - tapped for at in page.evaluate(
        "() => ['scan-screen', 'scan-stream', 'scan-camera', 'decoder-ready', 'verify-signed', 'verify-permit-read']"
        ".map((n) => performance.getEntriesByName(n).pop()?.startTime ?? null)"))
    return {"screen": screen, "stream": stream, "camera": camera, "ready": ready,
            "tap": verdict - tapped, "frame": verdict - frame, "decoded": decoded - frame,
            "verify": verified - decoded, "paint": verdict - verified, "full": bool(full),
            # decoded → signature checked, decoded → permit read (in parallel since issue 40)
            "signed": signed - (decoded - tapped), "read": read - (decoded - tapped),
            "decode": decode_ms * WORKER_RATE if decode_ms is not None else float("nan")}


def scan(context, url):
    """Home → tap "Ler crachá" → verdict (camera starting), then "Ler outro crachá" → verdict
    (camera warm); and, on a new page, "Ler crachá" tapped the moment the home shows."""
    page = throttled_page(context)
    with wait_for(page, "home"):
        page.goto(f"{url}/app/#/fiscal")
    page.wait_for_timeout(1000)  # a fiscal reads the home first: its after-paint work and idle prefetch happen meanwhile
    first = tap(page, "#go-scan")
    page.wait_for_timeout(1000)  # the fiscal reads the verdict; its slots (tariff, vistoria, photo) fill meanwhile
    again = tap(page, "text=Ler outro crachá")
    page.close()
    page = throttled_page(context)
    with wait_for(page, "home"):
        page.goto(f"{url}/app/#/fiscal")
    hasty = tap(page, "#go-scan")  # before the home's idle work: the decoder starts at the tap
    page.close()
    return first, again, hasty


def measure(permits, tmp, runs):
    """Every figure for one registry size; the loads seen meanwhile."""
    from playwright.sync_api import sync_playwright

    from large_registry import PASSWORD as CITY_PASSWORD

    app = city_app(tmp, permits)
    png = crachá_png(app, aimed=True)
    video = write_y4m(png, tmp / f"cracha-{permits}.y4m", fps=30)  # a phone camera's rate
    slow = Slow(app.wsgi_app)
    app.wsgi_app = slow
    server = StoppableServer(app).start()
    out = {"loads": [os.getloadavg()[0]], "permits": permits}
    wrapped_before = len(WRAPPED)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + [
            "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"])
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pt-BR",
                                      timezone_id="America/Cuiaba", service_workers="allow",
                                      permissions=["camera", "geolocation"])
        context.add_init_script(WATCH)
        setup = throttled_page(context)  # the first download, at 4× too
        enroll(setup, server.url, USERNAME, CITY_PASSWORD)
        first = setup.evaluate("() => performance.getEntriesByName('field-sync').map((m) => ({ ms: m.duration, store: m.detail.store, decode: m.detail.decode, snapshot: m.detail.snapshot }))")
        assert first and first[0]["snapshot"], first
        out["write"] = first[0]
        setup.close()
        out["held"] = held_permits(context, server.url)
        assert out["held"]["permits"] == permits, out["held"]

        cold_start(context, server.url)  # warm-up (first load after install)
        floor(context, server.url)
        out.update(offline=[], idle=[], floors=[], scans=[], rtt=[], reads=[], syncs=[])
        for _ in range(runs):  # interleaved, so app and floor see the same load
            out["floors"].append(floor(context, server.url))
            context.set_offline(True)
            out["offline"].append(cold_start(context, server.url))
            time.sleep(IDLE_S)  # no page of the origin open: IndexedDB closes
            out["idle"].append(cold_start(context, server.url))
            context.set_offline(False)
            out["scans"].append(scan(context, server.url))
            out["loads"].append(os.getloadavg()[0])
        slow.delay = 2.0
        out["rtt"] = [cold_start(context, server.url) for _ in range(max(3, runs // 2))]
        slow.delay = 0.0
        page = throttled_page(context)
        page.goto(f"{server.url}/app/#/fiscal")
        page.wait_for_selector("#go-scan")
        out["reads"].append(page.evaluate(HELD)["ms"])
        skip = {crachá_number(app)}
        for _ in range(DELTAS):
            suspend_one(app, skip)
            synced = page.evaluate(SYNC)
            assert synced["step"] == "ok" and not synced["snapshot"], synced
            out["syncs"].append(synced)
        page.close()
        out["loads"].append(os.getloadavg()[0])
        browser.close()
    server.stop()
    out["engines"], out["wrapped"] = sorted(map(str, ENGINES)), WRAPPED[wrapped_before:]
    return out

