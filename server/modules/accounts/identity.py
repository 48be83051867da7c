"""Who is asking: the user behind a bearer token (API) or a back-office session cookie, loaded
once per request into `g.user`; and the bearer tokens this server issues (only their hash stored).
The decorators that read `g.user` (roles, municipality scope) stay in core.auth."""
import functools
from datetime import timedelta

from flask import current_app, g, request, session
from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload

from ...core.auth import hash_token, is_global_admin, new_token, use_municipality_of, utcnow
from ...core.clock import as_utc
from ...core.tenancy import NOTHING, crossing_municipalities, use_scope
from ...extensions import db
from .models import ApiToken, User
from .sessions import session_user_id


@functools.cache
def _token_statement():
    """Token, device and user in one query (one round trip on every API request, not three),
    built once: building the query cost more than running it."""
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
            # A session closed or touched above is written while crossing: row-level security
            # judges it at the flush, and the request's own scope (anonymous, once it ended) could
            # not see the row when the boundary commits.
            db.session.flush()
        if g.user is not None:
            use_municipality_of(g.user, platform)


def issue_api_token(user, device=None, ttl_hours=None):
    """Create a bearer token; only its hash is stored. Returns (token_text, ApiToken)."""

    ttl = ttl_hours or current_app.config["API_TOKEN_TTL_HOURS"]
    text = new_token()
    row = ApiToken(user=user, device=device, token_hash=hash_token(text), created_at=utcnow(),
                   expires_at=utcnow() + timedelta(hours=ttl))
    db.session.add(row)
    return text, row
