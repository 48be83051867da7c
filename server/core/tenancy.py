"""Tenancy as a property of the data: every row that carries a `municipality_id` belongs to that
municipality, and every read that follows an id — from a URL, a form, or a foreign key of a row
already in scope — stays in the scope of the row it came from (docs/ARCHITECTURE.md, "Tenancy").

`owned(model, ident, mid)` is the one way to follow such an id: the row, or None when it is
missing or another municipality's (so callers answer 404 or "not found in this municipality",
never the neighbour's data). Rows without a municipality of their own (a record's photos, a
case's versions, a permit's drivers) are reached through the scoped parent only.
"""
import functools
from contextlib import contextmanager
from dataclasses import dataclass, replace

import click
from flask import current_app, g, has_app_context
from sqlalchemy import event
from sqlalchemy.exc import DBAPIError, PendingRollbackError
from sqlalchemy.orm import Session

from .. import extensions
from .commands import command_app_context, marked_wrapper, wrap_each_command
from .errors import ApiError

MAX_ID = 2**31 - 1  # integer ids are 32-bit on every database we run on


def _valid_ident(ident):
    if isinstance(ident, bool) or ident is None:
        return False
    if isinstance(ident, int):
        return 0 < ident <= MAX_ID
    return isinstance(ident, str) and 0 < len(ident) <= 64


def owned(model, ident, municipality_id):
    """The `model` row `ident` when it belongs to `municipality_id`; else None (missing, out of
    range, or another municipality's)."""
    if municipality_id is None or not _valid_ident(ident):
        return None
    obj = extensions.db.session.get(model, ident)
    if obj is None or obj.municipality_id != municipality_id:
        return None
    return obj


def owned_or_404(model, ident, municipality_id):
    obj = owned(model, ident, municipality_id)
    if obj is None:
        raise ApiError(404, "not_found")
    return obj


def in_scope(model, municipality_id):
    """A query of `model` limited to one municipality."""
    return model.query.filter(model.municipality_id == municipality_id)


def tenant_tables(metadata=None):
    """Every table that carries a municipality (what row-level security and the cross-tenant
    test cover), in dependency order."""
    metadata = metadata or extensions.db.metadata
    return [t for t in metadata.sorted_tables if "municipality_id" in t.c]


# --- The second wall: PostgreSQL row-level security ---------------------------------------------
# Migration 0023 puts a policy on every tenant table (and on the child tables reached only through
# a parent: rls_sql.CHILD_TABLES) that lets a transaction see and write a row only when
#   - the row's municipality is `motofiscal.municipality_id`, or
#   - the row has no municipality (platform administrators, platform audit entries) and
#     `motofiscal.platform` is on, or
#   - `motofiscal.crossing` is on: code that DECLARED it crosses municipalities.
# Those three settings are set per transaction (set_config(..., true)) from the scope below, held
# in flask.g: at every transaction's start (the Session's after_begin) and again whenever the
# scope changes inside a transaction. A request's scope is its user's municipality
# (core.auth sets it); nothing is visible before that. A block that must read or write across
# municipalities says so, greppably, with `crossing_municipalities(reason)` or
# `@crosses_municipalities(reason)`. SQLite has no row-level security: the scope is tracked and
# nothing is sent.


@dataclass(frozen=True)
class Scope:
    municipality_id: int | None = None
    platform: bool = False        # a platform administrator: rows without a municipality too
    crossing: str | None = None   # why this block crosses municipalities (declared), or None


NOTHING = Scope()


def current_scope():
    """The scope of this app context: set by the request (core.auth), a declared crossing, or
    the default — nothing (config TENANCY_DEFAULT_CROSSING names a crossing for contexts outside
    requests: the test suite's set-up and assertions; production leaves it unset)."""
    if not has_app_context():
        return NOTHING
    scope = g.get("_tenancy_scope")
    if scope is None:
        reason = current_app.config.get("TENANCY_DEFAULT_CROSSING")
        scope = Scope(crossing=reason) if reason else NOTHING
    return scope


def _settings(scope):
    return {"mid": "" if scope.municipality_id is None else str(int(scope.municipality_id)),
            "platform": "on" if scope.platform else "",
            "crossing": "on" if scope.crossing else ""}


_SET = ("SELECT set_config('motofiscal.municipality_id', %(mid)s, true), "
        "set_config('motofiscal.platform', %(platform)s, true), "
        "set_config('motofiscal.crossing', %(crossing)s, true)")


def _send(connection, scope):
    connection.exec_driver_sql(_SET, _settings(scope))


@event.listens_for(Session, "after_begin")
def _scope_each_transaction(_session, _transaction, connection):
    if connection.dialect.name == "postgresql":
        _send(connection, current_scope())


def use_scope(scope):
    """Make `scope` this app context's, for the current transaction too."""
    g._tenancy_scope = scope
    session = extensions.db.session()  # the app context's Session behind the scoped proxy
    if not session.in_transaction():
        return  # the next transaction's after_begin sends it
    try:
        connection = session.connection()
        if connection.dialect.name == "postgresql":
            _send(connection, scope)
    except (PendingRollbackError, DBAPIError):
        pass  # a failed transaction is rolled back before any further read; the next one sends it


def use_municipality(municipality_id, platform=False):
    """The request's scope: its user's municipality (a platform administrator: the one picked)."""
    use_scope(Scope(municipality_id=municipality_id, platform=platform))


@contextmanager
def crossing_municipalities(reason):
    """DECLARES that the block reads or writes rows of more than one municipality (or of one
    not yet known): authentication, public look-ups by an unguessable token, platform
    administration, daily jobs, the command line. `reason` says why; grep for this name to
    review every crossing."""
    previous = current_scope()
    use_scope(replace(previous, crossing=reason))
    try:
        yield
        # What the block staged is written while the crossing holds: the transaction's commit
        # comes later, at the boundary (core/transaction.py), when row-level security would judge
        # the rows under the scope restored below.
        session = extensions.db.session()
        if session.new or session.dirty or session.deleted:
            session.flush()
    finally:
        use_scope(previous)


def crosses_municipalities(reason):
    """Decorator form of `crossing_municipalities` (views, job tasks, commands)."""
    def decorator(function):
        @functools.wraps(function)
        def wrapped(*args, **kwargs):
            with crossing_municipalities(reason):
                return function(*args, **kwargs)
        wrapped.crosses_municipalities = reason
        return wrapped
    return decorator


def cross_on_command_line(group, reason):
    """Every command of `group` (and of its subgroups) runs crossing municipalities: the command
    line is the server's operator, and its commands (daily jobs, imports, back-ups, the demo)
    work on every municipality or on the one they are told. Declared once, in server/cli.py."""
    wrap_each_command(group, lambda callback: _crossing_callback(callback, reason), "crosses_municipalities")


def _crossing_callback(callback, reason):
    @click.pass_context
    def wrapped(ctx, *args, **kwargs):
        app_context = command_app_context(ctx)  # pushed by the transaction boundary's wrapper, outside
        if app_context is None:
            return ctx.invoke(callback, *args, **kwargs)
        with app_context, crossing_municipalities(reason):
            return ctx.invoke(callback, *args, **kwargs)

    return marked_wrapper(callback, wrapped, "crosses_municipalities", reason)
