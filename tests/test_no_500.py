"""No client input produces a 500: every route, every method, garbage parameters and bodies,
as anonymous, fiscal (API token) and back office (session + CSRF) users.

Routes are discovered from the app's URL map, so new endpoints are covered automatically.
"""
import random
import re

import pytest

from helpers import api_token, csrf_token, login

GARBAGE_PARAMS = ["0", "-1", "999999999", "99999999999999999999", "abc", "%00", "ç" * 300, "1;DROP TABLE permit", "..%2F..%2Fetc"]
GARBAGE_JSON = [None, [], "x", 12, {"a": {"b": [1, 2, {"c": None}]}},
                {"municipality": 5, "date": "2024-13-45", "facts": "nope", "history": {}},
                {"username": ["x"], "password": {"y": 1}}, {"payload": "ÿ" * 5000},
                {"username": "a\x00b", "password": "x\x00", "municipality": "sapezal\x00", "code": "\x00"}]
GARBAGE_FORM = [{}, {"username": "admin\x00", "password": "\x00", "q": "\x00"}, {"number": "", "plate": "???", "cpf": "111.111.111-11", "valid_until": "31/02/2024",
                     "capacity": "-5", "engine_cc": "1e309", "page": "-3", "vehicle_id": "abc",
                     "driver_ids": "x", "reason": ""}]


# Endpoints that end the caller's own session would turn the rest of the run anonymous;
# they are exercised by their own tests.
SESSION_ENDING = {"static", "accounts.logout", "accounts_api.revoke"}


def _urls(app):
    """(rule, path, every_param) for every route: each garbage value once in the path (cheap GETs
    try them all), plus two random picks that also get the full set of garbage bodies."""
    rng = random.Random(7)
    for rule in app.url_map.iter_rules():
        if rule.endpoint in SESSION_ENDING:
            continue
        choices = [{arg: value for arg in rule.arguments} for value in GARBAGE_PARAMS] if rule.arguments else [{}]
        picked = rng.sample(range(len(choices)), min(2, len(choices)))
        for index, values in enumerate(choices):
            path = rule.rule
            for arg in rule.arguments:
                path = re.sub(r"<(?:[^:<>]+:)?%s>" % arg, values[arg], path)
            yield rule, path, index in picked


def _check(response, what):
    assert response.status_code < 500, f"{what} → {response.status_code}: {response.get_data(as_text=True)[:300]}"


@pytest.mark.parametrize("who", ["anonymous", "fiscal", "backoffice"])
def test_no_route_answers_500(app, client, demo, who):
    headers = {}
    if who == "fiscal":
        headers = api_token(client, "fiscal.sapezal")
    elif who == "backoffice":
        login(client, "backoffice.sapezal")
    token = csrf_token(client, "/login") if who == "backoffice" else None
    for rule, path, with_bodies in _urls(app):
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if method == "GET":
                _check(client.get(path + "?page=-1&q=%25%27&status=x&cursor=abc", headers=headers), f"GET {path}")
                continue
            if not with_bodies:
                _check(client.open(path, method=method, headers=headers), f"{method} {path}")
                continue
            for body in GARBAGE_JSON:
                _check(client.open(path, method=method, json=body, headers=headers), f"{method} {path} json={body!r:.60}")
            _check(client.open(path, method=method, data=b"\xff\xfe not json", headers={
                **headers, "Content-Type": "application/json"}), f"{method} {path} bad json")
            for form in GARBAGE_FORM:
                data = dict(form, csrf_token=token) if token else form
                _check(client.open(path, method=method, data=data, headers=headers), f"{method} {path} form")
