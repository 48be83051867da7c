"""A views module's routes and blueprint hooks, recorded where the views are written.

A feature's blueprint.py creates its Blueprint and registers each views module's table on it
(`views.routes.register(bp)`), so the views never import the blueprint and there is no import
circle between them (docs/ARCHITECTURE.md, "Blueprints and views"):

    routes = RouteTable()                      # in the views module

    @routes.get("/bo/permissoes/")
    @staff_view
    def permit_list(): ...

Every call is replayed on the blueprint as it was written, in the order it was made: the same
rule, endpoint, options and decorated function as `@bp.get(...)` would have given, and the same
view functions for flask-limiter and the OpenAPI generator, which read them from the app.
"""


def _decorator(name):
    """`@table.<name>(...)`: recorded as `bp.<name>(...)(view)`; the view is returned unchanged."""
    def method(self, *args, **kwargs):
        def record(view):
            self._record(name, args, kwargs, view)
            return view
        return record
    method.__name__ = name
    return method


def _call(name):
    """`table.<name>(...)`: recorded as `bp.<name>(...)`."""
    def method(self, *args, **kwargs):
        self._record(name, args, kwargs, None)
    method.__name__ = name
    return method


class RouteTable:
    # Only the Blueprint methods the views use; add one here when a view needs it.
    route = _decorator("route")
    get = _decorator("get")
    post = _decorator("post")
    put = _decorator("put")
    delete = _decorator("delete")
    app_template_global = _decorator("app_template_global")
    app_template_filter = _decorator("app_template_filter")
    add_url_rule = _call("add_url_rule")
    add_app_template_global = _call("add_app_template_global")
    add_app_template_filter = _call("add_app_template_filter")

    def __init__(self):
        self._calls = []  # (Blueprint method, args, kwargs, decorated view or None), in order
        self._registered = False

    def app_context_processor(self, function):
        """Used bare, like Flask's: `@routes.app_context_processor`."""
        self._record("app_context_processor", (function,), {}, None)
        return function

    def _record(self, name, args, kwargs, view):
        if self._registered:
            # The blueprint has been built: a later route would silently never be served.
            raise RuntimeError(f"{name}{args!r}: this route table was already registered on its blueprint")
        self._calls.append((name, args, kwargs, view))

    def register(self, bp):
        """Apply the recorded calls to `bp` (once, before the app registers the blueprint)."""
        for name, args, kwargs, view in self._calls:
            result = getattr(bp, name)(*args, **kwargs)
            if view is not None:
                result(view)
        self._registered = True
