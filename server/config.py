"""Configuration: one defaults mapping, then instance/config.py, then the environment, then tests."""
import os
import secrets
from pathlib import Path

DEFAULTS = {
    "SQLALCHEMY_DATABASE_URI": None,  # filled in below: SQLite under instance/
    "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
    "SECRET_KEY": None,  # filled in below: persisted per instance so sessions survive restarts
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    # None = automatic: the cookie is Secure whenever the request came over HTTPS (directly, or
    # through a trusted proxy's X-Forwarded-Proto). True/False force it either way.
    "SESSION_COOKIE_SECURE": None,
    # Back-office sessions live in the database (accounts.UserSession): logout ends them on the
    # server. Idle = minutes without a request; absolute = hours since login, whatever happens.
    "SESSION_IDLE_MINUTES": 60,
    "SESSION_MAX_HOURS": 12,
    # Strict-Transport-Security on HTTPS responses (seconds; 0 = do not send).
    "HSTS_MAX_AGE": 365 * 24 * 3600,
    # How many reverse proxies in front of the app append to X-Forwarded-For/-Proto/-Host.
    # 0 = none: proxy headers are ignored (a client could forge them). See README, Production.
    "TRUSTED_PROXIES": 0,
    "WTF_CSRF_CHECK_DEFAULT": False,  # CSRF is enforced by core.security for non-API forms
    "WTF_CSRF_TIME_LIMIT": None,
    # Where the login limits count (core/ratelimit.py). memory:// counts per process: with several
    # gunicorn workers or app servers, set a Redis URI shared by all (docs/operations.md).
    "RATELIMIT_STORAGE_URI": "memory://",
    # Redis unreachable: count in the process's memory until it answers again (checked with
    # back-off), rather than failing every login with a 500 or dropping the limits altogether.
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
    "RATELIMIT_HEADERS_ENABLED": True,
    # Failed logins (back office, API token, operator activation), see core/ratelimit.py:
    "LOGIN_RATE_LIMIT": "10 per minute",  # per client address, whatever the account
    "LOGIN_ACCOUNT_ADDRESS_RATE_LIMIT": "5 per minute;20 per hour",  # per account from one address
    "LOGIN_ACCOUNT_RATE_LIMIT": "30 per minute",  # per account from everywhere (short window)
    "PASSWORD_HASH_METHOD": "scrypt",  # werkzeug method string
    "API_TOKEN_TTL_HOURS": 24 * 30,
    "PAGE_SIZE": 25,
    "MAX_CONTENT_LENGTH": 16 * 1024 * 1024,
    # Uploaded images larger than this (width × height) are refused before decoding (core/images).
    "IMAGE_MAX_PIXELS": 40_000_000,
    # Freshness limit of a device's reference data; older data gives DESCONHECIDO, never VÁLIDO.
    "TRUST_DATA_MAX_AGE_HOURS": 72,
    "TIMEZONE": "America/Cuiaba",
    # Address printed in every crachá's QR (https://host[:port], no path): the public page that
    # any phone camera opens. Set it in production; crachás keep the address they were issued with.
    "PUBLIC_BASE_URL": "http://localhost:5000",
    # Notices to operators (modules/notices, docs/notices.md). E-mail: an SMTP server for submission;
    # unset SMTP_HOST = no e-mail is sent (each notice records that there was no channel).
    "SMTP_HOST": None,
    "SMTP_PORT": 587,
    "SMTP_SECURITY": "starttls",  # starttls | ssl | none
    "SMTP_USERNAME": None,
    "SMTP_PASSWORD": None,
    "SMTP_FROM": None,
    "SMTP_FROM_NAME": None,
    "SMTP_TIMEOUT": 20,
    # SMS and WhatsApp: "package.module:factory" of a provider the municipality contracts (none shipped).
    "NOTICE_SMS_PROVIDER": None,
    "NOTICE_WHATSAPP_PROVIDER": None,
    # Rule packs published beside the shipped ones (shared_rules/packs/): a folder of pack files
    # (an amendment, a law encoded after the release) every app server reads; None = none.
    "RULES_EXTRA_PACKS_DIR": None,
    # Registry import jobs (registry_import.jobs): "thread" runs each job in a thread of the app
    # server that queued it (`make run`, one server); "worker" leaves them to `flask jobs worker`
    # (production, any number of app servers: docs/operations.md).
    "IMPORT_JOBS": "thread",
}

# Environment variables read on top of the instance config (name -> config key).
ENV_KEYS = {
    "DATABASE_URL": "SQLALCHEMY_DATABASE_URI",
    "SECRET_KEY": "SECRET_KEY",
    "SESSION_COOKIE_SECURE": "SESSION_COOKIE_SECURE",
    "RATELIMIT_STORAGE_URI": "RATELIMIT_STORAGE_URI",
    "TRUST_DATA_MAX_AGE_HOURS": "TRUST_DATA_MAX_AGE_HOURS",
    "TIMEZONE": "TIMEZONE",
    "TRUSTED_PROXIES": "TRUSTED_PROXIES",
    "SESSION_IDLE_MINUTES": "SESSION_IDLE_MINUTES",
    "SESSION_MAX_HOURS": "SESSION_MAX_HOURS",
    "HSTS_MAX_AGE": "HSTS_MAX_AGE",
    "IMAGE_MAX_PIXELS": "IMAGE_MAX_PIXELS",
    "LOGIN_RATE_LIMIT": "LOGIN_RATE_LIMIT",
    "LOGIN_ACCOUNT_ADDRESS_RATE_LIMIT": "LOGIN_ACCOUNT_ADDRESS_RATE_LIMIT",
    "LOGIN_ACCOUNT_RATE_LIMIT": "LOGIN_ACCOUNT_RATE_LIMIT",
    "PUBLIC_BASE_URL": "PUBLIC_BASE_URL",
    "SMTP_HOST": "SMTP_HOST",
    "SMTP_PORT": "SMTP_PORT",
    "SMTP_SECURITY": "SMTP_SECURITY",
    "SMTP_USERNAME": "SMTP_USERNAME",
    "SMTP_PASSWORD": "SMTP_PASSWORD",
    "SMTP_FROM": "SMTP_FROM",
    "SMTP_FROM_NAME": "SMTP_FROM_NAME",
    "SMTP_TIMEOUT": "SMTP_TIMEOUT",
    "NOTICE_SMS_PROVIDER": "NOTICE_SMS_PROVIDER",
    "NOTICE_WHATSAPP_PROVIDER": "NOTICE_WHATSAPP_PROVIDER",
    "MOTOFISCAL_RULES_EXTRA_PACKS": "RULES_EXTRA_PACKS_DIR",
    "IMPORT_JOBS": "IMPORT_JOBS",
}

# Keys whose default is None but whose environment value is a yes/no.
BOOLEAN_KEYS = {"SESSION_COOKIE_SECURE"}


def _coerce(value: str, default, key=None):
    if isinstance(default, bool) or key in BOOLEAN_KEYS:
        return value.strip().lower() in {"1", "true", "yes", "on"}
    if isinstance(default, int):
        return int(value)
    return value


def normalize_database_url(url: str) -> str:
    """Accept the usual postgres:// spellings and pin the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _instance_secret(instance: Path) -> str:
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def load_config(app, test_config=None):
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(DEFAULTS)
    app.config.from_pyfile("config.py", silent=True)
    for env_name, key in ENV_KEYS.items():
        if os.environ.get(env_name):
            app.config[key] = _coerce(os.environ[env_name], DEFAULTS.get(key), key)
    if test_config:
        app.config.from_mapping(test_config)
    if not app.config["SQLALCHEMY_DATABASE_URI"]:
        app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{instance / 'motofiscal.sqlite3'}"
    app.config["SQLALCHEMY_DATABASE_URI"] = normalize_database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _instance_secret(instance)
