"""`GET /healthz`: what a load balancer asks every few seconds (docs/operations.md, "Several app
servers"). The database answers or the server is down (503: it leaves the pool). Redis (the login
limits) and the object store may fail without taking the server out — logins count in the
process's memory, photos wait on the phones — but the answer says which is degraded, and the
change of state is logged once, not at every check. flask-limiter's own warning when it falls
back to memory ("Rate limit storage unreachable") is sent to the app's log too: by itself it goes
to a logger nobody reads under gunicorn."""
import logging

from flask import current_app, has_app_context

from ..extensions import db, limiter
from . import storage

class _ToAppLog(logging.Handler):
    """flask-limiter's records, through the app's logger (its handlers and gunicorn's stderr)."""

    def emit(self, record):
        (current_app.logger if has_app_context() else logging.getLogger("server")).handle(record)


def init_app(app):
    limiter_log = logging.getLogger("flask-limiter")
    limiter_log.disabled = False  # logging.config.fileConfig (alembic's, in `flask db upgrade`) disables it
    if not any(isinstance(h, _ToAppLog) for h in limiter_log.handlers):
        limiter_log.addHandler(_ToAppLog(logging.INFO))
        limiter_log.propagate = False  # once, through the app's logger
    app.add_url_rule("/healthz", "healthz", healthz)


def _redis_problem():
    uri = current_app.config.get("RATELIMIT_STORAGE_URI") or "memory://"
    if uri.startswith("memory://"):
        return None
    return None if limiter.storage is not None and limiter.storage.check() else "inacessível"


def _note(component, problem, consequence):
    """Log a component's change of state (per process), not every check."""
    states = current_app.extensions.setdefault("health_state", {})
    if states.get(component) == problem:
        return
    states[component] = problem
    if problem:
        current_app.logger.warning("%s degradado (%s): %s", component, problem, consequence)
    else:
        current_app.logger.info("%s respondendo de novo", component)


def healthz():
    try:
        db.session.execute(db.text("SELECT 1"))
    except Exception as err:
        current_app.logger.error("Banco de dados inacessível no /healthz: %s", err)
        db.session.rollback()
        return {"status": "down", "down": {"database": "inacessível"}}, 503
    degraded = {}
    redis = _redis_problem()
    _note("redis", redis, "os limites de login contam na memória de cada processo até ele voltar")
    if redis:
        degraded["redis"] = redis
    store = storage.health()
    _note("storage", store, "fotos e arquivos não podem ser gravados nem lidos")
    if store:
        degraded["storage"] = store
    if degraded:
        return {"status": "degraded", "degraded": degraded}
    return {"status": "ok"}
