"""Login limits with and without a reverse proxy: by address, by account from one address, by
account from everywhere (short window). Only failed attempts count."""
import time

from helpers import DEMO_PASSWORD, csrf_token
from ratelimit_backends import ratelimit_config  # noqa: F401  (each test on memory:// and on Redis)

PROXY = "10.0.0.1"


def _token(client, username, password, addr=PROXY, xff=None):
    headers = {"X-Forwarded-For": xff} if xff else {}
    return client.post("/api/v1/auth/token", json={"username": username, "password": password},
                       headers=headers, environ_base={"REMOTE_ADDR": addr}).status_code


def test_without_a_proxy_the_address_limit_holds_and_forwarded_for_is_ignored(client, app, demo):
    # Ten wrong passwords, each claiming another client address: with TRUSTED_PROXIES = 0 the
    # header is the client's own writing and changes nothing.
    statuses = [_token(client, f"user{i}", "x", addr="203.0.113.9", xff=f"198.51.100.{i}") for i in range(10)]
    assert statuses == [401] * 10
    assert _token(client, "fiscal.sapezal", DEMO_PASSWORD, addr="203.0.113.9", xff="198.51.100.77") == 429
    # Another real address is untouched.
    assert _token(client, "fiscal.sapezal", DEMO_PASSWORD, addr="203.0.113.10") == 200


def test_behind_a_trusted_proxy_each_client_has_its_own_bucket(client, app, demo):
    app.config["TRUSTED_PROXIES"] = 1
    statuses = [_token(client, f"user{i}", "x", xff="198.51.100.1") for i in range(10)]
    assert statuses == [401] * 10
    assert _token(client, "fiscal.sapezal", DEMO_PASSWORD, xff="198.51.100.1") == 429
    # Same proxy address, another client: not locked out by the first one.
    assert _token(client, "fiscal.sapezal", DEMO_PASSWORD, xff="198.51.100.2") == 200
    # A client cannot escape its bucket by prepending a forged address: the proxy appends the
    # real one last, and only the last (one trusted proxy) is believed.
    assert _token(client, "fiscal.sapezal", DEMO_PASSWORD, xff="192.0.2.50, 198.51.100.1") == 429
    with app.app_context():
        from server.core.audit import AuditLog
        assert AuditLog.query.filter_by(action="token_issued").one().ip == "198.51.100.2"


def test_without_proxy_config_the_audit_log_records_the_peer_not_the_header(client, app, demo):
    assert _token(client, "fiscal.sapezal", DEMO_PASSWORD, addr="203.0.113.4", xff="198.51.100.3") == 200
    with app.app_context():
        from server.core.audit import AuditLog
        assert AuditLog.query.filter_by(action="token_issued").one().ip == "203.0.113.4"


def test_a_guesser_locks_out_only_its_own_address_for_a_known_account(client, app, demo):
    app.config["TRUSTED_PROXIES"] = 1
    attacker = [_token(client, "fiscal.sapezal", "wrong", xff="198.51.100.66") for _ in range(5)]
    assert attacker == [401] * 5
    # The attacker now gets 429 even with the right password...
    assert _token(client, "fiscal.sapezal", DEMO_PASSWORD, xff="198.51.100.66") == 429
    # ...while the fiscal, from their own phone, logs in normally.
    assert _token(client, "fiscal.sapezal", DEMO_PASSWORD, xff="198.51.100.20") == 200
    # And the attacker's address may still try other accounts (the address limit is wider).
    assert _token(client, "backoffice.sapezal", DEMO_PASSWORD, xff="198.51.100.66") == 200


def test_the_back_office_login_shares_the_account_bucket(client, app, demo):
    for _ in range(3):
        assert _token(client, "backoffice.sapezal", "wrong", addr="203.0.113.5") == 401
    token = csrf_token(client)
    statuses = [client.post("/login", data={"username": "backoffice.sapezal", "password": "wrong",
                                            "csrf_token": token},
                            environ_base={"REMOTE_ADDR": "203.0.113.5"}).status_code for _ in range(3)]
    assert statuses == [401, 401, 429]


def test_distributed_guessing_is_capped_per_account_for_a_short_window(client, app, demo):
    app.config["TRUSTED_PROXIES"] = 1
    app.config["LOGIN_ACCOUNT_RATE_LIMIT"] = "4 per 2 seconds"
    statuses = [_token(client, "fiscal.sapezal", "wrong", xff=f"198.51.100.{i}") for i in range(4)]
    assert statuses == [401] * 4
    # A fifth address, even with the right password: the account is slowed down for everyone...
    assert _token(client, "fiscal.sapezal", DEMO_PASSWORD, xff="198.51.100.200") == 429
    # ...other accounts are not...
    assert _token(client, "backoffice.sapezal", DEMO_PASSWORD, xff="198.51.100.200") == 200
    # ...and the window is short: once the attack stops, the user is back almost at once.
    time.sleep(2.1)
    assert _token(client, "fiscal.sapezal", DEMO_PASSWORD, xff="198.51.100.200") == 200


def test_successful_logins_do_not_count(client, app, demo):
    statuses = [_token(client, "fiscal.sapezal", DEMO_PASSWORD, addr="203.0.113.7") for _ in range(12)]
    assert statuses == [200] * 12


def test_operator_activation_is_limited_per_address_and_per_code(client, app, demo):
    app.config["TRUSTED_PROXIES"] = 1

    def activate(xff, code="AAAA-AAAA-AAAA-AAAA", municipality="sapezal"):
        return client.post("/api/v1/operator/activate", json={"municipality": municipality, "code": code},
                           headers={"X-Forwarded-For": xff}, environ_base={"REMOTE_ADDR": PROXY}).status_code

    assert [activate("198.51.100.1") for _ in range(5)] == [422] * 5
    assert activate("198.51.100.1") == 429  # this code from this address: enough
    assert activate("198.51.100.1", "aaaa aaaa aaaa aaaa", " Sapezal") == 429  # the same pair, typed otherwise
    # (The same code with another municipality is another pair, issue 39:
    # tests/test_operator_activation_limits.py.)
    assert activate("198.51.100.2") == 422  # another client behind the same proxy still gets an answer
    # Failures (422) count, refusals (429) do not: 5 + 5 = ten failures from this address.
    assert [activate("198.51.100.1", f"BBBB-BBBB-BBBB-BBB{c}") for c in "34678"] == [422] * 5
    assert activate("198.51.100.1", "BBBB-BBBB-BBBB-BBB9") == 429
    # One code from everywhere: capped per minute (a distributed guess of one known code).
    statuses = [activate(f"198.51.101.{i}", "CCCC-CCCC-CCCC-CCCC") for i in range(31)]
    assert statuses == [422] * 30 + [429]
