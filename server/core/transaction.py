"""The one transaction boundary: operations stage their changes, the boundary commits them.

An operation (a feature's `operations.py`, a receiver of its signals, a view's helper) only adds,
changes and flushes through `db.session`; it never commits. What commits is the edge of the unit
of work that called it, and only three kinds of edge exist:

- **a request** (`init_app`): the response decides. A success or a redirect (status < 400) commits
  everything the request staged, its audit records included, once, before the answer leaves; an
  error (4xx, 5xx) rolls it all back, so a view can compose two operations and never leave half of
  them. A request whose error answer must keep a write (a failed login counted, a refused
  activation code counted) says so with `keep_on_error()`, at the point it decides to answer so.
- **a command** (`commit_each_command`, applied once in server/cli.py): a `flask …` command
  commits when it ends normally, and rolls back when it fails or exits non-zero.
- **a job's unit** (`unit_of_work()`): a long job (the daily run's dates, the notice sender's
  claims, an import's progress) commits each unit it finishes, so a failure loses only its unit.
  Only job runners (files named `cli.py` or `jobs.py`, and jobs/registry.py) open units; the test
  tests/test_transaction_boundary.py holds every other file of server/ to no commit at all.

On SQLite (the `make run` default) a savepoint opened before any write would start SQLite's
transaction itself, as a deferred one: its reads take a shared lock, and its first write then asks
to upgrade it while another request's writer waits to commit — SQLite answers "database is locked"
at once rather than wait (two phones pushing at the same moment got a 500). So a savepoint that
would begin the transaction begins it with `BEGIN IMMEDIATE` first: the writer's lock is taken up
front, waiting its turn (the driver's busy timeout), and the savepoint's release no longer commits —
the boundary does, as on PostgreSQL.

`after_commit(fn)` runs `fn` once the boundary's commit has succeeded (and never after a rollback):
the place for what only tells the outside world (a file to delete from storage, a message) and
must not happen for a change that did not.
"""
from contextlib import contextmanager

import click
from flask import g, has_request_context
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ..extensions import db
from .commands import command_app_context, marked_wrapper, wrap_each_command

_AFTER_COMMIT = "motofiscal_after_commit"


def keep_on_error():
    """This request's staged writes hold even though its answer will be an error (status ≥ 400).
    Called by an operation right where it decides to refuse after recording why (security counters)."""
    if has_request_context():
        g.transaction_keep_on_error = True


def after_commit(fn):
    """Run `fn()` after the current transaction commits; dropped if it rolls back."""
    db.session.info.setdefault(_AFTER_COMMIT, []).append(fn)
    return fn


def _commit():
    session = db.session
    session.commit()
    callbacks = session.info.pop(_AFTER_COMMIT, [])
    for fn in callbacks:
        fn()


def _rollback():
    try:
        db.session.rollback()
    except Exception:  # a connection that cannot even roll back: drop the session altogether
        db.session.remove()


@event.listens_for(Session, "after_rollback")
def _forget_after_commit(session):
    # A rolled-back change must not tell anyone it happened.
    session.info.pop(_AFTER_COMMIT, None)


@event.listens_for(Engine, "savepoint")
def _sqlite_write_transaction_first(connection, _name):
    # Before SQLAlchemy emits SAVEPOINT (see the module's docstring). Only when nothing has begun
    # SQLite's transaction yet: a request that already wrote holds the writer's lock.
    # Through the Connection, so that a lock waited for in vain arrives as SQLAlchemy's
    # OperationalError, as any other statement's would (core/errors.py answers it 503).
    raw = connection.connection.dbapi_connection
    if type(raw).__module__.startswith("sqlite3") and not raw.in_transaction:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


# --- requests ------------------------------------------------------------------------------------

def init_app(app):
    """The request boundary. Registered before every other after_request hook, so that it runs last
    (Flask runs them in reverse order): whatever another hook stages is in the same transaction."""

    @app.after_request
    def _end_of_request(response):
        if response.status_code < 400 or g.get("transaction_keep_on_error"):
            # A failing commit raises here and Flask answers it as any unexpected error (a 500,
            # after core/errors.py rolls back): the client is never told a change held that did not.
            _commit()
        else:
            _rollback()
        return response


# --- commands ------------------------------------------------------------------------------------

def commit_each_command(group):
    """Every command of `group` (and of its subgroups) is one unit of work. Declared once, in
    server/cli.py, after the other command wrappers so that it is the outermost."""
    wrap_each_command(group, _committing_callback, "transaction_boundary")


def _committing_callback(callback):

    @click.pass_context
    def wrapped(ctx, *args, **kwargs):
        app_context = command_app_context(ctx)
        if app_context is None:
            return ctx.invoke(callback, *args, **kwargs)
        with app_context:
            try:
                result = ctx.invoke(callback, *args, **kwargs)
            except click.exceptions.Exit as done:
                _commit() if done.exit_code == 0 else _rollback()
                raise
            except SystemExit as done:
                _commit() if done.code in (0, None) else _rollback()
                raise
            except BaseException:
                _rollback()
                raise
            _commit()
            return result

    return marked_wrapper(callback, wrapped, "transaction_boundary", True)


# --- jobs ----------------------------------------------------------------------------------------

@contextmanager
def unit_of_work():
    """One unit of a long job: commits what it staged when the block ends, rolls back if it raises.
    Only job runners open one (see the module's docstring)."""
    try:
        yield db.session
    except BaseException:
        _rollback()
        raise
    _commit()
