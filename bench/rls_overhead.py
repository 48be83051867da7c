"""Benchmark: what row-level security (issue 20, migration 0025_tenancy_rls) costs the app on
PostgreSQL. The same work through two apps over one database: one connected as the superuser
(policies skipped: the cost of the app without the wall) and one as `motofiscal_app` (bound by
the policies: the per-transaction `set_config` and every policy's condition). In-process (Flask
test client, no gunicorn), interleaved round by round so both see the same machine load.

Work per round and app: a sync push of 20 signed inspections (the field app's batch) by a phone
of that app, and the back-office review queue page (a list over field_record, auto_case and
conflicts) for Sapezal's back office. Records are built and signed before the clock starts.
Measured: median and p90 wall time of each, and the ratio app role / superuser.

Usage: .venv/bin/python bench/rls_overhead.py [rounds=40]
Env: BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/bench_rls, dropped and recreated),
     BENCH_OUT (default docs/benchmarks/rls.md; "-" prints only).
"""
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

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from fieldsync_device import FakeDevice  # noqa: E402
from helpers import login  # noqa: E402
from server import create_app  # noqa: E402
from server.core import rls_sql  # noqa: E402

ROLE, PASSWORD = "motofiscal_app", "motofiscal-app-test"


def _database(url):
    base = make_url(url)
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{base.database}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{base.database}"'))
    admin.dispose()


def _app(url, instance):
    return create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "INSTANCE_DIR": instance,
                       "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000", "RATELIMIT_ENABLED": False})


def main(rounds=40):
    url = os.environ.get("BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/bench_rls")
    url = url.replace("postgresql://", "postgresql+psycopg://", 1)
    _database(url)
    instance = tempfile.mkdtemp()
    owner = _app(url, instance)
    with owner.app_context():
        from flask_migrate import upgrade
        from server.extensions import db
        from server.modules.demo.dataset import load_demo
        upgrade(directory=str(ROOT / "migrations"))
        load_demo(credentials=False)
        for statement in [rls_sql.create_role(ROLE, PASSWORD), *rls_sql.grants(ROLE)]:
            db.session.execute(text(statement))
        db.session.commit()
    app_role = _app(make_url(url).set(username=ROLE, password=PASSWORD).render_as_string(hide_password=False),
                    instance)
    apps = {"superuser": owner, "motofiscal_app": app_role}
    phones, clerks, batches = {}, {}, {}
    for name, app in apps.items():
        phones[name] = FakeDevice(app.test_client(), "fiscal.sapezal", name=f"bench {name}")
        clerks[name] = app.test_client()
        login(clerks[name], "backoffice.sapezal")
        batches[name] = [[phones[name].inspection() for _ in range(20)] for _ in range(rounds + 2)]
    times = {(name, work): [] for name in apps for work in ("push", "queue")}
    load_before = os.getloadavg()
    for index in range(rounds + 2):
        for name in (list(apps) if index % 2 else list(apps)[::-1]):  # neither always goes first
            start = time.perf_counter()
            response = phones[name].push(batches[name][index])
            elapsed = time.perf_counter() - start
            assert response.status_code == 200 and {r["status"] for r in response.json["results"]} == {"accepted"}
            start = time.perf_counter()
            page = clerks[name].get("/bo/revisao/")
            queue_elapsed = time.perf_counter() - start
            assert page.status_code == 200
            if index >= 2:  # the first rounds warm caches and prepared statements
                times[(name, "push")].append(elapsed)
                times[(name, "queue")].append(queue_elapsed)
    load_after = os.getloadavg()
    lines = ["# Row-level security overhead (issue 20)", "",
             f"Run {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.node()} ({os.cpu_count()} cores), "
             f"`bench/rls_overhead.py {rounds}`; load average (1/5/15 min) before "
             f"{'/'.join(f'{x:.1f}' for x in load_before)}, after {'/'.join(f'{x:.1f}' for x in load_after)}.",
             "In-process (Flask test client) on PostgreSQL, interleaved round by round; each push is 20 signed "
             "inspections, the queue is `/bo/revisao/` of Sapezal's back office as the table grows.", "",
             "| work | superuser (no policies) median / p90 ms | motofiscal_app (policies) median / p90 ms | ratio of medians |",
             "|---|---|---|---|"]
    for work in ("push", "queue"):
        su, ar = times[("superuser", work)], times[("motofiscal_app", work)]
        p90 = lambda xs: sorted(xs)[int(0.9 * (len(xs) - 1))]  # noqa: E731
        lines.append(f"| {work} | {statistics.median(su) * 1000:.1f} / {p90(su) * 1000:.1f} | "
                     f"{statistics.median(ar) * 1000:.1f} / {p90(ar) * 1000:.1f} | "
                     f"{statistics.median(ar) / statistics.median(su):.2f} |")
    report = "\n".join(lines) + "\n"
    print(report)
    out = os.environ.get("BENCH_OUT", str(ROOT / "docs/benchmarks/rls.md"))
    if out != "-":
        Path(out).write_text(report)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
