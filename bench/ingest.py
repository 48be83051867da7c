"""Benchmark: ingest of signed field records on PostgreSQL behind gunicorn, 50 concurrent
simulated devices (issue 9 target: ≥ 1,000 records/s, p95 < 300 ms).

Set-up (not timed): a private schema in PostgreSQL migrated by the real Alembic migrations, the
demo municipalities, 50 enrolled devices of Sapezal's fiscal (tokens, Ed25519 keys and a block of
auto numbers recorded as the API would), and every record built, signed and every request body
encoded in advance (that is the phone's work). Records are what the field app sends: inspections
naming one of the demo permits (so the server resolves the operator and the ponto), and every
tenth record an auto de infração of the inspection before it, with a number from the device's
block (so the server claims the number and opens the AutoCase).
Then gunicorn serves the app with the production settings of `gunicorn.conf.py` (workers and
threads may be overridden) and 50 client threads, one per device, each with its own keep-alive
connection (http.client), push their records back to back. Every answer is checked (all
`accepted`, no flags), and the server's row count must equal what was sent.
Four runs: back to back (every device pushes its next batch as soon as the last is answered:
the server's saturation throughput, and with 50 devices in a closed loop p95 ≈ 50 / requests
per second), at an offered 1,000 records/s (each device pushes a batch of 50 every 2.5 s,
staggered, for 10 s: the latency at the target rate) and at 20 % more (1,200 records/s: the
headroom), and one record per request back to back.
Measured: records/s over the wall time of the run (open loop: from the first push's due time to
the last answer, so a server that keeps up shows the offered rate less the last answer's
latency), the latency of each push request
(p50/p95/max), the CPU the server spent per record (gunicorn workers and PostgreSQL backends,
from /proc) and the CPU the client itself spent (it shares the machine). The primary shape is
batches of 50 (the field app's outbox, `pwa/js/fiscal/outbox.js` BATCH; 20 until 2026-12-04). Results:
docs/benchmarks/ingest.md. Time-bounded: each run sends a fixed number of records.

PostgreSQL's statistics: the push's statements are prepared (one text whatever the batch, see
server/core/sql_lists.py), and PostgreSQL keeps a prepared statement's plan until the tables'
statistics change. In production autovacuum analyzes a growing table regularly (50 rows + 10 %
changed, checked every minute). Where the server runs with autovacuum off (this machine's test
PostgreSQL does), nothing ever analyzes the tables the benchmark starts empty, and a plan made
when they held ten rows (a sequential scan) is kept while they grow to thousands: the bench then
measures a database nobody runs. So when autovacuum is off the bench stands in for it: it
ANALYZEs the push's tables every ANALYZE_EVERY_S seconds while the runs go on (its CPU counts in
the database's share).

Usage: .venv/bin/python bench/ingest.py [batched_per_device=100] [single_per_device=20] [workers] [threads]
       [offered records/s=1000]
Env: BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/bench_ingest, created if missing),
     BENCH_OUT (default docs/benchmarks/ingest.md; "-" prints only).
"""
import http.client
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from sqlalchemy import create_engine, text  # noqa: E402

from bench_doc import write_generated  # noqa: E402
from pg_database import create_database_if_missing  # noqa: E402
from server import create_app  # noqa: E402
from server.config import normalize_database_url  # noqa: E402
from server.extensions import db  # noqa: E402

SCHEMA = "bench_ingest"
DEVICES = 50
BATCH = 50  # pwa/js/fiscal/outbox.js BATCH: what the field app sends per request
AUTO_EVERY = 10  # one record in ten is an auto de infração
PG_URL = os.environ.get("BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/bench_ingest")
ANALYZE_EVERY_S = 5
PUSH_TABLES = ("field_record", "record_photo", "auto_case", "auto_number", "field_stat", "field_stat_item",
               "field_stat_day", "field_stat_item_day", "device", "audit_log")


class BenchDevice:
    """The record-building half of tests/fieldsync_device.FakeDevice, without a test client."""

    def __init__(self, device_id, token):
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        from fieldsync_device import FakeDevice, b64url
        self.device_id, self.token = device_id, token
        self.key = Ed25519PrivateKey.generate()
        self.public_key = b64url(self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))
        self.seq, self.last_hash = 0, None
        self.body = FakeDevice.body.__get__(self)
        self.record = FakeDevice.record.__get__(self)
        self.auto = FakeDevice.auto.__get__(self)

    def build(self, count, permits, numbers):
        """`count` records of the field's mix: inspections of real permits, every AUTO_EVERY-th an auto."""
        records, inspection = [], None
        for n in range(count):
            if n % AUTO_EVERY == AUTO_EVERY - 1 and inspection is not None:
                records.append(self.auto(numbers.pop(0), inspection_id=inspection))
            else:
                records.append(self.record(self.body("inspection", permit_number=permits[(self.seq * 7) % len(permits)])))
                inspection = records[-1]["id"]
        return records


def _schema_url():
    base = normalize_database_url(PG_URL)
    return base + ("&" if "?" in base else "?") + f"options=-csearch_path%3D{SCHEMA}"


def prepare(records_per_device):
    base = normalize_database_url(PG_URL)
    create_database_if_missing(base)
    engine = create_engine(base)
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{SCHEMA}" CASCADE'))
        conn.execute(text(f'CREATE SCHEMA "{SCHEMA}"'))
    engine.dispose()
    app = create_app({"SQLALCHEMY_DATABASE_URI": _schema_url(), "SECRET_KEY": "bench",
                      "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000"})
    devices = []
    with app.app_context():
        from flask_migrate import upgrade

        from server.modules.accounts.identity import issue_api_token
        from server.modules.accounts.models import Device, User
        from server.modules.demo.dataset import load_demo
        from server.modules.fieldsync.numbers import reserve_numbers
        from server.modules.registry.models import Permit
        upgrade(directory=str(ROOT / "migrations"))
        load_demo(credentials=False)
        fiscal = User.query.filter_by(username="fiscal.sapezal").one()
        permits = [p.number for p in Permit.query.filter_by(municipality_id=fiscal.municipality_id)]
        for index in range(DEVICES):
            device = Device(municipality_id=fiscal.municipality_id, user_id=fiscal.id, name=f"Bancada {index}")
            db.session.add(device)
            db.session.flush()
            token, _row = issue_api_token(fiscal, device=device)
            bench = BenchDevice(device.id, token)
            device.public_key = bench.public_key
            db.session.commit()
            _block, numbers = reserve_numbers(device, fiscal, records_per_device // AUTO_EVERY + 1)
            bench.records = bench.build(records_per_device, permits, numbers)
            devices.append(bench)
    return devices


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(port, workers, threads):
    """The production configuration (gunicorn.conf.py); workers/threads overridden when given."""
    env = {**os.environ, "DATABASE_URL": _schema_url(), "SECRET_KEY": "bench"}
    args = [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", str(ROOT / "gunicorn.conf.py"),
            "-b", f"127.0.0.1:{port}", "--log-level", "warning", "--access-logfile", "/dev/null"]
    if workers:
        args += ["-w", str(workers)]
    if threads:
        args += ["--threads", str(threads)]
    process = subprocess.Popen(args, cwd=ROOT, env=env, start_new_session=True)
    for _ in range(300):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("gunicorn did not start")


def gunicorn_shape(port):
    """(worker class, workers, threads) as the running server has them, read from its config."""
    out = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-c",
                          "import runpy,json;c=runpy.run_path('gunicorn.conf.py');"
                          "print(json.dumps([c.get('worker_class'),c.get('workers'),c.get('threads')]))"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def encode(devices, batch, offset, count):
    """Every device's request bodies for records[offset:offset+count], as bytes, before the clock starts."""
    return [[json.dumps({"records": d.records[offset + s:offset + min(s + batch, count)]},
                        ensure_ascii=False).encode() for s in range(0, count, batch)] for d in devices]


def run(port, devices, bodies, interval=None):
    """Every device sends its bodies back to back (closed loop: the server's saturation), or one
    every `interval` seconds from a staggered start (open loop: a fixed offered rate, latency
    counted from when the request was due, so a late send counts its wait). A body None is a
    GET /healthz (the same-run reference). Returns (wall s, client CPU s, latencies)."""
    latencies, errors = [], []
    barrier = threading.Barrier(len(devices) + 1)
    start_at = [0.0]

    def device_loop(index, device, requests):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        headers = {"Authorization": f"Bearer {device.token}", "Content-Type": "application/json"}
        barrier.wait()
        for k, payload in enumerate(requests):
            began = time.perf_counter()
            if interval:
                began = start_at[0] + (index / len(devices) + k) * interval
                time.sleep(max(0.0, began - time.perf_counter()))
            if payload is None:
                conn.request("GET", "/healthz")
            else:
                conn.request("POST", "/api/v1/sync/push", body=payload, headers=headers)
            response = conn.getresponse()
            data = response.read()
            latencies.append(time.perf_counter() - began)
            if response.status != 200:
                errors.append((response.status, data[:200]))
                continue
            if payload is None:
                continue
            results = json.loads(data)["results"]
            bad = [r for r in results if r["status"] != "accepted" or r["flags"]]
            if bad or len(results) != payload.count(b'"signature"'):
                errors.append(bad[:2] or results[:2])
        conn.close()

    threads = [threading.Thread(target=device_loop, args=(i, d, b)) for i, (d, b) in enumerate(zip(devices, bodies))]
    for thread in threads:
        thread.start()
    start_at[0] = time.perf_counter() + 0.2
    barrier.wait()
    # Open loop: the wall time runs from the first push's due time to the last answer.
    cpu, began = time.process_time(), (start_at[0] if interval else time.perf_counter())
    for thread in threads:
        thread.join()
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    assert not errors, errors[:3]
    return wall, cpu, latencies


TICK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid):
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def _children(pid):
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(c) for c in (task / "children").read_text().split()]
    return out


def _pg_backends():
    engine = create_engine(normalize_database_url(PG_URL))
    with engine.connect() as conn:
        pids = conn.execute(text("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                                 "AND pid <> pg_backend_pid()")).scalars().all()
    engine.dispose()
    return pids


def server_cpu(gunicorn_pid):
    """CPU seconds used so far by the gunicorn workers and the PostgreSQL backends serving them:
    what the ingest costs the server whatever else the shared machine is running."""
    app_cpu = sum(_cpu_seconds(pid) for pid in _children(gunicorn_pid))
    db_cpu = sum(_cpu_seconds(pid) for pid in _pg_backends())
    return app_cpu, db_cpu


class AutovacuumStandIn:
    """ANALYZE the push's tables every ANALYZE_EVERY_S seconds, when the server's autovacuum is
    off (see the module docstring); does nothing when autovacuum is on."""

    def __init__(self):
        self.engine = create_engine(_schema_url(), isolation_level="AUTOCOMMIT")
        with self.engine.connect() as conn:
            self.active = conn.execute(text("SHOW autovacuum")).scalar_one() == "off"
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self):
        with self.engine.connect() as conn:
            while not self.stop.wait(ANALYZE_EVERY_S):
                conn.execute(text(f"ANALYZE {', '.join(PUSH_TABLES)}"))

    def __enter__(self):
        if self.active:
            self.thread.start()
        return self

    def __exit__(self, *_exc):
        self.stop.set()
        if self.active:
            self.thread.join()
        self.engine.dispose()


def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def machine_speed():
    """µs per Ed25519 verification in this process: ~50–70 µs on an idle modern x86 core. On a
    shared machine it shows how much of a core the run really had."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    key = Ed25519PrivateKey.generate()
    signature, public = key.sign(b"x" * 600), key.public_key()
    began = time.perf_counter()
    for _ in range(500):
        public.verify(signature, b"x" * 600)
    return (time.perf_counter() - began) / 500 * 1e6


HEALTHZ_PER_DEVICE = 100


def reference(port, server_pid, devices):
    """The trivial request, measured in the same run: GET /healthz (one SELECT 1), 50 devices
    back to back. → (requests/s, app + DB CPU ms per request). The push's figures divided by
    these stand when a shared vCPU slows everything down alike."""
    before = server_cpu(server_pid)
    wall, _client, _latencies = run(port, devices, [[None] * HEALTHZ_PER_DEVICE for _ in devices])
    after = server_cpu(server_pid)
    sent = len(devices) * HEALTHZ_PER_DEVICE
    return sent / wall, sum(after[i] - before[i] for i in (0, 1)) * 1000 / sent


def measure(per_batched=100, per_single=20, workers=0, threads=0, offered=1000):
    load_before, speed_before = os.getloadavg(), machine_speed()
    per_open = 2 * per_batched  # per device and offered rate: 10 s of pushes at 1,000 records/s
    rates = (offered, offered * 6 // 5)  # the target, and 20 % above it
    devices = prepare(per_batched + per_single + per_open * len(rates))
    port = free_port()
    server = start_gunicorn(port, workers, threads)
    shape = gunicorn_shape(port)
    shape = [shape[0], workers or shape[1], threads or shape[2]]
    rows, references = [], []
    try:
        run(port, devices, [[None] * 10 for _ in devices])  # warm-up: every worker and connection up
        references.append(reference(port, server.pid, devices))
        with AutovacuumStandIn() as standin:
            shapes = [(f"batches of {BATCH}, back to back (saturation)", BATCH, 0, per_batched, None)]
            for k, rate in enumerate(rates):  # every device pushes once per `interval` seconds
                shapes.append((f"batches of {BATCH} at an offered {rate:,} records/s", BATCH,
                               per_batched + k * per_open, per_open, DEVICES * BATCH / rate))
            shapes.append(("1 record per request, back to back (reference)", 1,
                           per_batched + len(rates) * per_open, per_single, None))
            for label, batch, offset, count, every in shapes:
                bodies = encode(devices, batch, offset, count)
                before = server_cpu(server.pid)
                wall, client_cpu, latencies = run(port, devices, bodies, every)
                after = server_cpu(server.pid)
                sent = len(devices) * count
                app_ms, db_ms = ((after[i] - before[i]) * 1000 / sent for i in (0, 1))
                rows.append((label, sent, len(latencies), wall, sent / wall, pct(latencies, 50), pct(latencies, 95),
                             max(latencies), app_ms, db_ms, client_cpu * 1000 / sent))
        references.append(reference(port, server.pid, devices))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    app = create_app({"SQLALCHEMY_DATABASE_URI": _schema_url(), "SECRET_KEY": "bench"})
    with app.app_context():
        stored = db.session.execute(text("SELECT count(*) FROM field_record")).scalar_one()
        distinct = db.session.execute(text("SELECT count(DISTINCT id) FROM field_record")).scalar_one()
        flagged = db.session.execute(text("SELECT count(*) FROM field_record WHERE CAST(flags AS text) <> '[]'")).scalar_one()
        autos = db.session.execute(text("SELECT count(*) FROM auto_case")).scalar_one()
        db.session.remove()
        db.engine.dispose()
    expected = DEVICES * (per_batched + per_single + per_open * len(rates))
    assert stored == distinct == expected and flagged == 0, (stored, distinct, expected, flagged)
    engine = create_engine(normalize_database_url(PG_URL))
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{SCHEMA}" CASCADE'))
    engine.dispose()
    return {"rows": rows, "references": references, "stored": stored, "autos": autos, "shape": shape, "analyzed": standin.active,
            "load_before": load_before,
            "load_after": os.getloadavg(), "speed": (speed_before, machine_speed())}


def report(result):
    rows, (w_class, workers, threads) = result["rows"], result["shape"]
    loads = lambda values: ", ".join(f"{x:.1f}" for x in values)  # noqa: E731
    return [
        "## Latest run", "",
        f"Run {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.machine()}, {os.cpu_count()} CPUs "
        f"shared with other sessions (load average {loads(result['load_before'])} before, "
        f"{loads(result['load_after'])} after); PostgreSQL at 127.0.0.1; gunicorn `gunicorn.conf.py`: "
        f"{workers} workers × {threads} threads ({w_class}); {DEVICES} simulated devices, one thread and "
        f"one keep-alive connection each, on the same machine. Every answer was `accepted` without flags; "
        f"the table holds exactly {result['stored']:,} distinct records afterwards and {result['autos']:,} "
        f"AutoCases were opened."
        + (f" This PostgreSQL runs with autovacuum off: the bench ran ANALYZE of the push's tables every "
           f"{ANALYZE_EVERY_S} s in its place." if result["analyzed"] else " Autovacuum was on."), "",
        f"Machine speed indicator: one Ed25519 verification took {result['speed'][0]:.0f} µs before the run and "
        f"{result['speed'][1]:.0f} µs after it (≈ 50–70 µs on an idle modern core).", "",
        "| Shape | Records | Requests | Wall time | Records/s | p50 | p95 | max |", "|---|---|---|---|---|---|---|---|",
        *[f"| {label} | {sent:,} | {requests:,} | {wall:.1f} s | **{rate:,.0f}** | {p50 * 1000:.0f} ms | "
          f"**{p95 * 1000:.0f} ms** | {mx * 1000:.0f} ms |"
          for label, sent, requests, wall, rate, p50, p95, mx, *_x in rows],
        "",
        "CPU per record: gunicorn workers and the PostgreSQL backends serving them (from /proc), and the "
        "benchmark client itself, which runs on the same two cores. The ceiling is what the server's "
        "cost allows on 2 cores given to the server alone (CPU-bound, before any queueing).", "",
        "| Shape | App CPU / record | DB CPU / record | Client CPU / record | Server ceiling on 2 cores |",
        "|---|---|---|---|---|",
        *[f"| {label} | {a:.2f} ms | {d:.2f} ms | {c:.2f} ms | {2000 / (a + d):,.0f} records/s |"
          for label, *_x, a, d, c in rows],
        "",
        *reference_lines(rows, result["references"]),
    ]


def reference_lines(rows, references):
    """The same-run reference: /healthz before and after the pushes, and each shape's app + DB
    CPU per record as a multiple of one /healthz request's (the figure that stands under noise)."""
    healthz_ms = sum(ms for _rate, ms in references) / len(references)
    return [
        "Same-run reference: `GET /healthz` (one `SELECT 1`), 50 devices back to back, "
        f"{HEALTHZ_PER_DEVICE * DEVICES:,} requests before the pushes and again after them: "
        + " and ".join(f"{rate:,.0f} requests/s at {ms:.3f} ms app + DB CPU per request" for rate, ms in references)
        + f" (mean {healthz_ms:.3f} ms).", "",
        "| Shape | App + DB CPU / record | ÷ one /healthz request |", "|---|---|---|",
        *[f"| {label} | {a + d:.2f} ms | **{(a + d) / healthz_ms:.2f}** |" for label, *_x, a, d, _c in rows],
        "",
    ]


def main(per_batched=100, per_single=20, workers=0, threads=0, offered=1000):
    result = measure(per_batched, per_single, workers, threads, offered)
    lines = report(result)
    print("\n".join(lines))
    out = os.environ.get("BENCH_OUT", str(ROOT / "docs" / "benchmarks" / "ingest.md"))
    if out != "-":
        write_generated(out, lines)  # the file keeps its hand-written reading


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:6]))
