"""CSRF on every non-API form and strict security headers on every response.

The JSON API under /api/ authenticates only with bearer tokens, never with the session cookie,
so a cross-site form cannot ride on it; everything else that changes state needs a CSRF token.
"""
from flask import current_app, request

from ..extensions import csrf
from .errors import ApiError
from .http import SURROGATE, parsed_json

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


NUL_MESSAGE = "A requisição contém um caractere inválido (NUL)."
SURROGATE_MESSAGE = "A requisição contém um caractere inválido (surrogate UTF-16 isolado)."


def _has_nul():
    """NUL cannot be stored or compared in PostgreSQL text: refuse it at the door, in the path,
    query string, forms and JSON bodies alike (binary uploads are not inspected)."""
    if "\x00" in request.path:
        return True
    if any("\x00" in k or "\x00" in v for k, v in request.args.items(multi=True)):
        return True
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        return any("\x00" in k or "\x00" in v for k, v in request.form.items(multi=True))
    if request.mimetype == "application/json":
        raw = request.get_data(cache=True)
        if b"\\u0000" not in raw and b"\x00" not in raw:
            return False
        # A batch whose items are judged one by one (the sync push): a NUL inside one item is that
        # item's refusal, named by the view, never the whole batch's (issue 20).
        per_item = getattr(current_app.view_functions.get(request.endpoint), "nul_refused_per_item", None)
        body = parsed_json() if per_item else None
        if not isinstance(body, dict) or not isinstance(body.get(per_item), list):
            return True
        return holds_nul({key: value for key, value in body.items() if key != per_item})
    return False


def holds_nul(value):
    """Whether a decoded JSON value holds a NUL in any text or key (iterative: any depth)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _has_surrogate():
    """Lone UTF-16 surrogates cannot be encoded for the database, a hash or a header. Werkzeug
    decodes URLs and forms with replacement characters, so this is a second line for values
    that reach us already decoded."""
    values = [request.path, *(k + v for k, v in request.args.items(multi=True))]
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        values += [k + v for k, v in request.form.items(multi=True)]
    return any(SURROGATE.search(v) for v in values)


def init_app(app):
    @app.before_request
    def _reject_nul():
        if _has_nul():
            raise ApiError(400, "invalid_character", NUL_MESSAGE)
        if _has_surrogate():
            raise ApiError(400, "invalid_character", SURROGATE_MESSAGE)
        if request.is_json:
            # Every JSON body is parsed once, here: too deep or with lone surrogates → 400
            # on every endpoint, whether or not its view reads the body.
            parsed_json()

    @app.before_request
    def _csrf():
        if request.method in UNSAFE and not request.path.startswith("/api/"):
            csrf.protect()

    @app.after_request
    def _headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Permissions-Policy", "camera=(self), geolocation=(self)")
        # Over HTTPS (directly or through a trusted proxy): browsers must never come back over
        # plain HTTP. Not sent over HTTP, where it would mean nothing and could not be trusted.
        max_age = current_app.config.get("HSTS_MAX_AGE") or 0
        if request.is_secure and max_age > 0:
            response.headers.setdefault("Strict-Transport-Security", f"max-age={int(max_age)}")
        return response
