"""What a worker's test apps share, so that building a fresh app for every test stays cheap.

Every test gets its own Flask app (`conftest.app`), ~3,000 of them a run. Building one compiled
its URL rules, its templates and its SQL statements again, and opened new database connections:
these pieces depend only on the code and the settings, never on a test's data, so the apps of one
worker share them. Test-only: production builds one app per process. Imported by conftest.py,
which installs them before any app is built.
"""
from jinja2 import MemcachedBytecodeCache


class _SharedBytecode(dict):
    """Jinja's memcached-style client over a dict: the test apps of one worker share compiled
    templates (each app has its own Jinja environment, so every test compiled every template it
    rendered again). Jinja checks each entry against the template's source checksum."""

    def set(self, key, value, timeout=None):
        self[key] = value


TEMPLATE_CACHE = MemcachedBytecodeCache(_SharedBytecode())


def _memoize_rule_parsing():
    """Werkzeug parses every rule of every new app again (its parts, regexes and weights): 29 of
    the 40 ms an app took to build, after the builders below were shared. The parse depends only
    on the rule's text, its host or subdomain, slash merging and which converter class each name
    means; the converters themselves are made anew for each app's map, with the same arguments."""
    from werkzeug.routing import Rule
    compile_rule = Rule.compile
    parsed = {}

    def shared_compile(self):
        url_map = self.map
        domain = (self.host if url_map.host_matching else self.subdomain) or ""
        key = (self.rule, domain, self.merge_slashes, url_map.host_matching,
               tuple(sorted(url_map.converters.items(), key=lambda item: item[0])))
        if key not in parsed:
            made = []
            get_converter = self.get_converter

            def recording(variable, name, args, kwargs):
                made.append((variable, name, args, dict(kwargs)))
                return get_converter(variable, name, args, kwargs)
            self.get_converter = recording
            try:
                compile_rule(self)
            finally:
                del self.get_converter
            parsed[key] = (tuple(self._parts), tuple(self._trace), tuple(made))
            return
        parts, trace, made = parsed[key]
        self._parts, self._trace, self._converters = list(parts), list(trace), {}
        for variable, name, args, kwargs in made:
            self._converters[variable] = url_map.converters[name](url_map, *args, **kwargs)
            self.arguments.add(variable)
        self._build = self._compile_builder(False).__get__(self, None)
        self._build_unknown = self._compile_builder(True).__get__(self, None)
    Rule.compile = shared_compile


def _memoize_url_builders():
    """Werkzeug compiles two URL-builder functions for every rule of every new app (generated
    Python, parsed and compiled): 75 of the 80 ms a test's app took to build. The generated
    function depends only on the rule's parsed parts, its defaults and the converters (it reaches
    the rule through its `.self` argument), so a worker's apps share them; the converters'
    settings are in the key, their map is not (each app has its own)."""
    from werkzeug.routing import Rule
    compile_builder = Rule._compile_builder
    builders = {}

    def shared_builder(self, append_unknown=True):
        converters = tuple(sorted((name, type(c).__qualname__, repr({k: v for k, v in vars(c).items() if k != "map"}))
                                  for name, c in self._converters.items()))
        defaults = tuple(sorted((str(k), repr(v)) for k, v in (self.defaults or {}).items()))
        key = (self.rule, tuple(self._trace), defaults, converters, append_unknown)
        if key not in builders:
            builders[key] = compile_builder(self, append_unknown)
        return builders[key]
    Rule._compile_builder = shared_builder


_SHARED_ENGINES = {}


def _share_engines():
    """Each test builds its own app, and Flask-SQLAlchemy gave each app a new engine — and
    SQLAlchemy's cache of compiled statements is per engine (its key holds the dialect object), so
    every test compiled every statement again: a fifth of the date-sensitive tests' profile. Apps
    with the same database settings share one engine here (events are registered on the Engine
    class, none on an engine). In-memory SQLite is left alone: there the engine is the database."""
    from flask_sqlalchemy import SQLAlchemy
    make_engine = SQLAlchemy._make_engine

    def shared_engine(self, bind_key, options, app):
        url = str(options.get("url", ""))
        if url in ("sqlite://", "sqlite:///:memory:") or ":memory:" in url or "mode=memory" in url:
            return make_engine(self, bind_key, options, app)
        key = repr(sorted((k, v.render_as_string(hide_password=False) if hasattr(v, "render_as_string") else repr(v))
                          for k, v in options.items()))
        if key not in _SHARED_ENGINES:
            _SHARED_ENGINES[key] = make_engine(self, bind_key, options, app)
        return _SHARED_ENGINES[key]
    SQLAlchemy._make_engine = shared_engine


def is_shared(engine):
    """Whether the engine serves every app of the worker with these settings (keep its pool)."""
    return any(engine is shared for shared in _SHARED_ENGINES.values())


_memoize_rule_parsing()
_memoize_url_builders()
_share_engines()
