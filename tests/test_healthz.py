"""`/healthz` (issue 36, item 9): Redis failing was silent — 200 and nothing logged. Now a
degraded Redis or object store still answers 200 (the server keeps working) with the body naming
what is degraded, and the fallback is logged."""
import logging

import pytest

from helpers import csrf_token

UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1: refused at once


@pytest.fixture
def limiter_revived():
    """The limiter is one object for every app of the process: the fallback it falls into here must
    not carry over to the next test's Redis (it would count in memory there)."""
    yield
    from server.extensions import limiter
    limiter._storage_dead = False


def test_healthy(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.json == {"status": "ok"}


@pytest.mark.parametrize("ratelimit_config", [{"RATELIMIT_STORAGE_URI": UNREACHABLE_REDIS}], ids=["unreachable"])
def test_an_unreachable_redis_is_reported_and_the_fallback_logged(limiter_revived, app, client, caplog):
    caplog.set_level(logging.INFO)
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json["status"] == "degraded" and "redis" in answer.json["degraded"]
    assert "storage" not in answer.json["degraded"]
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("redis degradado" in m and "memória" in m for m in warned), warned
    # Logged once per change, not at every check of the balancer.
    seen = list(caplog.records)
    caplog.clear()
    assert client.get("/healthz").json["status"] == "degraded"
    assert not [r for r in caplog.records if "degradado" in r.getMessage()]
    # A login still works, counted in the process's memory; flask-limiter's warning reaches the app's log.
    wrong = client.post("/login", data={"username": "ninguem", "password": "errada",
                                        "csrf_token": csrf_token(client)})
    assert wrong.status_code in (200, 401, 422), wrong.status_code
    fallback = [r for r in seen + caplog.records if "falling back to in-memory" in r.getMessage()]
    assert fallback and fallback[0].levelno == logging.WARNING
    # Through the app's logger only (which gunicorn's stderr shows), once.
    assert not logging.getLogger("flask-limiter").propagate


def test_an_unreachable_object_store_is_reported(app, client, monkeypatch, caplog):
    for name, value in (("AWS_ACCESS_KEY_ID", "x"), ("AWS_SECRET_ACCESS_KEY", "x"), ("AWS_DEFAULT_REGION", "us-east-1")):
        monkeypatch.setenv(name, value)
    app.config.update(STORAGE_URL="s3://motofiscal/test", STORAGE_ENDPOINT_URL="http://127.0.0.1:1")
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json["status"] == "degraded" and "inacessível" in answer.json["degraded"]["storage"]
    assert any("storage degradado" in r.getMessage() for r in caplog.records)
