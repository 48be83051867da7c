"""Credential benchmark: payload size and QR version; verification time (decode + signature +
status lookup) in Python, in Node and in headless Chromium. Writes docs/benchmarks/credentials.md.

    .venv/bin/python bench/credentials_verify.py [--permits 2000]

Needs node (pwa/node_modules installed) and, for the browser part, /usr/bin/chromium with
Playwright for Python; a missing part is reported as such in the results, never invented.
"""
import argparse
import functools
import http.server
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date, datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from credentials_fixture import BASE_URL, build  # noqa: E402

from server.modules.credentials.codec import (  # noqa: E402
    MAX_PERMIT_NUMBER_LEN, Body, encode_body, make_payload, make_url_payload)
from server.modules.credentials.render import card_module_px, qr_version  # noqa: E402
from server.modules.credentials.signing import generate, sign  # noqa: E402
from server.modules.credentials.verifier import parse_time, prepare_trust, verify  # noqa: E402

OUT = ROOT / "docs/benchmarks/credentials.md"


def stats(samples_ms):
    s = sorted(samples_ms)
    return {"n": len(s), "mean_ms": statistics.fmean(s), "median_ms": s[len(s) // 2],
            "p95_ms": s[min(len(s) - 1, int(0.95 * len(s)))], "max_ms": s[-1]}


def sizes():
    key = generate()
    rows = []
    for label, number in (("1 char", "1"), ("typical, 10 chars (PNT-26/001)", "PNT-26/001"),
                          ("demo style, 8 chars (001/2026)", "001/2026"),
                          (f"longest accepted, {MAX_PERMIT_NUMBER_LEN} chars", "X" * MAX_PERMIT_NUMBER_LEN)):
        body = encode_body(Body(kid=1, ibge_code=5106307, serial=123456, expires_on=date(2027, 12, 31),
                                permit_number=number))
        signature = sign(key, body)
        url = make_url_payload(body, signature, BASE_URL)
        legacy = make_payload(body, signature)
        rows.append((label, len(body), len(url), qr_version(url), card_module_px(url) * 25.4 / 300,
                     len(legacy), qr_version(legacy)))
    return rows


def python_bench(fx, label=None):
    t0 = time.perf_counter()
    trust = prepare_trust(fx["trust"])
    prepare_ms = (time.perf_counter() - t0) * 1000
    now = parse_time(fx["now"])
    samples = []
    for p in fx["payloads"]:
        t = time.perf_counter()
        result = verify(p, trust, now)
        samples.append((time.perf_counter() - t) * 1000)
        assert result["verdict"] == "VÁLIDO", result
    return {"python": platform.python_version(), "prepare_trust_ms": prepare_ms, **stats(samples)}


def node_bench(fixture_path):
    try:
        out = subprocess.run(["node", str(ROOT / "bench/credentials_verify.mjs"), str(fixture_path)],
                             capture_output=True, text=True, check=True, timeout=300)
        return json.loads(out.stdout)
    except (OSError, subprocess.SubprocessError, ValueError) as err:
        return {"error": str(err)}


def chromium_bench(fx):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:
        return {"error": f"playwright not installed: {err}"}
    if not Path("/usr/bin/chromium").exists():
        return {"error": "/usr/bin/chromium not installed"}

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(ROOT)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{server.server_port}/bench/credentials_verify.html")
            page.wait_for_function("window.benchReady === true")
            result = page.evaluate("fx => window.runBench(fx)", fx)
            browser.close()
            return result
    except Exception as err:  # report, do not invent numbers
        return {"error": repr(err)}
    finally:
        server.shutdown()


def fmt(r):
    if "error" in r:
        return f"not measured: {r['error']}"
    return (f"mean {r['mean_ms']:.3f} ms · median {r['median_ms']:.3f} ms · p95 {r['p95_ms']:.3f} ms · "
            f"max {r['max_ms']:.3f} ms (n={r['n']}); trust preparation {r['prepare_trust_ms']:.1f} ms")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--permits", type=int, default=2000)
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None  # shared machines: say how busy
    fx = build(args.permits)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(fx, fh)
        fixture_path = Path(fh.name)
    try:
        size_rows = sizes()
        py = python_bench(fx)
        py_legacy = python_bench(build(args.permits, legacy=True))
        node = node_bench(fixture_path)
        chrome = chromium_bench(fx)
    finally:
        os.unlink(fixture_path)
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else platform.processor()
    lines = [
        "# Credential benchmark",
        "",
        f"Written by `bench/credentials_verify.py` on {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; "
        f"CPU: {cpu} ({os.cpu_count()} logical), 1-minute load average at start "
        f"{'unknown' if load is None else f'{load:.1f}'} (times grow with other work on the machine). "
        "Do not edit by hand: re-run the script.",
        "",
        "## Payload size and QR version (error correction Q, alphanumeric mode)",
        "",
        f"URL form: `{BASE_URL.upper()}/V/` ({len(BASE_URL) + 3} characters) + base32(body + 64-byte",
        "Ed25519 signature), issued now. First form: `MF1:` + base45 of the same bytes (still verified).",
        "",
        "| permit number | body bytes | URL characters | URL QR version | crachá module | MF1 characters | MF1 QR version |",
        "|---|---|---|---|---|---|---|",
        *[f"| {label} | {body} | {chars} | {ver} | {mm:.2f} mm | {lchars} | {lver} |"
          for label, body, chars, ver, mm, lchars, lver in size_rows],
        "",
        "Version 10 at level Q holds 219 alphanumeric characters: the longest permit number (154",
        "base32 characters) leaves 65 for `HTTPS://HOST/V/`, a host of up to ~54 characters",
        "(checked at start-up, `render.check_public_base_url`). Crachá modules are whole 300-dpi dots.",
        "",
        f"## Verification time (decode + signature + status lookup), {args.permits} permits and "
        f"{args.permits} credentials in the trust data, {args.permits} distinct valid payloads",
        "",
        "Trust data is prepared once per sync (keys imported, entries indexed); the times below are per",
        "scan after that. Browser timers are coarsened (≈0.1 ms without cross-origin isolation, hence",
        "medians of 0.000 ms), so the mean over all scans is the better figure there.",
        "",
        f"- **Python** {py['python']} (pyca/cryptography), URL form: {fmt(py)}",
        f"- **Python**, first form (MF1 + base45): {fmt(py_legacy)}",
        f"- **Node** {node.get('node', '?')} WebCrypto Ed25519: {fmt(node.get('webcrypto', node))}",
        f"- **Node** @noble/ed25519 fallback: {fmt(node.get('noble', node))}",
        f"- **Chromium** ({chrome.get('user_agent', '?')}) WebCrypto Ed25519: {fmt(chrome.get('webcrypto', chrome))}",
        f"- **Chromium** @noble/ed25519 fallback: {fmt(chrome.get('noble', chrome))}",
        "",
        "Target (PRODUCT.md, roadside check): a verdict within a second. Phone CPUs are several times",
        "slower than this machine; the margin is three orders of magnitude.",
        "",
    ]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
