"""The client's real address and scheme behind reverse proxies (werkzeug ProxyFix).

`TRUSTED_PROXIES` = how many proxies in front of the app append to X-Forwarded-For and set
X-Forwarded-Proto. With 0 (the default) those headers are ignored: without a proxy, any client
could write them and pick its own address for the login limits. With N, the N-th address from
the right of X-Forwarded-For is the client (the ones before it could be forged by the client).
X-Forwarded-Host is never trusted: the proxy must pass the Host header through.
The count is read per request, so tests (and an instance config) can change it on a built app.
"""
from werkzeug.middleware.proxy_fix import ProxyFix


class TrustedProxies:
    def __init__(self, app):
        self.app = app
        self.wsgi_app = app.wsgi_app

    def __call__(self, environ, start_response):
        count = int(self.app.config.get("TRUSTED_PROXIES") or 0)
        if count > 0:
            return ProxyFix(self.wsgi_app, x_for=count, x_proto=count, x_host=0)(environ, start_response)
        return self.wsgi_app(environ, start_response)


def init_app(app):
    app.wsgi_app = TrustedProxies(app)
