"""Benchmark: ingest of signed field records on PostgreSQL behind gunicorn, 50 concurrent
simulated devices (issue 9 target: ≥ 1,000 records/s, p95 < 300 ms).

Set-up (not timed): a private schema in PostgreSQL migrated by the real Alembic migrations, the
demo municipalities, 50 enrolled devices of Sapezal's fiscal (tokens and Ed25519 keys recorded
as the API would), and every record built and signed in advance (signing is the phone's work).
Then gunicorn serves `server:create_app()` and 50 client threads, one per device, each with its
own keep-alive connection, push their records back to back. Every answer is checked (all
`accepted`, no flags), and the server's row count must equal what was sent.
Measured: records/s over the wall time of the run, and the latency of each push request
(p50/p95/max). Two shapes: one record per request (how the outbox replays) and batches of 20.
Results: docs/benchmarks/ingest.md. Time-bounded: each shape sends a fixed number of records.

Usage: .venv/bin/python bench/ingest.py [records_per_device=60] [workers=4] [threads=4]
Env: BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/test_sync).
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

from server import create_app  # noqa: E402
from server.config import normalize_database_url  # noqa: E402
from server.extensions import db  # noqa: E402

SCHEMA = "bench_ingest"
DEVICES = 50
PG_URL = os.environ.get("BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test_sync")


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


def _schema_url():
    base = normalize_database_url(PG_URL)
    return base + ("&" if "?" in base else "?") + f"options=-csearch_path%3D{SCHEMA}"


def prepare(records_per_device):
    base = normalize_database_url(PG_URL)
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

        from server.core.auth import issue_api_token
        from server.modules.accounts.models import Device, User
        from server.modules.registry.demo import load_demo
        upgrade(directory=str(ROOT / "migrations"))
        load_demo(credentials=False)
        fiscal = User.query.filter_by(username="fiscal.sapezal").one()
        for index in range(DEVICES):
            device = Device(municipality_id=fiscal.municipality_id, user_id=fiscal.id, name=f"Bancada {index}")
            db.session.add(device)
            db.session.flush()
            token, _row = issue_api_token(fiscal, device=device)
            bench = BenchDevice(device.id, token)
            device.public_key = bench.public_key
            devices.append(bench)
        db.session.commit()
    for bench in devices:
        bench.records = [bench.record(bench.body("inspection")) for _ in range(records_per_device)]
    return devices


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(port, workers, threads):
    env = {**os.environ, "DATABASE_URL": _schema_url(), "SECRET_KEY": "bench"}
    process = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "-w", str(workers), "-k", "gthread", "--threads", str(threads),
         "-b", f"127.0.0.1:{port}", "--log-level", "warning", "server:create_app()"],
        cwd=ROOT, env=env, start_new_session=True)
    for _ in range(200):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("gunicorn did not start")


def run(port, devices, batch, offset, count):
    """Every device pushes records[offset:offset+count] in batches; returns (wall s, latencies)."""
    latencies, errors = [], []
    barrier = threading.Barrier(len(devices) + 1)

    def device_loop(device):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        records = device.records[offset:offset + count]
        headers = {"Authorization": f"Bearer {device.token}", "Content-Type": "application/json"}
        barrier.wait()
        for start in range(0, len(records), batch):
            chunk = records[start:start + batch]
            payload = json.dumps({"records": chunk})
            began = time.perf_counter()
            conn.request("POST", "/api/v1/sync/push", body=payload, headers=headers)
            response = conn.getresponse()
            data = response.read()
            latencies.append(time.perf_counter() - began)
            if response.status != 200:
                errors.append((response.status, data[:200]))
                continue
            results = json.loads(data)["results"]
            bad = [r for r in results if r["status"] != "accepted" or r["flags"]]
            if bad:
                errors.append(bad[:2])
        conn.close()

    threads = [threading.Thread(target=device_loop, args=(d,)) for d in devices]
    for thread in threads:
        thread.start()
    barrier.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    assert not errors, errors[:3]
    return wall, latencies


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


def main(per_device=60, workers=4, threads=4):
    speed_before = machine_speed()
    devices = prepare(per_device)
    port = free_port()
    server = start_gunicorn(port, workers, threads)
    rows = []
    try:
        half = per_device // 2
        for label, batch, offset, count in (("1 record per request (outbox replay)", 1, 0, half),
                                            ("batches of 20 records", 20, half, per_device - half)):
            before = server_cpu(server.pid)
            wall, latencies = run(port, devices, batch, offset, count)
            after = server_cpu(server.pid)
            sent = len(devices) * count
            app_ms, db_ms = ((after[i] - before[i]) * 1000 / sent for i in (0, 1))
            rows.append((label, sent, len(latencies), wall, sent / wall, pct(latencies, 50), pct(latencies, 95),
                         max(latencies), app_ms, db_ms))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    app = create_app({"SQLALCHEMY_DATABASE_URI": _schema_url(), "SECRET_KEY": "bench"})
    with app.app_context():
        stored = db.session.execute(text("SELECT count(*) FROM field_record")).scalar_one()
        db.session.remove()
        db.engine.dispose()
    assert stored == DEVICES * per_device, (stored, DEVICES * per_device)
    engine = create_engine(normalize_database_url(PG_URL))
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{SCHEMA}" CASCADE'))
    engine.dispose()

    lines = [
        "# Ingest benchmark (`bench/ingest.py`)", "",
        f"Run {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.machine()}, {os.cpu_count()} CPUs "
        f"shared with other sessions (load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}); "
        f"PostgreSQL at 127.0.0.1; gunicorn {workers} workers × {threads} threads (gthread); "
        f"{DEVICES} simulated devices, one thread and one keep-alive connection each, on the same machine. "
        f"Records are inspections of ~600 bytes, signed in advance (Ed25519), each verified by the server "
        f"(signature, chain, clock) and stored by one INSERT … ON CONFLICT per push with one audit row per push. Every answer was "
        f"`accepted` without flags and the table holds exactly {stored:,} rows afterwards.", "",
        f"Machine speed indicator: one Ed25519 verification took {speed_before:.0f} µs before the run and "
        f"{machine_speed():.0f} µs after it (≈ 50–70 µs on an idle modern core): the CPU this run had was "
        f"a fraction of two cores, so every figure below is pessimistic. Re-run on an idle machine "
        f"(`.venv/bin/python bench/ingest.py`) for numbers to plan with.", "",
        "Targets: ≥ 1,000 records/s and p95 < 300 ms.", "",
        "| Shape | Records | Requests | Wall time | Records/s | p50 | p95 | max |", "|---|---|---|---|---|---|---|---|",
        *[f"| {label} | {sent:,} | {requests:,} | {wall:.1f} s | **{rate:,.0f}** | {p50 * 1000:.0f} ms | "
          f"**{p95 * 1000:.0f} ms** | {mx * 1000:.0f} ms |"
          for label, sent, requests, wall, rate, p50, p95, mx, _a, _d in rows],
        "",
        "Server CPU per record (gunicorn workers + the PostgreSQL backends serving them, from /proc): what "
        "a dedicated machine would spend, independent of the other load on this one. The last column is "
        "the ceiling that cost implies on 2 dedicated cores (CPU-bound, before any queueing). CPU time on this VM is inflated by the same slowdown the verification indicator shows (time the vCPU waits is partly booked to the process), so the ceilings are lower bounds.", "",
        "| Shape | App CPU / record | DB CPU / record | Ceiling on 2 cores |", "|---|---|---|---|",
        *[f"| {label} | {a:.1f} ms | {d:.1f} ms | {2000 / (a + d):,.0f} records/s |"
          for label, *_x, a, d in rows],
        "",
        "Reading: with one record per request the fixed cost of a request (routing, token and user "
        "lookup, schema, transaction) dominates; in batches the per-record cost is several times lower. "
        "The outbox should send its pending records in batches (the API takes up to 100). Neither shape "
        "meets the targets on this shared machine; the targets are not demonstrated.",
        "",
    ]
    out = ROOT / "docs" / "benchmarks" / "ingest.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
