"""Who is asking, what they may do, and which municipality's data they may touch.

Back office: session cookie (user id) + CSRF. API (/api/): bearer token only, stored hashed.
Every view declares its roles; every query goes through the municipality scope helpers, and a
record of another municipality answers 404 (not 403) so ids of other municipalities leak nothing.
"""
import functools
import hashlib
import secrets
from datetime import datetime, timedelta, timezone

from flask import current_app, g, redirect, request, session, url_for
from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload

from ..extensions import db
from .clock import as_utc
from .errors import ApiError
from .tenancy import NOTHING, crossing_municipalities, owned_or_404, use_municipality, use_scope

ROLES = ("admin", "backoffice", "fiscal", "operator")
ROLE_LABELS_PT = {"admin": "Administrador", "backoffice": "Back office", "fiscal": "Fiscal",
                  "operator": "Operador"}
STAFF_ROLES = ("admin", "backoffice")
# A phone the municipality revoked (lost, stolen) is told so by every authenticated API endpoint,
# so that the app wipes its data; a merely expired or logged-out token gets a plain 401.
DEVICE_REVOKED_MESSAGE = "Este aparelho foi desativado pela prefeitura. Os dados dele serão apagados."


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def utcnow():
    return datetime.now(timezone.utc)


@functools.cache
def _token_statement():
    """Token, device and user in one query (one round trip on every API request, not three),
    built once: building the query cost more than running it."""
    from ..modules.accounts.models import ApiToken
    return (select(ApiToken).options(joinedload(ApiToken.device), joinedload(ApiToken.user))
            .where(ApiToken.token_hash == bindparam("token_hash")))


def _user_from_bearer():
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return None
    token = db.session.execute(_token_statement(),
                               {"token_hash": hash_token(header[7:].strip())}).scalars().first()
    if token is None:
        return None
    if token.device is not None and token.device.status == "revoked":
        g.device_revoked = True  # api_auth answers 403 device_revoked instead of 401
        return None
    if token.revoked_at is not None or as_utc(token.expires_at) < utcnow():
        return None
    if token.device is not None and token.device.status != "active":
        return None
    g.api_token = token
    return token.user


def _user_from_session():
    from ..modules.accounts.models import User
    from .sessions import session_user_id

    if not session.get("user_id"):
        return None
    user_id = session_user_id()  # the server-side session row: open, not idle, not too old
    user = db.session.get(User, user_id) if user_id else None
    # A password change or deactivation invalidates sessions through the session epoch too.
    if user is None or session.get("epoch") != user.session_epoch:
        session.clear()
        return None
    return user


def init_app(app):
    @app.before_request
    def _load_user():
        g.api_token = None
        g.device_revoked = False
        use_scope(NOTHING)  # no municipality's rows are visible until we know who is asking
        with crossing_municipalities("authentication: the token or session names the user"):
            if request.path.startswith("/api/"):
                user = _user_from_bearer()
            else:
                user = _user_from_session()
            g.user = user if user is not None and user.active else None
            platform = g.user is not None and is_global_admin(g.user)
        if g.user is not None:
            use_municipality_of(g.user, platform)


def use_municipality_of(user, platform):
    """The rest of the request sees its user's municipality only (core/tenancy.py, row-level
    security): a platform administrator's, the one picked in the session, plus the platform's
    own rows. (`platform` is passed in: reading the user's row again may need the crossing.)"""
    mid = session.get("municipality_id") if platform else user.municipality_id
    use_municipality(mid, platform=platform)


def issue_api_token(user, device=None, ttl_hours=None):
    """Create a bearer token; only its hash is stored. Returns (token_text, ApiToken)."""
    from ..modules.accounts.models import ApiToken

    ttl = ttl_hours or current_app.config["API_TOKEN_TTL_HOURS"]
    text = new_token()
    row = ApiToken(user=user, device=device, token_hash=hash_token(text), created_at=utcnow(),
                   expires_at=utcnow() + timedelta(hours=ttl))
    db.session.add(row)
    return text, row


def _check_roles(user, roles):
    return user is not None and (not roles or user.role in roles)


def login_required(*roles):
    """HTML views: redirect to login when anonymous, 403 when the role does not fit."""
    def decorator(view):
        @functools.wraps(view)
        def wrapped(*args, **kwargs):
            if g.get("user") is None:
                return redirect(url_for("accounts.login", next=request.full_path))
            if not _check_roles(g.user, roles):
                raise ApiError(403, "forbidden")
            return view(*args, **kwargs)
        return wrapped
    return decorator


def api_auth(*roles):
    """API views: 401 envelope without a valid bearer token (403 device_revoked when the token's
    phone was revoked), 403 when the role does not fit."""
    def decorator(view):
        @functools.wraps(view)
        def wrapped(*args, **kwargs):
            if g.get("user") is None:
                if g.get("device_revoked"):
                    raise ApiError(403, "device_revoked", DEVICE_REVOKED_MESSAGE)
                raise ApiError(401, "unauthorized")
            if not _check_roles(g.user, roles):
                raise ApiError(403, "forbidden")
            return view(*args, **kwargs)
        wrapped.api_roles = roles  # read by core.openapi (security, 401/403 in the document)
        return wrapped
    return decorator


def is_global_admin(user=None) -> bool:
    user = user or g.get("user")
    return user is not None and user.role == "admin" and user.municipality_id is None


def current_municipality_id():
    """The municipality the current user works on (a global admin picks one in the session)."""
    user = g.get("user")
    if user is None:
        return None
    if is_global_admin(user):
        return session.get("municipality_id")
    return user.municipality_id


def require_municipality_id():
    mid = current_municipality_id()
    if mid is None:
        raise ApiError(409, "no_municipality", "Selecione um município antes de continuar.")
    return mid


def scoped(model):
    """A query limited to the current municipality (model must have municipality_id)."""
    return model.query.filter(model.municipality_id == require_municipality_id())


MAX_ID = 2**31 - 1  # ids are 32-bit integers on every database we run on


def get_scoped_or_404(model, ident):
    # An id out of range is simply not found (SQLite overflows on huge integers).
    if not isinstance(ident, int) or isinstance(ident, bool) or not 0 < ident <= MAX_ID:
        raise ApiError(404, "not_found")
    return owned_or_404(model, ident, require_municipality_id())


def check_municipality_slug(slug):
    """For URLs that name a municipality: it must be the caller's own (global admin: any)."""
    from ..modules.registry.models import Municipality

    muni = Municipality.query.filter_by(slug=slug).first()
    user = g.get("user")
    if muni is None or user is None or (not is_global_admin(user) and user.municipality_id != muni.id):
        raise ApiError(404, "not_found")
    if is_global_admin(user):
        use_municipality(muni.id, platform=True)  # the platform administrator reads the one named
    return muni
