"""Who is asking, what they may do, and which municipality's data they may touch.

Back office: session cookie (user id) + CSRF. API (/api/): bearer token only, stored hashed.
Every view declares its roles; every query goes through the municipality scope helpers, and a
record of another municipality answers 404 (not 403) so ids of other municipalities leak nothing.
"""
import functools
import hashlib
import secrets
from datetime import datetime, timezone

from flask import g, redirect, request, session, url_for

from .errors import ApiError
from .tenancy import owned_or_404, use_municipality

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


def use_municipality_of(user, platform):
    """The rest of the request sees its user's municipality only (core/tenancy.py, row-level
    security): a platform administrator's, the one picked in the session, plus the platform's
    own rows. (`platform` is passed in: reading the user's row again may need the crossing.)"""
    mid = session.get("municipality_id") if platform else user.municipality_id
    use_municipality(mid, platform=platform)


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
        wrapped.roles = roles  # who passes the door (kept by functools.wraps up the decorator chain)
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
