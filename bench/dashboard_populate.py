"""Set-based populate of bench/dashboard.py: a million autos in minutes, not 100 minutes.

The records are generated inside PostgreSQL (generate_series, JSON bodies shaped as a phone
sends them) and the dashboard's derived rows are then computed from the stored bodies by SQL
that follows `dashboard.operations.record_stats` step by step (derive.derive: filing moment,
local day, confirmed infractions outside the traffic authority's, failed requirements, cents,
unpriced; _pontos: the permit's ponto, an auto without a number takes its inspection's;
case_changed: an insubsistente auto is void; _roll: the four rollups). Going through the
Python function took 6,061 s for a million (docs/benchmarks/dashboard.md).

`check_equivalence` proves the two ways agree on the bench's data: for every record of three
whole days it runs the real `record_stats` (and `case_changed` for the void autos) into
temporary tables that shadow the six derived tables (pg_temp comes first in the search path),
and compares them row for row with what this SQL derives for the same records. The bench stops
if one row differs.
"""
import json
import time
from datetime import timedelta
from types import SimpleNamespace

from sqlalchemy import text

DERIVED = ("field_stat", "field_stat_item", "field_stat_day", "field_stat_month",
           "field_stat_item_day", "field_stat_item_month")

# One row per auto (and its inspection): who, when, which permit (10 % of the autos name only
# their inspection, whose ponto they take), which items (distinct by construction: start + j ×
# step modulo the list, step small enough never to wrap onto itself).
GENERATE = """
CREATE TEMP TABLE bench_pair AS
SELECT g.n, (CAST(:devices AS int[]))[g.k + 1] AS device_id, (CAST(:users AS int[]))[g.k + 1] AS user_id,
       g.moment, g.permit, g.inspection_id, g.auto_id, g.failed_n, g.failed_at, g.failed_step,
       g.inf_n, g.inf_at, g.inf_step, g.void, g.auto_names_permit,
       row_number() OVER (PARTITION BY g.k ORDER BY g.n) AS rn
FROM (SELECT n, floor(random() * 30)::int AS k,
             CAST(:now AS timestamptz) - make_interval(secs => floor(random() * 730 * 86400)) AS moment,
             CASE WHEN random() < 0.9 THEN lpad((1 + floor(random() * 2000))::int::text, 6, '0') || '/2026' END AS permit,
             gen_random_uuid()::text AS inspection_id, gen_random_uuid()::text AS auto_id,
             floor(random() * 4)::int AS failed_n, floor(random() * 40)::int AS failed_at,
             1 + floor(random() * 13)::int AS failed_step,
             1 + floor(random() * 3)::int AS inf_n, floor(random() * 25)::int AS inf_at,
             1 + floor(random() * 12)::int AS inf_step, random() < 0.05 AS void,
             random() < 0.9 AS auto_names_permit
      FROM generate_series(1, :autos) AS n) AS g
"""

_CLOCK = "json_build_object('device_at', to_char(p.moment AT TIME ZONE :tz, 'YYYY-MM-DD\"T\"HH24:MI:SS\"-04:00\"'))"
RECORDS = f"""
INSERT INTO field_record (id, municipality_id, device_id, user_id, kind, seq, body_hash, body, signature,
                          flags, received_at, device_at)
SELECT p.inspection_id, :mid, p.device_id, p.user_id, 'inspection', 2 * p.rn - 1, repeat('0', 64),
       json_build_object('id', p.inspection_id, 'kind', 'inspection', 'device_id', p.device_id, 'seq', 2 * p.rn - 1,
         'clock', {_CLOCK}, 'permit_number', p.permit,
         'evaluation', json_build_object('failed', (
           SELECT coalesce(json_agg(json_build_object('requirement', 'bench.req.' || x.r,
                                                      'label_pt', 'Item do checklist ' || x.r) ORDER BY j), '[]')
           FROM generate_series(0, p.failed_n - 1) AS j,
                LATERAL (SELECT (p.failed_at + j * p.failed_step) % 40 AS r) AS x)))::text,
       'x', CAST('[]' AS json), :now, p.moment
FROM bench_pair p
UNION ALL
SELECT p.auto_id, :mid, p.device_id, p.user_id, 'auto', 2 * p.rn, repeat('0', 64),
       json_build_object('id', p.auto_id, 'kind', 'auto', 'device_id', p.device_id, 'seq', 2 * p.rn,
         'clock', {_CLOCK}, 'permit_number', CASE WHEN p.auto_names_permit THEN p.permit END, 'number', 'B-' || p.n, 'inspection_id', p.inspection_id,
         'infractions', (
           SELECT json_agg(json_build_object('id', 'bench.inf.' || x.i, 'label_pt', 'Infração de bancada ' || x.i,
                                             'amount_brl', round(50 + x.i * 37.35, 2), 'decision', 'confirmed')
                           ORDER BY j)
           FROM generate_series(0, p.inf_n - 1) AS j,
                LATERAL (SELECT (p.inf_at + j * p.inf_step) % 25 AS i) AS x))::text,
       'x', CAST('[]' AS json), :now, p.moment
FROM bench_pair p
"""

CASES = """
INSERT INTO auto_case (municipality_id, record_id, number, state, created_at)
SELECT :mid, auto_id, 'B-' || n, CASE WHEN void THEN 'insubsistente' ELSE 'recebido' END, :now FROM bench_pair
"""

# --- derivation (record_stats in SQL); {only} narrows it to the records of bench_sample ---------

# derive.filing_moment + to_local + derive's day; derive.permit_number; the auto's inspection.
BASE = """
CREATE TEMP TABLE bench_base AS
SELECT r.id AS record_id, r.municipality_id, r.kind, r.user_id, j.body,
       (CASE WHEN r.device_at IS NOT NULL AND r.device_at >= TIMESTAMPTZ '2000-01-01 00:00:00+00'
                  AND r.device_at <= r.received_at + INTERVAL '1 day'
             THEN r.device_at ELSE r.received_at END AT TIME ZONE :tz)::date AS day,
       CASE WHEN jsonb_typeof(j.body -> 'permit_number') = 'string' AND j.body ->> 'permit_number' <> ''
            THEN left(j.body ->> 'permit_number', 40) END AS number,
       CASE WHEN jsonb_typeof(j.body -> 'inspection_id') = 'string' THEN j.body ->> 'inspection_id' END AS inspection_ref
FROM field_record r CROSS JOIN LATERAL (SELECT r.body::jsonb AS body OFFSET 0) AS j  -- OFFSET 0: parsed once, not per use
WHERE r.municipality_id = :mid AND r.kind IN ('inspection', 'auto') {only}
"""

_ARRAY = "CASE WHEN jsonb_typeof({0}) = 'array' THEN {0} ELSE '[]'::jsonb END"
_LABEL = "CASE WHEN jsonb_typeof(e -> 'label_pt') = 'string' AND e ->> 'label_pt' <> '' THEN left(e ->> 'label_pt', 300) END"
# derive.derive's items: confirmed infractions of autos (not the traffic authority's), with
# derive._cents (a number, at most MAX_CENTS) and item_amount's unpriced; failed requirements.
ITEMS = f"""
CREATE TEMP TABLE bench_item AS
SELECT record_id, municipality_id, kind, day, code, label, amount_cents, unpriced,
       (row_number() OVER (PARTITION BY record_id ORDER BY ord) - 1)::int AS position
FROM (
  SELECT b.record_id, b.municipality_id, 'infraction' AS kind, b.day, left(e ->> 'id', 120) AS code, {_LABEL} AS label,
         c.cents AS amount_cents, CASE WHEN c.cents IS NULL AND jsonb_typeof(e -> 'amount') = 'object' THEN 1 ELSE 0 END AS unpriced,
         x.ord
  FROM bench_base b,
       LATERAL jsonb_array_elements({_ARRAY.format("b.body -> 'infractions'")}) WITH ORDINALITY AS x(e, ord),
       LATERAL (SELECT CASE WHEN jsonb_typeof(e -> 'amount_brl') = 'number'
                             AND abs(round((e ->> 'amount_brl')::numeric * 100)) <= 1e15
                            THEN round((e ->> 'amount_brl')::numeric * 100)::bigint END AS cents) AS c
  WHERE b.kind = 'auto' AND jsonb_typeof(e) = 'object'
    AND (CASE WHEN e ? 'decision' THEN e -> 'decision' = '"confirmed"'::jsonb ELSE true END)
    AND jsonb_typeof(e -> 'id') = 'string' AND e ->> 'id' <> ''
    AND NOT left(e ->> 'id', 120) = ANY(CAST(:traffic AS text[]))
  UNION ALL
  SELECT b.record_id, b.municipality_id, 'nonconformity', b.day, left(e ->> 'requirement', 120), {_LABEL},
         NULL::bigint, 0, x.ord
  FROM bench_base b,
       LATERAL jsonb_array_elements({_ARRAY.format("CASE WHEN jsonb_typeof(b.body -> 'evaluation') = 'object' THEN b.body -> 'evaluation' -> 'failed' END")})
         WITH ORDINALITY AS x(e, ord)
  WHERE b.kind = 'inspection' AND jsonb_typeof(e) = 'object' AND jsonb_typeof(e -> 'requirement') = 'string'
) AS items
"""

# case_changed: an auto declared insubsistente is void (a hash join, not a look-up per row).
VOID = "LEFT JOIN auto_case a ON a.record_id = {0} AND a.state = 'insubsistente'"
# _pontos: the permit's ponto; an auto without a number takes its inspection's (by the number the
# inspection carries). derive: amount_cents the sum of the items' cents (autos only), unpriced.
STAT_ROWS = f"""
SELECT b.record_id, b.municipality_id, b.kind, b.day, to_char(b.day, 'YYYY-MM') AS month, b.user_id,
       p.ponto_id, CASE WHEN b.kind = 'auto' THEN coalesce(s.cents, 0) END AS amount_cents,
       coalesce(s.unpriced, 0)::int AS unpriced, a.record_id IS NOT NULL AS void
FROM bench_base b
{VOID.format("b.record_id")}
LEFT JOIN bench_base i ON b.kind = 'auto' AND b.number IS NULL AND i.record_id = b.inspection_ref
LEFT JOIN permit p ON p.municipality_id = b.municipality_id AND p.number = coalesce(b.number, i.number)
LEFT JOIN (SELECT record_id, sum(amount_cents) AS cents, sum(unpriced) AS unpriced
           FROM bench_item GROUP BY record_id) AS s ON s.record_id = b.record_id
"""
ITEM_ROWS = f"""
SELECT i.record_id, i.position, i.municipality_id, i.kind, i.day, i.code, i.label, i.amount_cents, i.unpriced,
       a.record_id IS NOT NULL AS void
FROM bench_item i
{VOID.format("i.record_id")}
"""

# operations._roll_statements (sign +1) over every row at once: a plain GROUP BY.
_STAT_SUMS = """count(*) FILTER (WHERE kind = 'inspection'), count(*) FILTER (WHERE kind = 'auto'),
       coalesce(sum(amount_cents) FILTER (WHERE NOT void), 0), coalesce(sum(unpriced) FILTER (WHERE NOT void), 0),
       count(*) FILTER (WHERE void)"""
_ITEM_SUMS = """max(i.label), count(*), coalesce(sum(i.amount_cents) FILTER (WHERE NOT i.void), 0),
       coalesce(sum(i.unpriced) FILTER (WHERE NOT i.void), 0)"""
ROLLUPS = {
    "field_stat_day": f"""SELECT municipality_id, day, user_id, coalesce(ponto_id, 0), max(month), {_STAT_SUMS}
        FROM field_stat GROUP BY municipality_id, day, user_id, coalesce(ponto_id, 0)""",
    "field_stat_month": f"""SELECT municipality_id, month, user_id, coalesce(ponto_id, 0), {_STAT_SUMS}
        FROM field_stat GROUP BY municipality_id, month, user_id, coalesce(ponto_id, 0)""",
    "field_stat_item_day": f"""SELECT i.municipality_id, i.day, i.kind, i.code, {_ITEM_SUMS}
        FROM field_stat_item i GROUP BY i.municipality_id, i.day, i.kind, i.code""",
    "field_stat_item_month": f"""SELECT i.municipality_id, s.month, i.kind, i.code, {_ITEM_SUMS}
        FROM field_stat_item i JOIN field_stat s ON s.record_id = i.record_id
        GROUP BY i.municipality_id, s.month, i.kind, i.code""",
}
COLUMNS = {
    "field_stat": "record_id, municipality_id, kind, day, month, user_id, ponto_id, amount_cents, unpriced, void",
    "field_stat_item": "record_id, position, municipality_id, kind, day, code, label, amount_cents, unpriced, void",
    "field_stat_day": "municipality_id, day, user_id, ponto_key, month, inspections, autos, amount_cents, unpriced, void",
    "field_stat_month": "municipality_id, month, user_id, ponto_key, inspections, autos, amount_cents, unpriced, void",
    "field_stat_item_day": "municipality_id, day, kind, code, label, count, amount_cents, unpriced",
    "field_stat_item_month": "municipality_id, month, kind, code, label, count, amount_cents, unpriced",
}


def _settings(mid):
    from server.core.clock import timezone
    from server.extensions import db
    from server.modules.autos.auto_data import traffic_authority_act
    from server.modules.dashboard.derive import traffic_ids
    from server.modules.registry.models import Municipality
    traffic = [] if traffic_authority_act(db.session.get(Municipality, mid)) else sorted(traffic_ids())
    return {"mid": mid, "tz": timezone().key, "traffic": traffic}


def _derive_temp(connection, params, only=""):
    """bench_base and bench_item (temporary) for the records of the municipality (or of bench_sample)."""
    connection.execute(text(BASE.format(only=only)), params)
    connection.execute(text("ANALYZE bench_base"))
    connection.execute(text(ITEMS), params)
    connection.execute(text("ANALYZE bench_item"))


LOADED = ("field_record", "auto_case", *DERIVED)


def _stage(label, started):
    print(f"    {label}: {time.perf_counter() - started:.1f} s", flush=True)
    return time.perf_counter()


def bulk_load(connection, mid, devices, users, autos, now):
    """Generates the records and derives their rows the way a bulk load is done: the tables'
    secondary indexes dropped and rebuilt once at the end (a sort each, instead of 2 million
    random insertions into each), foreign keys not checked row by row (session_replication_role
    replica: every reference is made by the statements themselves; the bench's own tables only)."""
    indexes = connection.execute(text(
        "SELECT indexname, indexdef FROM pg_indexes i WHERE schemaname = current_schema() "
        "AND tablename = ANY(:tables) AND NOT EXISTS (SELECT 1 FROM pg_constraint c "
        "WHERE c.conname = i.indexname AND c.connamespace = current_schema()::regnamespace)"),
        {"tables": list(LOADED)}).all()
    for name, _ in indexes:
        connection.execute(text(f'DROP INDEX "{name}"'))
    connection.execute(text("SET LOCAL session_replication_role = replica"))
    connection.execute(text("SET LOCAL maintenance_work_mem = '256MB'"))
    started = time.perf_counter()
    generate(connection, mid, devices, users, autos, now)
    started = _stage("records generated", started)
    derive_all(connection, mid)
    started = _stage("rows derived", started)
    for _, definition in indexes:
        connection.execute(text(definition))
    connection.execute(text("SET LOCAL session_replication_role = origin"))
    _stage(f"{len(indexes)} indexes rebuilt", started)


def generate(connection, mid, devices, users, autos, now):
    """field_record (an inspection and an auto per pair) and auto_case (5 % insubsistente), set-based."""
    from server.core.clock import timezone
    connection.execute(text("SELECT setseed(0.1)"))
    connection.execute(text(GENERATE), {"devices": devices, "users": users, "now": now, "autos": autos})
    params = {"mid": mid, "now": now, "tz": timezone().key}
    connection.execute(text(RECORDS), params)
    connection.execute(text(CASES), params)
    connection.execute(text("DROP TABLE bench_pair"))


def derive_all(connection, mid):
    """The six derived tables of every record, as record_stats and case_changed leave them."""
    _derive_temp(connection, _settings(mid))
    connection.execute(text(f"INSERT INTO field_stat ({COLUMNS['field_stat']}) {STAT_ROWS}"))
    connection.execute(text(f"INSERT INTO field_stat_item ({COLUMNS['field_stat_item']}) {ITEM_ROWS}"))
    connection.execute(text("DROP TABLE bench_base, bench_item"))
    connection.execute(text("ANALYZE field_stat, field_stat_item"))
    for table, rows in ROLLUPS.items():  # in key order, as the pushes of each day leave them (_roll sorts its keys)
        connection.execute(text(f"INSERT INTO {table} ({COLUMNS[table]}) {rows} ORDER BY 1, 2, 3, 4"))


def check_equivalence(app, schema, mid, days):
    """→ {table: rows compared}; raises AssertionError naming the first table whose rows differ
    between the real record_stats (+ case_changed) and this SQL, over the records of `days`."""
    from server.extensions import db
    from server.modules.dashboard.operations import case_changed, record_stats
    with app.app_context():
        db.engine.dispose()  # a fresh connection: no statement prepared against the real tables
        connection = db.session.connection()
        params = _settings(mid)
        connection.execute(text("CREATE TEMP TABLE bench_sample (id varchar(36) PRIMARY KEY)"))
        for day in days:
            start = f"{day.isoformat()} 00:00:00"
            connection.execute(text(
                "INSERT INTO bench_sample SELECT id FROM field_record WHERE municipality_id = :mid "
                "AND device_at >= CAST(:start AS timestamp) AT TIME ZONE :tz "
                "AND device_at < (CAST(:start AS timestamp) + INTERVAL '1 day') AT TIME ZONE :tz"),
                {**params, "start": start})
        for table in DERIVED:  # shadows: the real code below writes here, not into the bench's tables
            connection.execute(text(f"CREATE TEMP TABLE {table} (LIKE {schema}.{table} INCLUDING DEFAULTS INCLUDING INDEXES)"))
        rows = connection.execute(text(
            "SELECT r.id, r.kind, r.user_id, r.device_at, r.received_at, r.body, a.state = 'insubsistente' AS void "
            "FROM field_record r JOIN bench_sample s ON s.id = r.id LEFT JOIN auto_case a ON a.record_id = r.id")).all()
        record_stats(mid, [{"id": r.id, "kind": r.kind, "user_id": r.user_id, "device_at": r.device_at,
                            "received_at": r.received_at, "body": json.loads(r.body)} for r in rows])
        for r in rows:
            if r.void:
                case_changed(SimpleNamespace(record_id=r.id), old="recebido", new="insubsistente")
        _derive_temp(connection, params, only="AND r.id IN (SELECT id FROM bench_sample)")
        sql_rows = {"field_stat": STAT_ROWS, "field_stat_item": ITEM_ROWS, **ROLLUPS}
        compared = {}
        for table in DERIVED:
            real = f"SELECT {COLUMNS[table]} FROM pg_temp.{table}"
            if table in ROLLUPS:  # the SQL rollup over the base rows record_stats wrote
                ours = ROLLUPS[table]
            else:
                ours = sql_rows[table]
            differ = connection.execute(text(
                f"SELECT (SELECT count(*) FROM (({ours}) EXCEPT ALL ({real})) AS a) + "
                f"(SELECT count(*) FROM (({real}) EXCEPT ALL ({ours})) AS b)"), params).scalar()
            compared[table] = connection.execute(text(f"SELECT count(*) FROM pg_temp.{table}")).scalar()
            assert compared[table] and not differ, f"{table}: {differ} rows differ out of {compared[table]}"
        db.session.rollback()
        db.session.remove()
    return compared


def sample_days(today):
    """Three whole days, a recent one and two far back (different months and years)."""
    return [today - timedelta(days=n) for n in (20, 300, 600)]
