"""INSERT … ON CONFLICT DO NOTHING RETURNING of many rows in one statement, cheaply.

On PostgreSQL the rows travel as one JSON parameter that the statement reads with
json_populate_recordset(): its text does not depend on the number of rows, so psycopg converts
it once and PostgreSQL plans it once (prepared after a few runs), and the Python side is one
json.dumps. It runs on the DBAPI cursor of the session's connection (same transaction): for a
text statement SQLAlchemy rebuilds its result metadata from the cursor on every execution,
which cost more than the insert itself. The alternatives cost a fifth of a push's CPU: a
multi-row VALUES list (what SQLAlchemy's executemany produces, 19 parameters per record) is
re-parsed by psycopg on every push (it caches only statements with ≤ 50 parameters) and
re-planned by PostgreSQL; one array per column has psycopg escape every quote of every body in
Python; an executemany is a round trip per row in a pipeline. Elsewhere (SQLite) an
executemany. Text round-trips exactly (JSON strings carry any Unicode text; NUL and lone
surrogates are refused at the door, core/security.py).
"""
import functools
import json
from datetime import date, datetime

from ...core.upsert import dialect_insert


@functools.lru_cache(maxsize=None)
def _recordset_sql(table_name, columns, conflict, returning):
    names = ", ".join(f'"{name}"' for name in columns)
    return (f'INSERT INTO "{table_name}" ({names}) SELECT {names} '
            f'FROM json_populate_recordset(NULL::"{table_name}", %(rows)s::json) '
            f'ON CONFLICT ({", ".join(conflict)}) DO NOTHING RETURNING "{returning}"')


def _json_default(value):
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def insert_new(connection, table, rows, conflict, returning):
    """Insert `rows` (dicts with the same keys, every key a column of `table`), skipping those
    whose `conflict` columns already exist; returns the `returning` column of the rows inserted."""
    if not rows:
        return []
    if connection.dialect.name != "postgresql":
        statement = dialect_insert(connection, table).on_conflict_do_nothing(index_elements=list(conflict))
        return list(connection.execute(statement.returning(table.c[returning]), rows).scalars())
    sql = _recordset_sql(table.name, tuple(rows[0]), tuple(conflict), returning)
    cursor = connection.connection.cursor()
    try:
        cursor.execute(sql, {"rows": json.dumps(rows, ensure_ascii=False, default=_json_default)})
        return [row[0] for row in cursor.fetchall()]
    finally:
        cursor.close()
