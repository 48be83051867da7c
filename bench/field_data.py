"""Benchmark: field data for a municipality of 10,000 permits (issue 24 targets: first download
≤ 150 KB gzip on the wire with format=packed2, the field app's, one-change delta ≤ 1 KB; issue 9's
were 400 KB).

Builds Sapezal (its real rule packs) with N permits, each with its own holder (name, CPF, photo
path, CNH and birth dates) and vehicle, with realistic variety (random names, dates, models), in
a temporary SQLite file migrated by the real Alembic migrations. A fiscal's phone then pulls
through the Flask test client (auth, scoping, query, JSON, gzip: the whole request):
snapshot (plain and gzip), a 304 poll, one permit suspended through permits.operations, the
delta. Sizes are the body bytes on the wire (headers aside), each part and column also gzipped
alone; times are medians of R runs, with the load and the same-run ratio to GET /healthz.
Results: docs/benchmarks/field-data.md.

Usage: .venv/bin/python bench/field_data.py [permits=10000] [runs=5]
"""
import gzip
import json
import math
import os
import platform
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


from server import create_app  # noqa: E402
from large_registry import FIRST, LAST, MODELS, PASSWORD, populate  # noqa: E402

# The columns the phone read before issue 24's last step, how many equally likely values
# populate() draws for each, and how many of them still reach the phone: the CNH number stays on
# the server, and every drawn birth (1974–1995) and first-CNH (2001–2014) date is before its
# floor (fieldsync/fact_floors.py), so each travels as one value.
INFORMATION = [
    ("operators.cnh (11 random digits)", 10 ** 11, 1),
    ("vehicles.plate (3 letters, digit, letter, 2 digits)", 26 ** 4 * 10 ** 3, 26 ** 4 * 10 ** 3),
    ("operators.name (first + 2 last names)", len(FIRST) * len(LAST) ** 2, len(FIRST) * len(LAST) ** 2),
    ("operators.birth_date (± 4000 days)", 8001, 1), ("operators.cnh_first_issue_date (± 2500 days)", 5001, 1),
    ("permits.issued_on (± 800 days)", 1601, 1601), ("permits.valid_until (± 400 days)", 801, 801),
    ("permits.ponto_id", 40, 40), ("vehicles.year_manufacture", 15, 15), ("vehicles make + model", len(MODELS), len(MODELS)),
    ("vehicles.engine_cc", 5, 5),
]


def _kb(bits_per_permit, count):
    return bits_per_permit * count / 8 / 1024


def _encoding(data, name):
    kind, column = name.split(".")
    value = data[kind][column]
    if isinstance(value, list):
        return "plain"
    if "dict" in value:
        return "dict (characters)" if "text" in value else "dict"
    return {"delta": "delta", "days": "days", "b62": "days (base 62)", "words": "words", "text": "fixed",
            "serial": "serial", "shape": "split"}[next(k for k in ("delta", "days", "b62", "words", "text", "serial",
                                                                    "shape") if k in value)]


def median_ms(samples):
    return round(statistics.median(samples) * 1000, 1)


def new_phone(client, auth, slug):
    """Bytes on the wire (bodies, gzip/br as the field app asks) of a new phone's first download,
    step by step as field-data.js runs it: trust, rules, field data, a block of auto numbers."""
    gz = {"Accept-Encoding": "gzip, deflate, br"}
    trust = client.get(f"/api/v1/trust/{slug}?cursor=0&format=grouped", headers={**auth, **gz})
    entries = client.get(f"/api/v1/trust/{slug}?cursor=0", headers={**auth, **gz})
    rules = client.get(f"/api/v1/rules/{slug}", headers={**auth, **gz})
    field = client.get("/api/v1/field/data?cursor=0&format=packed2", headers={**auth, **gz})
    numbers = client.post("/api/v1/autos/numbers", headers={**auth, **gz}, json={"count": 20})
    assert trust.headers.get("Content-Encoding") == "gzip" and field.headers.get("Content-Encoding") == "gzip"
    sizes = {"trust (format=grouped)": len(trust.get_data()), "rules": len(rules.get_data()),
             "field data (format=packed2)": len(field.get_data()), "auto numbers (20)": len(numbers.get_data())}
    return {"sizes": sizes, "total": sum(sizes.values()), "trust_entries": len(entries.get_data())}


def curve(sizes=(10_000, 50_000, 100_000)):
    """The new phone's download at each registry size (a fresh database per size)."""
    out = []
    for count in sizes:
        tmp = Path(tempfile.mkdtemp(prefix="bench_field_curve_"))
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'bench.sqlite3'}", "SECRET_KEY": "bench",
                          "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000", "RATELIMIT_ENABLED": False})
        app.instance_path = str(tmp)
        with app.app_context():
            from flask_migrate import upgrade
            upgrade(directory=str(ROOT / "migrations"))
        started = time.perf_counter()
        populate(app, count, credentials=True)
        populated = time.perf_counter() - started
        client = app.test_client()
        login = client.post("/api/v1/auth/token", json={"username": "fiscal.bench", "password": PASSWORD,
                                                        "device_name": "Bancada"}).json
        auth = {"Authorization": f"Bearer {login['token']}"}
        floor = []
        for _ in range(5):
            t = time.perf_counter()
            client.get("/healthz")
            floor.append(time.perf_counter() - t)
        t = time.perf_counter()
        phone = new_phone(client, auth, "sapezal")
        took = time.perf_counter() - t
        out.append({"count": count, "populated": populated, "took": took, "floor": statistics.median(floor),
                    "load": os.getloadavg()[0], **phone})
        print(f"  {count:,} permits: new phone {phone['total'] / 1024:.0f} KB in {took:.1f} s", flush=True)
    return out


def main(count=10_000, runs=5):
    tmp = Path(tempfile.mkdtemp(prefix="bench_field_"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'bench.sqlite3'}", "SECRET_KEY": "bench",
                      "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000", "RATELIMIT_ENABLED": False})
    app.instance_path = str(tmp)
    with app.app_context():
        from flask_migrate import upgrade
        upgrade(directory=str(ROOT / "migrations"))
    mid = populate(app, count, credentials=True)
    client = app.test_client()
    login = client.post("/api/v1/auth/token", json={"username": "fiscal.bench", "password": PASSWORD,
                                                    "device_name": "Bancada"}).json
    auth = {"Authorization": f"Bearer {login['token']}"}

    def pull(cursor, gz, etag=None, fmt="packed2"):
        headers = {**auth, **({"Accept-Encoding": "gzip"} if gz else {}), **({"If-None-Match": etag} if etag else {})}
        started = time.perf_counter()
        response = client.get(f"/api/v1/field/data?cursor={cursor}&format={fmt}", headers=headers)
        return response, time.perf_counter() - started

    first, _ = pull(0, True)  # warms the rules cache and the version
    plain_times, gz_times, poll_times, floor_times = [], [], [], []
    load_before = os.getloadavg()[0]
    for _ in range(runs):
        started = time.perf_counter()
        client.get("/healthz")
        floor_times.append(time.perf_counter() - started)
        plain, elapsed = pull(0, False)
        plain_times.append(elapsed)
        snap, elapsed = pull(0, True)
        gz_times.append(elapsed)
        poll, elapsed = pull(0, True, snap.headers["ETag"])
        poll_times.append(elapsed)
        assert poll.status_code == 304
    data = json.loads(gzip.decompress(snap.get_data()))
    cursor = data["cursor"]
    load_after = os.getloadavg()[0]
    as_rows, _ = pull(0, True, fmt="rows")
    as_columns, _ = pull(0, True, fmt="columns")
    as_packed, _ = pull(0, True, fmt="packed")

    def gz(value):
        return len(gzip.compress(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(), 9))

    parts = ("permits", "operators", "vehicles", "pontos", "penalties", "calendar", "tariff", "municipality")
    sizes = {kind: gz(data[kind]) for kind in parts}
    sizes["rest (cursor, etags, removed…)"] = gz({k: v for k, v in data.items() if k not in parts})
    columns = {f"{kind}.{name}": gz(values) for kind in ("permits", "operators", "vehicles")
               for name, values in data[kind].items()}
    rules = client.get(f"/api/v1/rules/{data['municipality']['slug']}", headers=auth).get_data()
    phone = new_phone(client, auth, data["municipality"]["slug"])

    from server.modules.registry.models import Permit
    from server.modules.permits.operations import change_permit_status
    with app.app_context():
        permit = Permit.query.filter_by(municipality_id=mid, status="ativo").order_by(Permit.id).first()
        change_permit_status(permit, "suspend", "Bancada")
        permit_id = permit.id
    delta_gz, delta_time = pull(cursor, True)
    delta_plain, _ = pull(cursor, False)
    delta = json.loads(delta_plain.get_data())
    assert delta["permits"]["id"] == {"delta": [permit_id]}, delta
    delta_rows, _ = pull(cursor, False, fmt="rows")

    floor = statistics.median(floor_times)
    curve_rows = curve()
    lines = [
        "# Field data benchmark (`bench/field_data.py`)", "",
        f"Run {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.machine()} "
        f"({platform.python_version()}), SQLite, Flask test client (whole request: auth, scoping, queries, "
        f"JSON, gzip level 9), `format=packed2` (the field app's) unless said otherwise. One municipality (Sapezal's rule packs) with **{count:,} permits**, "
        f"{count:,} operators (each with a photo) and {count:,} vehicles, random names, dates and models. "
        f"The machine is shared (2 cores, other sessions running; load average {load_before:.2f} → {load_after:.2f} "
        f"during the timed runs): times are indicative, with their ratio to `GET /healthz` in the same run "
        f"({floor * 1000:.2f} ms); sizes are exact.", "",
        "| What | Target | Measured |", "|---|---|---|",
        f"| First download (snapshot), gzip body | ≤ 150 KB | **{len(snap.get_data()) / 1024:.0f} KB** "
        f"({'meets' if len(snap.get_data()) <= 150 * 1024 else 'MISSES'} the target) |",
        f"| Same, uncompressed | — | {len(plain.get_data()) / 1024:.0f} KB |",
        f"| Same snapshot with `format=packed` (the previous shell's), gzip | — | {len(as_packed.get_data()) / 1024:.0f} KB |",
        f"| Same snapshot with `format=columns` (an older shell's), gzip | — | {len(as_columns.get_data()) / 1024:.0f} KB |",
        f"| Same snapshot with `format=rows` (lists of objects), gzip | — | {len(as_rows.get_data()) / 1024:.0f} KB |",
        f"| Composed rules, `GET /api/v1/rules/<slug>` (the same download's step before; no longer repeated "
        f"in the field data), plain / as gzip would send them | — | {len(rules) / 1024:.0f} KB / "
        f"{len(gzip.compress(rules, 9)) / 1024:.0f} KB |",
        f"| One-change delta (a permit suspended), gzip body | ≤ 1 KB | **{len(delta_gz.get_data())} B** "
        f"({'meets' if len(delta_gz.get_data()) <= 1024 else 'MISSES'}) |",
        f"| Same delta, uncompressed | ≤ 1 KB | {len(delta_plain.get_data())} B |",
        f"| Same delta with `format=rows`, uncompressed | ≤ 1 KB | {len(delta_rows.get_data())} B |",
        f"| Snapshot time, plain (median of {runs}) | — | {median_ms(plain_times)} ms "
        f"(× {statistics.median(plain_times) / floor:.0f} `/healthz`) |",
        f"| Snapshot time, gzip (median of {runs}) | — | {median_ms(gz_times)} ms "
        f"(× {statistics.median(gz_times) / floor:.0f}) |",
        f"| Poll with nothing new → 304 (median of {runs}) | — | {median_ms(poll_times)} ms "
        f"(× {statistics.median(poll_times) / floor:.1f}) |",
        f"| Delta request | — | {delta_time * 1000:.1f} ms (× {delta_time / floor:.1f}) |",
        "", "## A new phone's first download", "",
        f"What a phone enrolled in a municipality of {count:,} permits (each active one with its crachá) downloads "
        "before its first roadside day, step by step as `pwa/js/fiscal/field-data.js` runs it, bodies as sent "
        "(gzip or Brotli; headers aside). Operator thumbnails are not in it: they follow in the background, "
        "200 to a request (`GET /api/v1/field/photos?ids=…`), and are kept for the roadside.", "",
        "| Step | bytes |", "|---|---|",
        *[f"| {name} | {size / 1024:.1f} KB |" for name, size in phone["sizes"].items()],
        f"| **total** (target ≤ 400 KB) | **{phone['total'] / 1024:.0f} KB** "
        f"({'meets' if phone['total'] <= 400 * 1024 else 'MISSES'}) |",
        f"| trust as `format=entries` (one object per crachá and permit), for comparison | "
        f"{phone['trust_entries'] / 1024:.0f} KB |",
        "", "### Size curve", "",
        "The same download at three registry sizes (a fresh database each, `tests/large_registry.py`: "
        "identifiers unique by construction), with the time the in-process server took to answer all of it "
        "and its ratio to one `GET /healthz` of the same moment:", "",
        "| permits | trust | rules | field data | numbers | total | server time | ÷ `/healthz` | load |",
        "|---|---|---|---|---|---|---|---|---|",
        *[f"| {c['count']:,} | {c['sizes']['trust (format=grouped)'] / 1024:.0f} KB | {c['sizes']['rules'] / 1024:.0f} KB | "
          f"{c['sizes']['field data (format=packed2)'] / 1024:.0f} KB | {c['sizes']['auto numbers (20)'] / 1024:.1f} KB | "
          f"**{c['total'] / 1024:.0f} KB** | {c['took'] * 1000:.0f} ms | {c['took'] / c['floor']:.0f} | {c['load']:.1f} |"
          for c in curve_rows],
        "", "Each part of the gzip snapshot (compressed alone, so they add up to a bit more):", "",
        "| Part | gzip |", "|---|---|",
        *[f"| {kind} | {size / 1024:.1f} KB |" for kind, size in sizes.items()],
        "", "Every column of the three large parts (gzip alone), largest first:", "",
        "| Column | encoding | gzip |", "|---|---|---|",
        *[f"| {name} | {_encoding(data, name)} | {size / 1024:.1f} KB |"
          for name, size in sorted(columns.items(), key=lambda kv: -kv[1])],
        "", "What the generator puts into each column, in bits per permit (log2 of its equally likely "
            "choices; below this no encoding can go), drawn and as it reaches the phone now:", "",
        "| Column | choices drawn | bits drawn | bits on the phone |", "|---|---|---|---|",
        *[f"| {name} | {choices:,} | {math.log2(choices):.1f} | {math.log2(now):.1f} |" for name, choices, now in INFORMATION],
        f"| **total for {count:,} permits** | | **{_kb(sum(math.log2(c) for _, c, _ in INFORMATION), count):.0f} KB** "
        f"| **{_kb(sum(math.log2(n) for _, _, n in INFORMATION), count):.0f} KB** |",
        "", "With every column the phone read before, this population could not travel in 150 KB (the drawn "
            "total). It does now because less of it travels, not only because it is coded tighter: the CNH "
            "number stays on the server, which prints it on the notificação (CTB art. 280 IV), and birth and "
            "first-CNH dates past the rules' largest \"at least N years\" (Lei 12.009/2009 art. 2º I and II) "
            "travel as that floor (docs/sync-api.md, Field data).",
        "", "Only what the phone reads travels (no CPF, CNH number, CNH expiry, permit kind or ponto address); rows leave "
            "out null values and empty lists; operators carry `photo: 1` (thumbnails, ≤ 8 KB each, travel "
            "separately from `photo_url`). Encodings: `server/modules/fieldsync/field_codec.py`.",
    ]
    out = ROOT / "docs" / "benchmarks" / "field-data.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
