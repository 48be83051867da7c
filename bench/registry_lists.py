"""Benchmark: back-office registry lists with 100,000 permits, on SQLite and on PostgreSQL.

Builds one municipality with N permits (each with its own holder and vehicle) in a temporary
SQLite file and in PostgreSQL (database `test`, private schema `bench_registry`, dropped at the
end), migrated by the real Alembic migrations. Then a logged-in back-office user requests the
list pages through the Flask test client (routing, auth, scoping, query, template: the whole
request) and the median and p95 of R runs are written to docs/benchmarks/registry.md, with the
query plan of the slowest request.

Usage: .venv/bin/python bench/registry_lists.py [permits=100000] [runs=15]
Env: BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/test), BENCH_SKIP_PG=1.
"""
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from sqlalchemy import create_engine, insert, text  # noqa: E402

from server import create_app  # noqa: E402
from server.config import normalize_database_url  # noqa: E402
from server.core.validation import cpf_check_digits  # noqa: E402
from server.extensions import db  # noqa: E402

PG_SCHEMA = "bench_registry"
# Indexes the back office would like on PostgreSQL (not in the migrations yet: the lead owns them).
# Timed as a third column so the gain is measured, not guessed.
PG_RECOMMENDED_INDEXES = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX ix_operator_name_trgm ON operator USING gin (name_search gin_trgm_ops)",
    "CREATE INDEX ix_vehicle_plate_pattern ON vehicle (municipality_id, plate varchar_pattern_ops)",
    "CREATE INDEX ix_permit_number_pattern ON permit (municipality_id, number varchar_pattern_ops)",
    "CREATE INDEX ix_operator_cpf_pattern ON operator (municipality_id, cpf varchar_pattern_ops)",
]
PASSWORD = "bench-motofiscal"
FIRST = ["João", "Maria", "José", "Ana", "Antônio", "Francisca", "Carlos", "Juliana", "Paulo", "Adriana",
         "Lucas", "Márcia", "Luiz", "Aline", "Pedro", "Sandra", "Marcos", "Patrícia", "Rafael", "Cláudia"]
LAST = ["Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes",
        "Ribeiro", "Carvalho", "Almeida", "Lopes", "Barbosa", "Cardoso", "Moraes", "Campos", "Arruda", "Macedo"]
STATUSES = ["ativo"] * 16 + ["vencido", "suspenso", "cassado", "extinto"]


def cpf_for(n):
    return cpf_check_digits(f"{n:09d}")


def plate_for(n):
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return f"{letters[n // 260000 % 26]}{letters[n // 10000 % 26]}{letters[n // 1000 % 26]}{n % 10000:04d}"


def populate(app, count):
    """One municipality with `count` permits, holders and vehicles; a back-office user."""
    from server.modules.accounts.models import User
    from server.modules.issuance.models import InsurancePolicy, Vistoria
    from server.modules.registry.models import Municipality, Operator, Permit, Ponto, Vehicle

    rng = random.Random(100_000)
    today, now = date.today(), datetime.now(timezone.utc)
    with app.app_context():
        muni = Municipality(slug="bench", ibge_code="9999999", name="Bancada", uf="MT",
                            regimes=[], settings={"holder": "person"})
        db.session.add(muni)
        db.session.flush()
        user = User(username="backoffice.bench", name="Bancada", role="backoffice", municipality_id=muni.id)
        user.set_password(PASSWORD)
        db.session.add(user)
        pontos = [Ponto(municipality_id=muni.id, name=f"Ponto {i}", capacity=count) for i in range(20)]
        db.session.add_all(pontos)
        db.session.flush()
        mid, ponto_ids = muni.id, [p.id for p in pontos]
        db.session.commit()
        chunk = 10_000
        for start in range(0, count, chunk):
            ids = range(start + 1, min(count, start + chunk) + 1)
            db.session.execute(insert(Operator), [{
                "id": i, "municipality_id": mid, "cpf": cpf_for(i), "cnh_number": f"{i:011d}",
                "name": f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)}",
                "cnh_category": "A", "cnh_first_issue_date": date(2000, 1, 1), "cnh_expiry": date(2030, 1, 1),
                "birth_date": date(1980, 1, 1), "created_at": now, "updated_at": now} for i in ids])
            db.session.execute(insert(Vehicle), [{
                "id": i, "municipality_id": mid, "plate": plate_for(i), "renavam": f"{i:011d}",
                "chassis": f"9C2BENCH{i:09d}", "make": "Honda", "model": "CG 160", "year_manufacture": 2020,
                "engine_cc": 160, "plate_category": "aluguel", "plate_colour": "vermelha",
                "created_at": now, "updated_at": now} for i in ids])
            db.session.execute(insert(Permit), [{
                "id": i, "municipality_id": mid, "number": f"{i:06d}/2026", "kind": "alvara",
                "holder_operator_id": i, "vehicle_id": i, "ponto_id": rng.choice(ponto_ids),
                "issued_on": today, "valid_from": today, "valid_until": today + timedelta(days=rng.randint(-60, 700)),
                "status": rng.choice(STATUSES), "status_changed_at": now, "issqn_status": "em_dia",
                "created_at": now, "updated_at": now} for i in ids])
            # Insurance and vistorias are records of their own (issue 11): one of each per vehicle.
            ends = {i: today + timedelta(days=rng.randint(-100, 365)) for i in ids}
            db.session.execute(insert(InsurancePolicy), [{
                "municipality_id": mid, "vehicle_id": i, "kind": "outro", "insurer": "Bench", "policy_number": f"B{i}",
                "starts_on": ends[i] - timedelta(days=365), "ends_on": ends[i], "copy_filed": True,
                "created_at": now} for i in ids])
            db.session.execute(insert(Vistoria), [{
                "municipality_id": mid, "vehicle_id": i, "kind": "periodica", "result": "aprovada", "items": {},
                "inspected_on": today - timedelta(days=rng.randint(0, 500)), "inspector_name": "Bench",
                "photo_hashes": [], "created_at": now} for i in ids])
            db.session.commit()
        if db.engine.dialect.name == "postgresql":
            for table in ("operator", "vehicle", "permit", "ponto"):
                db.session.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                        f"(SELECT max(id) FROM {table}))"))
            db.session.execute(text("ANALYZE"))
        else:
            db.session.execute(text("ANALYZE"))
        db.session.commit()
        sample = db.session.get(Permit, count // 2 + 7)
        return {"plate": sample.vehicle.plate, "name": sample.holder_operator.name,
                "surname": sample.holder_operator.name.split()[-1], "cpf": sample.holder_operator.cpf,
                "number": sample.number}


def requests_to_time(sample, count):
    pages = (count + 24) // 25
    return [
        ("Permissões, página 1", "/bo/permissoes/"),
        ("Permissões, página do meio", f"/bo/permissoes/?page={pages // 2}"),
        ("Permissões, última página", f"/bo/permissoes/?page={pages}"),
        ("Permissões, ordem por validade, p. 1", "/bo/permissoes/?ordem=validade"),
        ("Busca por número", f"/bo/permissoes/?q={sample['number']}"),
        ("Busca por placa", f"/bo/permissoes/?q={sample['plate']}"),
        ("Busca por CPF (11 dígitos)", f"/bo/permissoes/?q={sample['cpf']}"),
        ("Busca por nome completo", f"/bo/permissoes/?q={sample['name']}"),
        ("Busca por sobrenome (muitos resultados)", f"/bo/permissoes/?q={sample['surname']}"),
        ("Filtro situação = suspenso", "/bo/permissoes/?situacao=suspenso"),
        ("Filtro situação = ativo, última página", f"/bo/permissoes/?situacao=ativo&page={pages}"),
        ("Alerta: seguro vencido", "/bo/permissoes/?alerta=seguro"),
        ("Operadores, busca por nome", f"/bo/operadores/?q={sample['surname']}"),
        ("Veículos, busca por placa", f"/bo/veiculos/?q={sample['plate']}"),
        ("Painel (contagens e alertas)", "/bo/"),
    ]


def time_requests(app, sample, count, runs):
    from helpers import login

    client = app.test_client()
    login(client, "backoffice.bench", PASSWORD)
    results = []
    for label, url in requests_to_time(sample, count):
        assert client.get(url).status_code == 200, url  # warm-up (and a sanity check)
        samples = []
        for _ in range(runs):
            t0 = time.perf_counter()
            response = client.get(url)
            samples.append((time.perf_counter() - t0) * 1000)
            assert response.status_code == 200, url
        samples.sort()
        results.append((label, url, statistics.median(samples), samples[int(len(samples) * 0.95) - 1]))
        print(f"  {label:45} median {results[-1][2]:7.1f} ms   p95 {results[-1][3]:7.1f} ms", flush=True)
    return results


def explain(app, sql_label, query_fn):
    with app.app_context():
        query = query_fn()
        compiled = query.statement.compile(db.engine, compile_kwargs={"literal_binds": True})
        prefix = "EXPLAIN QUERY PLAN " if db.engine.dialect.name == "sqlite" else "EXPLAIN ANALYZE "
        rows = db.session.execute(text(prefix + str(compiled))).all()
        return sql_label, "\n".join(" | ".join(str(c) for c in r) if db.engine.dialect.name == "sqlite"
                                    else str(r[0]) for r in rows)


def _plans(app, sample, count):
    from server.modules.backoffice.permit_views import permit_list_query
    with app.app_context():
        mid = db.session.execute(text("SELECT id FROM municipality WHERE slug = 'bench'")).scalar()
    return [explain(app, "Busca por sobrenome (contagem)",
                    lambda: permit_list_query(mid, sample["surname"]).order_by(None)),
            explain(app, "Busca por placa (contagem)",
                    lambda: permit_list_query(mid, sample["plate"]).order_by(None)),
            explain(app, "Última página (página)",
                    lambda: permit_list_query(mid).limit(25).offset(count - 25))]


def run_one(url, count, runs, extra_indexes=()):
    """Returns [(label, version, results, plans)]: plain, then with `extra_indexes` if given."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                      "TESTING": False})
    with app.app_context():
        from flask_migrate import upgrade
        upgrade(directory=str(ROOT / "migrations"))
        version = db.session.execute(text(
            "SELECT sqlite_version()" if db.engine.dialect.name == "sqlite" else "SHOW server_version")).scalar()
    t0 = time.perf_counter()
    sample = populate(app, count)
    print(f"  populated {count} permits in {time.perf_counter() - t0:.1f} s", flush=True)
    out = [("", version, time_requests(app, sample, count, runs), _plans(app, sample, count))]
    if extra_indexes:
        with app.app_context():
            for statement in extra_indexes:
                db.session.execute(text(statement))
            db.session.execute(text("ANALYZE"))
            db.session.commit()
        print("  with the recommended indexes:", flush=True)
        out.append((" + índices", version, time_requests(app, sample, count, runs), _plans(app, sample, count)))
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    return out


def machine():
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip() or str(os.cpu_count())
    return f"{platform.machine()}, {nproc} CPUs ({cpu}), {platform.system()}; Python {platform.python_version()}"


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    runs_by_db = {}
    with tempfile.TemporaryDirectory() as tmp:
        print(f"SQLite ({count} permits)", flush=True)
        for label, *rest in run_one(f"sqlite:///{tmp}/bench.sqlite3", count, runs):
            runs_by_db["SQLite" + label] = rest
    if not os.environ.get("BENCH_SKIP_PG"):
        base = normalize_database_url(os.environ.get("BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test"))
        engine = create_engine(base)
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE"))
            conn.execute(text(f"CREATE SCHEMA {PG_SCHEMA}"))
        try:
            print(f"PostgreSQL ({count} permits, schema {PG_SCHEMA})", flush=True)
            sep = "&" if "?" in base else "?"
            for label, *rest in run_one(f"{base}{sep}options=-csearch_path%3D{PG_SCHEMA}", count, runs,
                                        PG_RECOMMENDED_INDEXES):
                runs_by_db["PostgreSQL" + label] = rest
        finally:
            with engine.begin() as conn:
                conn.execute(text(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE"))
            engine.dispose()
    write_report(count, runs, runs_by_db)


def write_report(count, runs, runs_by_db):
    names = list(runs_by_db)
    lines = [
        "# Registry lists benchmark",
        "",
        "Written by `bench/registry_lists.py`. One municipality with "
        f"{count:,} permits".replace(",", ".") + " (each with its own holder and vehicle, 80 % ativo), "
        "migrated by the real migrations. Each figure is one whole back-office request through the Flask "
        "test client as a logged-in back-office user (auth, municipality scope, filtered COUNT, page "
        f"query, eager loads, template), median and p95 of {runs} runs after a warm-up. Page size 25, "
        "offset pagination with an exact count. Target: every list request well under 300 ms.",
        "",
        f"Machine: {machine()}. "
        + ", ".join(f"{n} {runs_by_db[n][0]}" for n in names if "+" not in n)
        + f". Run: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC.",
        "",
        "| request | " + " | ".join(f"{n} median (ms) | {n} p95 (ms)" for n in names) + " |",
        "|---|" + "---|---|" * len(names),
    ]
    first = runs_by_db[names[0]][1]
    for i, (label, url, _, _) in enumerate(first):
        cells = " | ".join(f"{runs_by_db[n][1][i][2]:.1f} | {runs_by_db[n][1][i][3]:.1f}" for n in names)
        lines.append(f"| {label} (`{url}`) | {cells} |")
    worst = max((r[2], r[0], n) for n in names for r in runs_by_db[n][1])
    lines += ["", f"Slowest median: {worst[0]:.1f} ms ({worst[1]}, {worst[2]}) — target < 300 ms: "
              f"{'met' if worst[0] < 300 else 'NOT met'}.", ""]
    for n in names:
        for label, plan in runs_by_db[n][2]:
            lines += [f"### Plan, {n}: {label}", "", "```", plan, "```", ""]
    out = ROOT / "docs" / "benchmarks" / "registry.md"
    existing = out.read_text() if out.exists() else ""
    notes = existing[existing.index("## Notes"):] if "## Notes" in existing else ""
    out.write_text("\n".join(lines) + ("\n" + notes if notes else ""))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
