"""Benchmark: the field app's whole precache (every file of sw.js's SHELL_FILES, plus sw.js) as
the server sends it, per Accept-Encoding: bytes on the wire, and the server's time for the whole
shell on a cold process (each file compressed once: core/compressed.py's memo empty) and warm
(memo filled). Through the real app (test client, no network), so the times are the app's own.

Reference in the same run: the identity download of the same files (no compression), so the
ratios hold on a loaded machine. Results: docs/benchmarks/shell-compression.md.

Usage: .venv/bin/python bench/shell_compression.py [runs=5]
"""
import json
import os
import re
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server import create_app  # noqa: E402
from server.core import compressed  # noqa: E402

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
OUT = ROOT / "docs" / "benchmarks" / "shell-compression.md"
ENCODINGS = {"identity": "identity", "gzip": "gzip", "br": "gzip, deflate, br"}


def shell_urls(client):
    sw = client.get("/app/sw.js", headers={"Accept-Encoding": "identity"}).get_data(as_text=True)
    files = json.loads(re.search(r"const SHELL_FILES = (\[.*?\]);", sw).group(1))
    return ["/app/sw.js"] + ["/app/" + ("" if f == "./" else f) for f in files]


def download(client, urls, accept):
    """(bytes on the wire, seconds) for every URL once."""
    total, start = 0, time.perf_counter()
    for url in urls:
        response = client.get(url, headers={"Accept-Encoding": accept})
        assert response.status_code == 200, url
        total += len(response.get_data())
    return total, time.perf_counter() - start


def main():
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "bench"})
        app.instance_path = tmp
        client = app.test_client()
        urls = shell_urls(client)
        rows = {}
        for name, accept in ENCODINGS.items():
            cold, warm, size = [], [], 0
            for _ in range(RUNS):
                compressed._variants.clear()
                size, seconds = download(client, urls, accept)
                cold.append(seconds)
                warm.append(download(client, urls, accept)[1])
            rows[name] = (size, statistics.median(cold), statistics.median(warm))
    load = os.getloadavg()
    ref = rows["identity"][2]
    lines = [
        "# Field app shell: bytes on the wire and server time per encoding",
        "",
        f"Measured by `.venv/bin/python bench/shell_compression.py` on "
        f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {len(urls)} files (sw.js and its SHELL_FILES), "
        f"median of {RUNS} runs, load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} on "
        f"{os.cpu_count()} cores (a shared machine).",
        "",
        "Cold: a process whose memo is empty (each file compressed on its first request: Brotli quality 9,",
        "gzip level 9). Warm: every later request (the memo answers). Reference: the warm identity",
        "download of the same files in the same run.",
        "",
        "| Accept-Encoding | KB on the wire | vs identity | cold ms | warm ms | warm / reference |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, (size, cold, warm) in rows.items():
        lines.append(f"| {ENCODINGS[name]} | {size / 1024:.1f} | {size / rows['identity'][0]:.0%} | "
                     f"{cold * 1000:.0f} | {warm * 1000:.0f} | {warm / ref:.2f} |")
    lines += ["", "A phone on 3G downloads the shell once per version (the service worker's precache); "
              "between versions its revalidations are 304s with no body."]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
