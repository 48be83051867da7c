"""A login limit reached through one app server holds on another when they share a Redis, and
does not with memory:// (each process counts alone): why several servers need RATELIMIT_STORAGE_URI.
The other server is a second Python process with its own app over the same database."""
from ratelimit_backends import fail_logins_on_another_server, ratelimit_config  # noqa: F401

ADDRESS = "203.0.113.40"


def _token_status(client, address=ADDRESS, username="ninguem"):
    return client.post("/api/v1/auth/token", json={"username": username, "password": "x"},
                       environ_base={"REMOTE_ADDR": address}).status_code


def test_a_limit_reached_on_one_server_holds_on_the_other_only_through_redis(app, client, ratelimit_config):  # noqa: F811
    keys = ("SQLALCHEMY_DATABASE_URI", "SECRET_KEY", "PASSWORD_HASH_METHOD", "RATELIMIT_ENABLED",
            "LOGIN_RATE_LIMIT")
    config = {"TESTING": True, **{k: app.config[k] for k in keys}, **ratelimit_config}
    # Ten failures from one address on the other server: its own limit is reached there.
    assert fail_logins_on_another_server(config, ADDRESS, 11) == [401] * 10 + [429]
    if ratelimit_config:
        assert _token_status(client) == 429  # the same address is held here too
    else:
        assert _token_status(client) == 401  # memory://: this process never saw those failures
    assert _token_status(client, "203.0.113.41") == 401  # another address is free on both


def test_an_unreachable_redis_falls_back_to_limits_in_memory(database_url, tmp_path):
    # Redis down (nothing listens on port 1): logins still answer, and the limits still hold,
    # counted in this process until Redis is back.
    from server import create_app
    from conftest import _base_config
    app = create_app({**_base_config(database_url, tmp_path), "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:1/0"})
    client = app.test_client()
    statuses = [_token_status(client, "203.0.113.42", f"ninguem{i}") for i in range(11)]
    assert statuses == [401] * 10 + [429]
