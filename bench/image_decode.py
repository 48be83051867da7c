"""Benchmark: memory of decoding an operator photo just under the pixel limit (core/images.py,
registry/photos.normalize_photo), alone and 12 at once (threads of one process, as gunicorn's
gthread workers run uploads). Each measurement is a fresh process: its peak RSS (VmHWM, reset once the
upload's bytes are read) minus its RSS then.

Reference in the same run: the same bytes decoded the plain way (`Image.open(...).convert("RGB")`,
what the upload path did before issue 36), so the ratio holds on a loaded machine.
Results: docs/benchmarks/image-decode.md.

Usage: .venv/bin/python bench/image_decode.py
"""
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "benchmarks" / "image-decode.md"
SIZE = (7296, 5472)  # 39.92 megapixels: under IMAGE_MAX_PIXELS (40 MP)
CONCURRENT = 12


def _make(folder):
    """A camera-like JPEG (smooth scene plus sensor noise), under the 8 MB upload limit; and a PNG."""
    from PIL import Image, ImageFilter
    small = Image.effect_noise((SIZE[0] // 16, SIZE[1] // 16), 60).convert("RGB").filter(ImageFilter.GaussianBlur(3))
    img = small.resize(SIZE, Image.Resampling.BICUBIC)
    paths = {}
    for quality in (85, 75, 60, 45):
        out = io.BytesIO()
        img.save(out, "JPEG", quality=quality)
        if out.tell() < 8 * 1024 * 1024:
            break
    paths["jpeg"] = folder / "photo.jpg"
    paths["jpeg"].write_bytes(out.getvalue())
    out = io.BytesIO()
    Image.new("RGB", SIZE, (200, 180, 160)).save(out, "PNG", optimize=True)
    paths["png"] = folder / "photo.png"
    paths["png"].write_bytes(out.getvalue())
    return paths


def _status_mb(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024  # kB
    raise RuntimeError(field)


def _reset_peak():
    """Linux: writing 5 to clear_refs resets the peak RSS (VmHWM) to the current RSS, so the peak
    measured is the decode's, not the imports' before it."""
    Path("/proc/self/clear_refs").write_text("5")


def child(mode, path, count):
    from PIL import Image
    from server.modules.registry.photos import normalize_photo
    data = Path(path).read_bytes()
    if mode == "reference":
        def work():
            with Image.open(io.BytesIO(data)) as img:
                img.convert("RGB")
    else:
        def work():
            normalize_photo(data)
    _reset_peak()
    before = _status_mb("VmRSS")
    threads = [threading.Thread(target=work) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps({"peak_mb": round(_status_mb("VmHWM") - before, 1)}))


def _measure(mode, path, count):
    done = subprocess.run([sys.executable, __file__, "--child", mode, str(path), str(count)],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])["peak_mb"]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        paths = _make(Path(tmp))
        rows = []
        for kind, path in paths.items():
            for count in (1, CONCURRENT):
                ours, ref = _measure("normalize", path, count), _measure("reference", path, count)
                rows.append((kind, path.stat().st_size, count, ours, ref))
    load = os.getloadavg()
    lines = [f"Run {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, load average {load[0]:.2f} / {load[1]:.2f} "
             f"(1 / 5 min) on {os.cpu_count()} cores; a {SIZE[0]} × {SIZE[1]} image "
             f"({SIZE[0] * SIZE[1] / 1e6:.2f} MP, IMAGE_MAX_PIXELS 40 MP).", "",
             "| Upload | Bytes | At once | Peak RSS growth, normalize_photo (MB) | Reference: plain decode (MB) "
             "| Ratio |", "|---|---:|---:|---:|---:|---:|"]
    for kind, size, count, ours, ref in rows:
        lines.append(f"| {kind.upper()} | {size / 1e6:.2f} MB | {count} | {ours:.0f} | {ref:.0f} | "
                     f"{ours / ref:.2f} |" if ref else f"| {kind} | {size} | {count} | {ours:.0f} | {ref:.0f} | – |")
    print("\n".join(lines))
    if "--print" not in sys.argv:
        from bench_doc import write_generated
        write_generated(OUT, lines + [""])


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        main()
