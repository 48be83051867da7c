"""The benches' own PostgreSQL databases: a new machine's server has only test, root and postgres,
so a bench that works in a database of its own makes it the first time (imported by ingest.py,
registry_import.py and review_queue.py; run alone, it does nothing)."""
from sqlalchemy import create_engine, make_url, text


def create_database_if_missing(url):
    target = make_url(url)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            if conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                            {"name": target.database}).first() is None:
                conn.execute(text(f'CREATE DATABASE "{target.database}"'))
    finally:
        admin.dispose()
