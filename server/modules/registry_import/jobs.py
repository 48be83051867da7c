"""The registry import as background jobs (issue 36, item 4): an upload becomes an ImportJob row
(the file in the database, so any app server behind the balancer reads it), and checking or
importing 10,000 rows runs outside the request, which answers at once with a page that follows
the job's progress.

Why a PostgreSQL job table (SELECT … FOR UPDATE SKIP LOCKED) and not a Redis queue (RQ): the
upload must be in shared storage anyway and the result must be stored: both are rows of the
database every app server already shares; a job is claimed by exactly one worker in the same
transaction that marks it running, with no second system to keep consistent with the data (the
job and the import commit in the database the import writes), and Redis stays optional (it only
shares login limits). No new service: `flask jobs worker` is the same code as the app, one per
machine or several. Under `make run` (config IMPORT_JOBS = "thread") the app server that queued a
job runs it in a thread, started once the request that queued it has committed. A worker that
died leaves a running job whose heartbeat stops: claimed again after STALE_AFTER.

Units of work (core/transaction.py): the claim; the job read; the import (all its rows, or none);
each progress step, in an app context of its own (so a session and a connection of its own: the
import's transaction is still open); the job's end."""
import hashlib
import logging
import os
import secrets
import tempfile
import threading
import time
from datetime import date, timedelta

from flask import current_app
from sqlalchemy import select, text, update

from ...core.tenancy import crosses_municipalities, use_municipality
from ...core.transaction import unit_of_work
from ...extensions import db
from ..accounts.models import User
from ..registry.models import Municipality, utcnow
from .importer import result_json, run_import
from .models import ImportJob
from .reader import FileProblem

log = logging.getLogger(__name__)
STALE_AFTER = timedelta(minutes=10)
ANALYZED = ("permit", "operator", "vehicle", "company", "permit_status_change", "permit_drivers",
            "permit_transition", "credential_status_entry")


def enqueue(municipality_id, user_id, action, file_name, kind, body, options):
    """Stage the job (the back office's request commits it; a worker then sees it)."""
    job = ImportJob(id=secrets.token_urlsafe(18), municipality_id=municipality_id, user_id=user_id, action=action,
                    state="queued", file_name=file_name[:200], kind=kind, body=body, options=options or {},
                    sha256=_sha256(body), rows_done=0, created_at=utcnow())
    db.session.add(job)
    db.session.flush()
    return job


def _sha256(body):
    return hashlib.sha256(body).hexdigest()


def start_in_thread(app, job_id):
    """`make run`: the job in a thread of this server (config IMPORT_JOBS = "thread")."""
    def target():
        with app.app_context():
            run_claimed(job_id) if claim(job_id) else None
    threading.Thread(target=target, name=f"import-{job_id[:8]}", daemon=True).start()


@crosses_municipalities("import jobs: the worker claims the next job of any municipality")
def claim(job_id=None):
    """Mark one queued (or stale) job running and return its id, or None. On PostgreSQL the row is
    locked FOR UPDATE SKIP LOCKED: two workers never take the same job, nor wait for each other."""
    now = utcnow()
    ready = (ImportJob.state == "queued") | ((ImportJob.state == "running") & (ImportJob.heartbeat_at < now - STALE_AFTER))
    query = select(ImportJob.id).where(ready).order_by(ImportJob.created_at).limit(1)
    if job_id is not None:
        query = query.where(ImportJob.id == job_id)
    if db.engine.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    with unit_of_work():
        found = db.session.execute(query).scalar()
        if found is None:
            return None
        done = db.session.execute(update(ImportJob).where(ImportJob.id == found, ready).values(
            state="running", started_at=now, heartbeat_at=now, rows_done=0))
    return found if done.rowcount == 1 else None


def _municipality_of(job_id):
    @crosses_municipalities("import jobs: which municipality a claimed job belongs to")
    def read():
        return db.session.execute(select(ImportJob.municipality_id).where(ImportJob.id == job_id)).scalar()
    return read()


def run_claimed(job_id):
    """Run a job this process claimed, in its municipality's scope, and store its result."""
    mid = _municipality_of(job_id)
    use_municipality(mid)
    with unit_of_work():  # the job row read; the import's own unit starts clean
        job = db.session.get(ImportJob, job_id)
        user_id, options, action = job.user_id, dict(job.options or {}), job.action
        name, kind, body = job.file_name, job.kind, job.body
    until = options.get("act_until")
    accept = options.get("accept")
    kwargs = {"act": options.get("act"), "act_until": date.fromisoformat(until) if until else None}
    if action == "commit":
        kwargs.update(commit=True, only_valid=bool(options.get("only_valid")),
                      accept=True if accept is True else set(accept or ()), apply_changes=bool(options.get("apply_changes")))
    handle, path = tempfile.mkstemp(suffix=f".{kind}")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(body)
        try:
            # SQLite (`make run`): one writer at a time, and the job's transaction is open: a second
            # connection's write would wait for it. The page then says "em andamento" without a count.
            progress = None if db.engine.dialect.name == "sqlite" else _progress_writer(job_id, mid)
            with unit_of_work():  # the import: every row it writes, or none (a check writes nothing)
                muni = db.session.get(Municipality, mid)
                actor = db.session.get(User, user_id) if user_id else None
                result = run_import(muni, path, kind, name, actor=actor, progress=progress, **kwargs)
                if result.committed:
                    _drop_checked_file(options.get("check_id"))
        except FileProblem as err:
            _finish(job_id, "failed", None, str(err)[:500])
            return
        except Exception:  # reported on the job's page; the traceback goes to the log
            log.exception("registry import job %s failed", job_id)
            _finish(job_id, "failed", None, "A importação falhou por um erro interno: nada foi gravado. "
                                            "Avise o suporte (registro do servidor).")
            return
        if result.committed:
            analyze()
        _finish(job_id, "done", result_json(result), None, rows=result.rows)
    finally:
        os.unlink(path)


def _progress_writer(job_id, mid):
    """progress(rows): written and committed while the import's transaction is still open, so
    in an app context of its own (Flask-SQLAlchemy gives each its own session and connection)."""
    app = current_app._get_current_object()

    def progress(rows):
        with app.app_context():
            use_municipality(mid)
            with unit_of_work():
                db.session.execute(update(ImportJob).where(ImportJob.id == job_id)
                                   .values(rows_done=rows, heartbeat_at=utcnow()))
    return progress


def _drop_checked_file(check_id):
    """Once imported, the check's copy of the file is no longer needed (the commit job keeps its own)."""
    if check_id:
        db.session.execute(update(ImportJob).where(ImportJob.id == check_id).values(body=b""))


def _finish(job_id, state, result, message, rows=None):
    with unit_of_work():
        job = db.session.get(ImportJob, job_id)
        job.state, job.result, job.message, job.finished_at = state, result, message, utcnow()
        if rows is not None:
            job.rows_done = rows


def analyze():
    """Fresh planner statistics after a bulk write: right after an import a permit page took ~20 s
    until ANALYZE (issue 36). The app role may not own the tables (docs/operations.md): PostgreSQL
    then skips them with a WARNING, not an error, and autovacuum's analyze catches up; nothing
    fails here either way."""
    if db.engine.dialect.name != "postgresql":
        return
    try:
        with db.engine.connect() as conn:
            conn = conn.execution_options(isolation_level="AUTOCOMMIT")
            for table in ANALYZED:
                conn.execute(text(f'ANALYZE "{table}"'))
    except Exception:  # never fail an import that committed because statistics could not be refreshed
        log.warning("ANALYZE after the registry import failed", exc_info=True)


def work(once=False, idle_seconds=1.0, stop=None):
    """`flask jobs worker`: claim and run jobs until stopped (once: until the queue is empty)."""
    ran = 0
    while stop is None or not stop():
        job_id = claim()
        if job_id is None:
            if once:
                return ran
            time.sleep(idle_seconds)
            continue
        run_claimed(job_id)
        ran += 1
    return ran


