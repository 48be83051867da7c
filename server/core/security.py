"""CSRF on every non-API form and strict security headers on every response.

The JSON API under /api/ authenticates only with bearer tokens, never with the session cookie,
so a cross-site form cannot ride on it; everything else that changes state needs a CSRF token.
"""
from flask import request

from ..extensions import csrf

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


def init_app(app):
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
        return response
