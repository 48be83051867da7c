"""Back-office sessions end on the server (logout, idle, absolute lifetime, password change);
the cookie is Secure and HSTS is sent whenever the app is reached over HTTPS; production
responses name no server version."""
import os
import socket
import subprocess
import sys
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest

from helpers import csrf_token, login
from server.core.auth import utcnow
from server.extensions import db
from server.modules.accounts.models import User, UserSession

ROOT = Path(__file__).resolve().parent.parent


def _copy_of_cookie(app, client):
    thief = app.test_client()
    thief.set_cookie("session", client.get_cookie("session").value)
    return thief


def test_a_copied_cookie_stops_working_at_logout(client, app, demo):
    login(client, "backoffice.sapezal")
    thief = _copy_of_cookie(app, client)
    assert thief.get("/bo/").status_code == 200  # a copy works while the session is open...
    assert client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")}).status_code == 302
    response = thief.get("/bo/")  # ...and not one request after the logout
    assert response.status_code == 302 and "/login" in response.location
    with app.app_context():
        row = UserSession.query.one()
        assert row.ended_at is not None and row.end_reason == "logout"
        # Only a hash of the session id is stored.
        assert len(row.token_hash) == 64


def _age(app, **changes):
    with app.app_context():
        row = UserSession.query.filter(UserSession.ended_at.is_(None)).one()
        for name, delta in changes.items():
            setattr(row, name, utcnow() - delta)
        db.session.commit()


def test_an_idle_session_ends(client, app, demo):
    app.config["SESSION_IDLE_MINUTES"] = 30
    login(client, "backoffice.sapezal")
    _age(app, last_seen_at=timedelta(minutes=29))
    assert client.get("/bo/").status_code == 200  # still within the idle window, and touched
    _age(app, last_seen_at=timedelta(minutes=31))
    assert client.get("/bo/").status_code == 302
    with app.app_context():
        assert UserSession.query.one().end_reason == "idle"


def test_a_session_ends_after_its_absolute_lifetime_even_if_used(client, app, demo):
    app.config["SESSION_MAX_HOURS"] = 8
    login(client, "backoffice.sapezal")
    _age(app, created_at=timedelta(hours=7, minutes=59))
    assert client.get("/bo/").status_code == 200
    _age(app, created_at=timedelta(hours=8, minutes=1), last_seen_at=timedelta(seconds=5))
    assert client.get("/bo/").status_code == 302
    with app.app_context():
        assert UserSession.query.one().end_reason == "expired"


def test_session_cookie_expires_with_the_absolute_lifetime(client, app, demo):
    response = login(client, "backoffice.sapezal")
    cookie = response.headers["Set-Cookie"]
    assert "Expires=" in cookie and "HttpOnly" in cookie
    assert client.get_cookie("session").expires is not None
    remaining = client.get_cookie("session").expires - utcnow()
    assert timedelta(hours=11) < remaining <= timedelta(hours=12)


def test_a_password_reset_closes_every_open_session_of_the_user(client, app, demo):
    login(client, "backoffice.sapezal")
    with app.app_context():
        from server.modules.accounts.operations import set_password
        set_password(User.query.filter_by(username="backoffice.sapezal").one(), "outra-senha-longa")
        assert UserSession.query.one().end_reason == "password"
        db.session.commit()  # as the admin's request
    assert client.get("/bo/").status_code == 302


def test_a_forged_cookie_without_a_server_session_is_refused(client, app, demo):
    with app.app_context():
        user = User.query.filter_by(username="backoffice.sapezal").one()
        user_id, epoch = user.id, user.session_epoch
    with client.session_transaction() as session:  # what a leaked SECRET_KEY once allowed
        session["user_id"], session["epoch"], session["sid"] = user_id, epoch, "made-up"
    assert client.get("/bo/").status_code == 302


def _login_response(client, **kwargs):
    return client.post("/login", data={"username": "backoffice.sapezal", "password": "demo-motofiscal",
                                       "csrf_token": csrf_token(client)}, **kwargs)


def test_over_plain_http_no_secure_flag_and_no_hsts(client, demo):
    response = _login_response(client)
    assert "Secure" not in response.headers["Set-Cookie"]
    assert "Strict-Transport-Security" not in response.headers


def test_over_https_the_cookie_is_secure_and_hsts_is_sent(app, demo):
    client = app.test_client()
    token = csrf_token(client)
    # Over HTTPS, Flask-WTF also wants a same-site Referer (browsers send it: Referrer-Policy).
    response = client.post("https://localhost/login", data={
        "username": "backoffice.sapezal", "password": "demo-motofiscal", "csrf_token": token},
        headers={"Referer": "https://localhost/login"})
    assert response.status_code == 302
    assert "; Secure" in response.headers["Set-Cookie"]
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_behind_a_trusted_proxy_forwarded_https_counts(client, app, demo):
    proto = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.1", "Referer": "https://localhost/login"}
    untrusted = _login_response(client, headers=proto)
    assert "Secure" not in untrusted.headers["Set-Cookie"]  # anyone may write that header
    app.config["TRUSTED_PROXIES"] = 1
    trusted = _login_response(app.test_client(), headers=proto)
    assert "; Secure" in trusted.headers["Set-Cookie"]
    assert trusted.headers["Strict-Transport-Security"].startswith("max-age=")


def test_secure_cookie_can_be_forced_from_the_environment(monkeypatch, tmp_path):
    from server import create_app
    monkeypatch.setenv("SESSION_COOKIE_SECURE", "1")
    monkeypatch.setenv("SESSION_IDLE_MINUTES", "15")
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["SESSION_IDLE_MINUTES"] == 15
    assert app.session_interface.get_cookie_secure(app) is True


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_gunicorn_names_no_server_version(tmp_path):
    """Production runs gunicorn (README): its Server header must not say which version."""
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "SECRET_KEY": "x"}
    gunicorn = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen([str(gunicorn), "--workers", "1", "--bind", f"127.0.0.1:{port}", "server:create_app()"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
                    headers = response.headers
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("gunicorn did not start")
                time.sleep(0.3)
        servers = headers.get_all("Server") or []
        assert all(not any(ch.isdigit() for ch in value) for value in servers), servers
        assert "Werkzeug" not in " ".join(servers) and "Python" not in " ".join(servers)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
