"""Benchmark: the registry import as the back office runs it behind a balancer (issue 36, item 4):
10,000 rows uploaded (the request stores the file and queues a job), checked by a job, then
imported by a job (`flask jobs worker`'s code, in this process), on PostgreSQL.

Target: checked + imported ≤ 60 s; the upload request a few seconds at most. Same-run references:
a fixed CPU loop (`reference_seconds`, as bench/registry_import.py) and the median of 20
`GET /healthz`, with the load average before and after.

Memory (each in a child process, `--rss <case>`: a fresh worker, its peak RSS read from
getrusage after the job): an inflating XLSX (~30 MB of shared strings in ~40 KB, the issue's
"386 KB grows a worker by 385 MB") and a 10 MB CSV (20,000 rows of ~500 bytes, the row cap,
checked in full). Stated bound: a worker's peak RSS ≤ 400 MB for any accepted upload.

Usage: .venv/bin/python bench/import_registry.py [rows=10000]
Env: BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/bench_import_registry, created if
missing; its public schema is dropped and re-created).
"""
import io
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from sqlalchemy import create_engine, text  # noqa: E402

from bench_doc import write_generated  # noqa: E402
from pg_database import create_database_if_missing  # noqa: E402
from registry_import import reference_seconds  # noqa: E402
from registry_import_data import values_for, write_csv  # noqa: E402
from server import create_app  # noqa: E402
from server.config import normalize_database_url  # noqa: E402

URL = normalize_database_url(os.environ.get("BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/bench_import_registry"))
PASSWORD = "senha-forte-bench"
BOUND_MB = 400


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_app(instance, migrate=False):
    app = create_app({"SQLALCHEMY_DATABASE_URI": URL, "SECRET_KEY": "bench", "INSTANCE_DIR": str(instance),
                      "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000", "IMPORT_JOBS": "worker",
                      "WTF_CSRF_ENABLED": True, "RATELIMIT_ENABLED": False})
    if migrate:
        with app.app_context():
            from flask_migrate import upgrade
            upgrade(directory=str(ROOT / "migrations"))
    return app


def fresh_database():
    create_database_if_missing(URL)
    engine = create_engine(URL)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def healthz_median(client):
    times = []
    for _ in range(20):
        start = time.perf_counter()
        assert client.get("/healthz").status_code in (200, 503)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bomb_xlsx(template):
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(template)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bomb:
        for item in source.infolist():
            if item.filename != "xl/sharedStrings.xml":
                bomb.writestr(item, source.read(item))
        bomb.writestr("xl/sharedStrings.xml", '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                      + "<si><t>" + "A" * (30 * 1024 * 1024) + "</t></si></sst>")
    return out.getvalue()


def rss_case(case, instance):
    """Child process: one worker, one job; prints JSON with its peak RSS and outcome."""
    from server.extensions import db
    from server.modules.registry.models import Municipality
    from server.modules.registry_import import jobs
    from server.modules.registry_import.columns import columns_for
    from server.modules.registry_import.models import ImportJob
    from server.modules.registry_import.template import template_xlsx
    from server.core.clock import local_today
    from server.core.tenancy import crossing_municipalities

    app = make_app(instance)
    with app.app_context(), crossing_municipalities("bench"):
        muni = Municipality.query.filter_by(slug="sapezal").one()
        if case == "xlsx-bomb":
            body, kind = bomb_xlsx(template_xlsx(muni)), "xlsx"
        else:
            today, columns = local_today(), columns_for(muni)
            Path(instance).mkdir(parents=True, exist_ok=True)
            path = Path(instance) / "big.csv"
            rows = []
            for i in range(20_000):
                row = values_for(500_000 + i, today)
                # Long but valid cells (address ≤ 240, name ≤ 160): ~500 bytes a row, 20,000 rows (the cap).
                row["operator.address"] = (f"Rua {i}, " + "casa dos fundos, próximo ao ponto de moto-táxi " * 6)[:238]
                row["operator.name"] = f"Pessoa Importada {i} " + "de Souza Albuquerque Cavalcanti" * 2
                rows.append(row)
            write_csv(path, columns, rows)
            body, kind = path.read_bytes(), "csv"
        mid = muni.id
        db.session.remove()
    base = peak_rss_mb()
    with app.app_context(), crossing_municipalities("bench"):
        job = jobs.enqueue(mid, None, "check", f"{case}.{kind}", kind, body, {})
        job_id = job.id
        start = time.perf_counter()
        jobs.work(once=True)
        seconds = time.perf_counter() - start
        done = db.session.get(ImportJob, job_id)
        print(json.dumps({"case": case, "bytes": len(body), "state": done.state, "message": done.message,
                          "rows": done.rows_done, "seconds": seconds, "rss_before_mb": base,
                          "peak_rss_mb": peak_rss_mb()}))


def main(rows):
    from helpers import csrf_token, login
    from server.extensions import db
    from server.modules.onboarding.operations import create_municipality
    from server.modules.registry.models import Permit
    from server.modules.registry_import import jobs
    from server.modules.registry_import.columns import columns_for
    from server.modules.registry_import.models import ImportJob
    from server.core.clock import local_today
    from server.core.tenancy import crossing_municipalities

    fresh_database()
    load_before, ref_before = os.getloadavg(), reference_seconds()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        app = make_app(tmp / "instance", migrate=True)
        with app.app_context(), crossing_municipalities("bench set-up"):
            muni = create_municipality("5107875", "Sapezal", "MT", "sapezal-lei-125-1999", "America/Cuiaba",
                                       "http://localhost:5000")
            from server.modules.accounts.models import User
            user = User(username="adm.bench", name="Adm", role="admin", municipality_id=muni.id)
            user.set_password(PASSWORD)
            db.session.add(user)
            db.session.commit()
            path = tmp / "cadastro.csv"
            write_csv(path, columns_for(muni), (values_for(i, local_today()) for i in range(rows)))
        csv_kb = path.stat().st_size // 1024
        client = app.test_client()
        login(client, "adm.bench", PASSWORD)
        healthz_before = healthz_median(client)
        token = csrf_token(client, "/bo/importacao/")
        start = time.perf_counter()
        upload = client.post("/bo/importacao/", data={"csrf_token": token,
                                                      "file": (io.BytesIO(path.read_bytes()), "cadastro.csv")})
        upload_s = time.perf_counter() - start
        assert upload.status_code == 303, upload.status_code
        check_id = upload.headers["Location"].rsplit("/", 1)[1]
        with app.app_context():
            start = time.perf_counter()
            assert jobs.work(once=True) == 1
            check_s = time.perf_counter() - start
        start = time.perf_counter()
        page = client.get(f"/bo/importacao/{check_id}")
        report_s = time.perf_counter() - start
        assert "0 com erros" in page.get_data(as_text=True)
        start = time.perf_counter()
        commit = client.post(f"/bo/importacao/{check_id}/gravar", data={"csrf_token": token})
        commit_request_s = time.perf_counter() - start
        commit_id = commit.headers["Location"].rsplit("/", 1)[1]
        with app.app_context():
            start = time.perf_counter()
            assert jobs.work(once=True) == 1
            import_s = time.perf_counter() - start
            with crossing_municipalities("bench"):
                assert db.session.get(ImportJob, commit_id).result["committed"]
                assert Permit.query.count() == rows
        healthz_after = healthz_median(client)
        main_rss = peak_rss_mb()
        print(f"check {check_s:.1f} s, import {import_s:.1f} s, upload request {upload_s:.2f} s, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
        cases = []
        for case in ("xlsx-bomb", "csv-10mb"):
            out = subprocess.run([sys.executable, __file__, "--rss", case, str(tmp / "instance")],
                                 capture_output=True, text=True)
            if out.returncode:
                print(out.stderr[-3000:], flush=True)
                out.check_returncode()
            cases.append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(cases[-1], flush=True)
    ref_after, load_after = reference_seconds(), os.getloadavg()
    ref = (ref_before + ref_after) / 2
    total = check_s + import_s
    lines = [
        f"Run {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC by `bench/import_registry.py {rows}` on "
        f"{platform.machine()}, {os.cpu_count()} CPUs (shared), Python {platform.python_version()}, PostgreSQL.",
        f"Load average (1/5/15 min) before {load_before[0]:.2f}/{load_before[1]:.2f}/{load_before[2]:.2f}, after "
        f"{load_after[0]:.2f}/{load_after[1]:.2f}/{load_after[2]:.2f}. Same-run references: CPU loop "
        f"(`reference_seconds`, 400,000 SHA-256 + dict inserts) {ref_before:.2f} s before, {ref_after:.2f} s after "
        f"(ratios to their mean, {ref:.2f} s); `GET /healthz` median of 20 {healthz_before * 1000:.1f} ms before, "
        f"{healthz_after * 1000:.1f} ms after.", "",
        "The back office's path: the upload request stores the file in the database and queues a check "
        "job; the worker (`flask jobs worker`'s loop, in this process) checks every row; the report page "
        "reads the stored result; \"Importar\" queues the import job, which checks again and writes in one "
        "transaction, then ANALYZE.", "",
        "| Step | Seconds | / CPU ref. | Target |", "|---|---|---|---|",
        f"| Upload request ({csv_kb} KB CSV) | {upload_s:.2f} | {upload_s / ref:.1f}× | a few seconds |",
        f"| Check job ({rows:,} rows) | {check_s:.1f} | {check_s / ref:.1f}× | |",
        f"| Report page (stored result) | {report_s:.2f} | {report_s / ref:.1f}× | a few seconds |",
        f"| \"Importar\" request | {commit_request_s:.2f} | {commit_request_s / ref:.1f}× | a few seconds |",
        f"| Import job ({rows:,} rows) | {import_s:.1f} | {import_s / ref:.1f}× | |",
        f"| **Checked + imported** | **{total:.1f}** | {total / ref:.1f}× | ≤ 60 s: "
        f"{'met' if total <= 60 else 'NOT met'} |", "",
        f"Peak RSS of this process after the 10,000-row jobs: {main_rss:.0f} MB.", "",
        f"Worker memory (a fresh process per case, one job; stated bound {BOUND_MB} MB):", "",
        "| Case | File | Outcome | Seconds | RSS before job | Peak RSS | Within bound |", "|---|---|---|---|---|---|---|",
    ]
    for c in cases:
        outcome = c["state"] + (f" — “{c['message'][:90]}…”" if c["message"] else f", {c['rows']:,} rows checked")
        lines.append(f"| {c['case']} | {c['bytes'] / 1024:.0f} KB | {outcome} | {c['seconds']:.1f} | "
                     f"{c['rss_before_mb']:.0f} MB | {c['peak_rss_mb']:.0f} MB | "
                     f"{'yes' if c['peak_rss_mb'] <= BOUND_MB else 'NO'} |")
    lines.append("")
    out = ROOT / "docs" / "benchmarks" / "import.md"
    if not out.exists():
        out.write_text("# Registry import behind a balancer (jobs)\n\n", encoding="utf-8")
    write_generated(out, lines)
    print(f"written {out}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--rss":
        rss_case(sys.argv[2], sys.argv[3])
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
