"""INSERT … ON CONFLICT DO NOTHING RETURNING of many rows in one statement, cheaply.

On PostgreSQL the rows travel as one array per column and the statement reads them with
unnest(): its text and its parameter count do not depend on the number of rows, so psycopg
converts it once and PostgreSQL plans it once (prepared after a few runs). A multi-row VALUES
list (what SQLAlchemy's executemany produces) has 19 parameters per record: psycopg re-parses
that text on every push (it caches only statements with ≤ 50 parameters) and PostgreSQL
re-plans it, which cost about a fifth of a batch's CPU. Elsewhere (SQLite) an executemany.
"""
import functools
import json

from sqlalchemy import JSON, text
from sqlalchemy.dialects import postgresql

from .changes import _insert


@functools.lru_cache(maxsize=None)
def _unnest_statement(table, columns, conflict, returning):
    dialect = postgresql.dialect()
    arrays = ", ".join(f"CAST(:{name} AS {table.c[name].type.compile(dialect=dialect)}[])" for name in columns)
    return text(f'INSERT INTO {table.name} ({", ".join(columns)}) SELECT * FROM unnest({arrays}) '
                f'ON CONFLICT ({", ".join(conflict)}) DO NOTHING RETURNING {returning}')


def insert_new(connection, table, rows, conflict, returning):
    """Insert `rows` (dicts with the same keys, in the order given), skipping those whose
    `conflict` columns already exist; returns the `returning` column of the rows inserted."""
    if not rows:
        return []
    columns = tuple(rows[0])
    if connection.dialect.name != "postgresql":
        statement = _insert(connection, table).on_conflict_do_nothing(index_elements=list(conflict))
        return list(connection.execute(statement.returning(table.c[returning]), rows).scalars())
    params = {}
    for name in columns:
        values = [row[name] for row in rows]
        if isinstance(table.c[name].type, JSON):
            values = [None if v is None else json.dumps(v) for v in values]
        params[name] = values
    return list(connection.execute(_unnest_statement(table, columns, tuple(conflict), returning), params).scalars())
