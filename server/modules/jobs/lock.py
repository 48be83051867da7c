"""One daily run at a time, whichever app server's cron starts it.

The tasks are idempotent when run one after the other, not when two runs interleave: both could
see the same permit not yet expired or the same ISSQN charge not yet made. With several app
servers each may carry the cron line, so the run takes a PostgreSQL advisory lock (on a connection
of its own, held until the run ends) and a second run finding it taken does nothing.
"""
from contextlib import contextmanager

from sqlalchemy import text

from ...extensions import db

# Any constant naming "the daily run" in pg_locks; the bytes spell "mfjd".
DAILY_RUN_LOCK = 0x6D666A64


@contextmanager
def daily_run_lock():
    """Yields True when this process holds the lock, False when another run holds it. SQLite is
    a file on one machine with one cron: nothing to coordinate, always True."""
    if db.engine.dialect.name != "postgresql":
        yield True
        return
    with db.engine.connect() as conn:
        held = bool(conn.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": DAILY_RUN_LOCK}).scalar())
        conn.commit()  # the lock is the session's, not the transaction's: nothing left open meanwhile
        try:
            yield held
        finally:
            if held:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": DAILY_RUN_LOCK})
                conn.commit()
