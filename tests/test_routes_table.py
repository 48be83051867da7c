"""core/routes.py: a RouteTable registered on a blueprint gives the app what the same decorators
written on the blueprint would have (issue 23), and refuses a route recorded too late."""
import pytest
from flask import Blueprint, Flask, render_template_string

from server.core.routes import RouteTable


def _decorate(target):
    """The same views, routes and hooks on a Blueprint or on a RouteTable."""
    def shout(view):
        def wrapped(*args, **kwargs):
            return view(*args, **kwargs).upper()
        wrapped.__name__ = view.__name__
        return wrapped

    @target.get("/x/", defaults={"ident": 0})
    @target.get("/x/<int:ident>")
    @shout
    def show(ident):
        return f"x{ident}"

    @target.route("/y", methods=["GET", "POST"], endpoint="why")
    def y():
        return "y"

    @target.post("/z")
    def z():
        return "z"

    @target.put("/z")
    def z_put():
        return "z put"

    target.add_url_rule("/w", "w", lambda: "w", methods=["GET"])

    @target.app_context_processor
    def context():
        return {"answer": 42}

    @target.app_template_filter("twice")
    def twice(value):
        return value * 2

    @target.app_template_global()
    def hello():
        return "olá"

    target.add_app_template_global(len, "size")
    target.add_app_template_filter(str.upper, "up")


def _rules(app):
    return [(r.rule, r.endpoint, sorted(r.methods), r.defaults) for r in app.url_map.iter_rules()]


def _app(bp):
    app = Flask(__name__)
    app.register_blueprint(bp)
    return app


def test_a_registered_table_gives_what_the_blueprint_decorators_give():
    direct = Blueprint("t", __name__, url_prefix="/p")
    _decorate(direct)
    table = RouteTable()
    _decorate(table)
    recorded = Blueprint("t", __name__, url_prefix="/p")
    table.register(recorded)

    a, b = _app(direct), _app(recorded)
    assert _rules(a) == _rules(b)  # same rules, endpoints, methods and defaults, in the same order
    assert sorted(a.view_functions) == sorted(b.view_functions)
    client = b.test_client()
    assert client.get("/p/x/7").text == "X7"  # the decorated view, decorators in their order
    assert client.get("/p/x/").text == "X0"
    assert client.post("/p/y").text == "y" and client.put("/p/z").text == "z put"
    assert client.get("/p/w").text == "w"
    with b.test_request_context("/p/y"):
        assert render_template_string("{{ answer }} {{ 'ab' | twice }} {{ hello() }} {{ size('abc') }} "
                                      "{{ 'q' | up }}") == "42 abab olá 3 Q"


def test_a_route_recorded_after_registration_is_refused():
    table = RouteTable()
    table.register(Blueprint("late", __name__))
    with pytest.raises(RuntimeError, match="already registered"):
        @table.get("/late")
        def late():
            return ""
