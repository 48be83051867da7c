"""Back-office sessions that really end.

The signed cookie carries a random session id (`sid`); the server keeps only its SHA-256 in
`accounts.UserSession`. Every request checks that row: open (not logged out), used within
SESSION_IDLE_MINUTES and younger than SESSION_MAX_HOURS. Logout closes the row, so a copied
cookie is worthless afterwards. A password change or deactivation closes every row of the user
(and still bumps User.session_epoch, kept in the cookie as a second check).

The cookie is Secure whenever the request came over HTTPS (SESSION_COOKIE_SECURE = None, the
default; True/False force it), so nobody has to remember to turn it on in production.

The writes here (a session closed, last_seen_at touched) are staged in the request that found
them and held by its boundary (core/transaction.py) like the rest of it: nearly always, since a
request whose session ended is anonymous and a page that needs a user answers it with a redirect
to the login. When that request answers an error instead (a 404 under an old bookmark), the close
is not recorded; it need not be: the session is dead all the same, because every request judges
the row from its own dates (created_at, last_seen_at), the cookie is cleared, and a copy of it
presented later closes the row then. Keeping the close with keep_on_error() would keep the rest
of that request's writes too, which an error answer must not.
"""
from datetime import timedelta

from flask import current_app, has_request_context, request, session
from flask.sessions import SecureCookieSessionInterface

from ...core.auth import hash_token, new_token, utcnow
from ...core.clock import as_utc
from ...extensions import db
from .models import UserSession

TOUCH_EVERY = timedelta(minutes=1)  # last_seen_at is written at most once a minute per session


def _limits():
    config = current_app.config
    return timedelta(minutes=config["SESSION_IDLE_MINUTES"]), timedelta(hours=config["SESSION_MAX_HOURS"])


def start_session(user):
    """Log `user` in: a fresh session id in a fresh cookie (no fixation). Staged: the request commits."""
    session.clear()
    sid = new_token()
    now = utcnow()
    db.session.add(UserSession(user_id=user.id, token_hash=hash_token(sid), created_at=now, last_seen_at=now))
    session.permanent = True  # the cookie itself expires with the absolute lifetime
    session["sid"] = sid
    session["user_id"] = user.id
    session["epoch"] = user.session_epoch


def _current_row():
    sid = session.get("sid")
    if not isinstance(sid, str) or not sid:
        return None
    return UserSession.query.filter_by(token_hash=hash_token(sid)).first()


def _close(row, reason, now=None):
    row.ended_at = now or utcnow()
    row.end_reason = reason


def session_user_id():
    """The user id of a live session, or None (an ended, idle or too old session is closed and
    the cookie cleared). Writes last_seen_at at most once a minute."""
    row = _current_row()
    if row is None or row.ended_at is not None or row.user_id != session.get("user_id"):
        session.clear()
        return None
    now = utcnow()
    idle, absolute = _limits()
    reason = ("expired" if now - as_utc(row.created_at) > absolute
              else "idle" if now - as_utc(row.last_seen_at) > idle else None)
    if reason:
        _close(row, reason, now)
        session.clear()
        return None
    if now - as_utc(row.last_seen_at) > TOUCH_EVERY:
        row.last_seen_at = now
    return row.user_id


def end_session(reason="logout"):
    """Close the current session on the server and clear the cookie. Staged: the request commits."""
    row = _current_row()
    if row is not None and row.ended_at is None:
        _close(row, reason)
    session.clear()


def end_user_sessions(user_id, reason):
    """Close every open session of a user (password change, deactivation), with the change that asks it."""
    now = utcnow()
    for row in UserSession.query.filter_by(user_id=user_id, ended_at=None):
        _close(row, reason, now)


class SessionInterface(SecureCookieSessionInterface):
    def get_cookie_secure(self, app):
        configured = app.config.get("SESSION_COOKIE_SECURE")
        if configured is None:
            return has_request_context() and request.is_secure
        return bool(configured)


def init_app(app):
    app.session_interface = SessionInterface()
    app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(hours=app.config["SESSION_MAX_HOURS"])
