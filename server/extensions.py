"""Extensions created unbound and attached to the app in init_extensions."""
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine

# Deterministic constraint names so Alembic migrations behave alike on SQLite and PostgreSQL.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

db = SQLAlchemy(metadata=MetaData(naming_convention=NAMING_CONVENTION))
migrate = Migrate(render_as_batch=True, compare_type=True)
csrf = CSRFProtect()
limiter = Limiter(key_func=get_remote_address, default_limits=[])
REDIS_TIMEOUTS = {"socket_connect_timeout": 2, "socket_timeout": 2}


@event.listens_for(Engine, "connect")
def _sqlite_foreign_keys(dbapi_connection, _record):
    # SQLite ignores foreign keys unless asked on every connection.
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def init_extensions(app):
    db.init_app(app)
    migrate.init_app(app, db, directory=str(app.root_path + "/../migrations"))
    csrf.init_app(app)
    if str(app.config.get("RATELIMIT_STORAGE_URI", "")).startswith("redis"):
        # Give up on an unreachable Redis within seconds (its default waits forever): a login, or the
        # load balancer's /healthz, then goes on with the in-memory fallback (core/health.py).
        app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", dict(REDIS_TIMEOUTS))
    limiter.init_app(app)
