"""No client input produces a 500: every route and method, as anonymous, fiscal (API token),
back office and municipal admin (session + CSRF) callers, with *generated* hostile input.

Routes come from the app's URL map and field names from the app's own schemas and forms (the
pages are fetched and their `name="…"` attributes read), so new endpoints and fields are covered
without touching this file. Each hostile value below once broke a public server somewhere
(issue 8): it is sent in every query parameter, every form field and every JSON field, on paths
built with real ids of the caller's municipality (so the view itself runs) and with garbage ids.
As a query, every value goes to the routes whose own code reads the query, the first to every
route (`_QueryReads`: the others ran the same code whatever the query held)."""
import json
import re
from urllib.parse import quote, urlencode

import marshmallow
import pytest

from conftest import PG_URL
from helpers import api_token, csrf_token, login
from server.extensions import db

HOSTILE_STRINGS = {
    "lone surrogate": "\ud800",
    "reversed surrogates": "a\udfff\ud800b",
    "int64 overflow": "9223372036854775808",
    "int64 underflow": "-9223372036854775809",
    "very large": "1" * 400,
    "NaN": "NaN",
    "Infinity": "-Infinity",
    "float overflow": "1e309",
    "large float": "1.8e19",
    "CRLF header injection": "/\r\nX-Injected: 1",
    "tab redirect": "/\t/evil.example",
    "control characters": "\x01\x08\x1b[31m\x7f",
    "right-to-left override": "\u202egpj.exe",
    "long text": "ç" * 600,
    "Brazilian decimal": "1.234,56",
    "date out of range": "9999-99-99",
}
HOSTILE_JSON = {**HOSTILE_STRINGS,
                "2**63": 2**63, "-(2**63)-1": -(2**63) - 1, "10**30": 10**30, "huge float": 1.8e19,
                "NaN number": float("nan"), "Infinity number": float("inf"), "list": [], "object": {},
                "boolean": True, "nested 40": json.loads("[" * 40 + "]" * 40)}
DOOR_JSON = {label: HOSTILE_JSON[label] for label in ("lone surrogate", "NaN number", "Infinity number")}
DEEP_BODIES = ["[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000,
               '{"username": ' + "[" * 1000 + "]" * 1000 + "}", '{"value": NaN, "facts": {"x": Infinity}}']
GARBAGE_PATH = ["0", "-1", "99999999999999999999", "abc", "%00", "%ED%A0%80", "%0d%0aX:%201",
                "..%2F..%2Fetc", "1;DROP TABLE permit"]
QUERY_NAMES = {"page", "q", "cursor", "next", "situacao", "alerta", "ordem", "entidade", "id", "m",
               "periodo", "de", "ate", "formato", "lista"}

# Ending the caller's own session would turn the rest of the run anonymous (own tests cover them).
SESSION_ENDING = {"static", "accounts.logout", "accounts_api.revoke"}


def _schema_fields():
    names = set()
    pending = [marshmallow.Schema]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        names.update(getattr(cls, "_declared_fields", {}))
    return names


def _real_ids(app):
    """Path values that reach the view: ids of the back office's own municipality."""
    from server.modules.accounts.models import User
    from server.modules.registry.models import Company, Municipality, Operator, Permit, Ponto, Vehicle
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()

        def first(model):
            row = model.query.filter_by(municipality_id=muni.id).order_by(model.id).first()
            return str(row.id) if row else "1"
        return {"operator": first(Operator), "company": first(Company), "vehicle": first(Vehicle),
                "ponto": first(Ponto), "permit": first(Permit),
                "user_id": str(User.query.filter_by(username="fiscal.sapezal").one().id),
                "slug": "sapezal", "action": "suspend", "filename": "cracha.png", "payload": "ABC"}


def _real_path(rule, ids):
    path = rule.rule
    for arg in rule.arguments:
        kind = next((k for k in ("operator", "company", "vehicle", "ponto", "permit") if k in rule.endpoint), None)
        value = ids.get(arg) or (ids[kind] if arg == "ident" and kind else "1")
        path = re.sub(r"<(?:[^<>]+:)?%s>" % arg, value, path)
    return path


PATH_HOSTILE = ("lone surrogate", "int64 overflow", "CRLF header injection", "control characters")


def _garbage_paths(rule):
    if not rule.arguments:
        return
    for value in [*GARBAGE_PATH, *(quote(HOSTILE_STRINGS[k], safe="", errors="surrogatepass") for k in PATH_HOSTILE)]:
        path = rule.rule
        for arg in rule.arguments:
            path = re.sub(r"<(?:[^<>]+:)?%s>" % arg, value, path)
        yield path


def _encode(values):
    return urlencode(values, encoding="utf-8", errors="surrogatepass")


class Caller:
    def __init__(self, client, headers, token):
        self.client, self.headers, self.token, self.count = client, headers, token, 0

    def send(self, method, path, what, **kwargs):
        # Each request from its own address: the login limits must not hide a view from the run.
        self.count += 1
        addr = f"10.{self.count >> 16 & 255}.{self.count >> 8 & 255}.{self.count & 255}"
        response = self.client.open(path, method=method, headers=self.headers,
                                    environ_base={"REMOTE_ADDR": addr}, **kwargs)
        assert response.status_code < 500, \
            f"{method} {path[:120]} {what} → {response.status_code}: {response.get_data(as_text=True)[:300]}"
        assert "X-Injected" not in response.headers
        return response


def _caller(app, client, who):
    headers, token = {}, None
    if who == "fiscal":
        headers = api_token(client, "fiscal.sapezal")
    elif who in ("backoffice", "admin"):
        if who == "admin":
            from server.modules.accounts.models import User
            from server.modules.registry.models import Municipality
            with app.app_context():
                muni = Municipality.query.filter_by(slug="sapezal").one()
                admin = User(username="admin.sapezal", name="Admin municipal", role="admin", municipality_id=muni.id)
                admin.set_password("senha-segura-123")
                db.session.add(admin)
                db.session.commit()
            login(client, "admin.sapezal", "senha-segura-123")
        else:
            login(client, "backoffice.sapezal")
        token = csrf_token(client, "/bo/")
    return Caller(client, headers, token)


def _field_names(caller, rules, ids):
    names = set(_schema_fields())
    for rule in rules:
        if "GET" in rule.methods and not rule.rule.startswith("/api/"):
            page = caller.client.get(_real_path(rule, ids), headers=caller.headers)
            if page.mimetype == "text/html":
                names.update(re.findall(r'name="([^"]+)"', page.get_data(as_text=True)))
    names.discard("csrf_token")
    return sorted(names)


class _QueryReads(set):
    """Which views of the query string a route's own code read: its view, the templates it renders,
    its error handlers and after-request hooks. Werkzeug derives each view of the query (args,
    values, url, full_path) from the environ on first use, and the app reads no other (no
    `query_string` or environ in server/). A route whose code read none of them while handling a
    hostile query ran the same code whatever the query said, so the other values are not sent to
    it as queries (they still go in its forms and JSON). The before-request hooks every route
    shares (the NUL check reads every query) still get every value through the routes that read."""

    def watch(self, monkeypatch):
        from flask import Flask
        from werkzeug.sansio.request import Request as BaseRequest
        from werkzeug.wrappers import Request
        self.inside = False
        for cls, name in ((BaseRequest, "args"), (BaseRequest, "full_path"), (BaseRequest, "url"), (Request, "values")):
            derive = cls.__dict__[name].fget

            def read(request, name=name, derive=derive):
                if self.inside:
                    self.add(name)
                derived = request.__dict__.setdefault("_query_views", {})
                if name not in derived:
                    derived[name] = derive(request)
                return derived[name]
            # A plain property, seen on every read (werkzeug's cached_property is seen on the first
            # only: the before-request hooks' read would hide the view's).
            monkeypatch.setattr(cls, name, property(read))
        for step in ("dispatch_request", "handle_user_exception", "process_response"):
            monkeypatch.setattr(Flask, step, self._route_code(getattr(Flask, step)))
        return self

    def _route_code(self, step):
        def run(app, *args, **kwargs):
            outer, self.inside = self.inside, True
            try:
                return step(app, *args, **kwargs)
            finally:
                self.inside = outer
        return run


def _door_roles(app, rule):
    """The roles a route's door lets in, as its view declares them (login_required, api_auth), or
    None when the view does not say (public, or guarded some other way)."""
    view = app.view_functions.get(rule.endpoint)
    roles = getattr(view, "roles", None)
    return roles if roles is not None else getattr(view, "api_roles", None)


def _fuzzed_by_backoffice(app, rule):
    """A route whose door lets the back office in as it lets the municipal admin in: the
    back-office caller's run already sent it every value through the same view (the views
    differ by role only in the links they show, never in what they read)."""
    roles = _door_roles(app, rule)
    return bool(roles) and "backoffice" in roles and "admin" in roles


# Every caller on PostgreSQL, the production database and the stricter of the two (an unbounded
# integer fails there beyond 2**31, on SQLite only beyond 2**63; text beyond its column's length
# and NUL fail there only): a view that leaks a database error as a 500 fails there first. On
# SQLite (the embedded default) the public and phone surface again; the back-office callers'
# ~4,000 requests each, already sent to PostgreSQL, are not sent twice (issue 23: expensive
# fuzzing scoped, not dropped).
CALLERS = ["anonymous", "fiscal", "backoffice", "admin"] if PG_URL else ["anonymous", "fiscal"]


READS_ITS_QUERY = {"backoffice": "/bo/permissoes/", "fiscal": "/api/v1/field/data", "admin": "/bo/usuarios/",
                   "anonymous": "/bo/permissoes/"}


@pytest.mark.parametrize("who", CALLERS)
def test_no_route_answers_500_to_generated_hostile_input(app, client, demo, who, monkeypatch):
    reads, readers = _QueryReads().watch(monkeypatch), []
    caller = _caller(app, client, who)
    ids = _real_ids(app)
    rules = [rule for rule in app.url_map.iter_rules() if rule.endpoint not in SESSION_ENDING]
    names = _field_names(caller, rules, ids)
    if who == "admin":  # the admin's own routes (users, LGPD, retention…) and those without a declared door
        rules = [rule for rule in rules if not _fuzzed_by_backoffice(app, rule)]
    csrf = {"csrf_token": caller.token} if caller.token else {}
    # Every route gets the same bodies: encoded once per value, not once per route (the encoding of
    # 289 fields × 600 characters was a tenth of the back-office callers' time).
    queries = {label: _encode({name: value for name in QUERY_NAMES}) for label, value in HOSTILE_STRINGS.items()}
    forms = {label: _encode({**{name: value for name in names}, **csrf}) for label, value in HOSTILE_STRINGS.items()}
    jsons = {label: json.dumps({name: value for name in names}) for label, value in HOSTILE_JSON.items()}
    for rule in rules:
        methods = sorted(rule.methods - {"HEAD", "OPTIONS"}) or ["HEAD"]  # a HEAD-only route (is the photo there?)
        for path in _garbage_paths(rule):
            for method in methods:
                caller.send(method, path, "(garbage path)")
        path = _real_path(rule, ids)
        probe = caller.send(methods[0], path, "(no input)")
        # Refused before the view ran (login required, wrong role): more values would only
        # test the door again, which the values below still do once.
        shut = probe.status_code in (401, 403) or (probe.status_code == 302 and "/login" in probe.location)
        strings = {k: HOSTILE_STRINGS[k] for k in PATH_HOSTILE} if shut else HOSTILE_STRINGS
        asks = "GET" in methods  # every value as a query, while the route's own code reads it
        for index, label in enumerate(strings):
            if asks:
                reads.clear()
                caller.send("GET", f"{path}?{queries[label]}", f"query {label}")
                if index == 0:  # decided by the first value, once: is the query read at all?
                    asks = bool(reads)
                    readers.extend([rule.rule] if asks else [])
            for method in (m for m in methods if m != "GET"):
                caller.send(method, f"{path}?{queries[label]}", f"form {label}", data=forms[label],
                            content_type="application/x-www-form-urlencoded")
        # Back-office forms refuse JSON at the CSRF check: there only what the door reads matters.
        json_values = HOSTILE_JSON if path.startswith("/api/") and not shut else DOOR_JSON
        for method in (m for m in methods if m != "GET"):
            for label in json_values:
                caller.send(method, path, f"json {label}", data=jsons[label], content_type="application/json")
            for body in DEEP_BODIES[:1] if shut else DEEP_BODIES:
                caller.send(method, path, f"json {body[:30]}", data=body, content_type="application/json")
            caller.send(method, path, "bad json", data=b"\xff\xfe not json", content_type="application/json")
    assert caller.count > 500  # the generator did generate
    # The watch does see a route that reads its query: the permit list's filters, the phone's
    # cursor, the admin's user list, the login redirect's `next` (taken from the path and query).
    assert READS_ITS_QUERY[who] in readers, readers
