"""Two real app servers (gunicorn, gunicorn.conf.py) on two free loopback ports over one
PostgreSQL database, one Redis and one storage: what a load balancer in front of several machines
gives the phones and the back office. Used by tests/test_two_servers.py.

Everything the servers must share is in `shared_env` (docs/operations.md, "Several app servers").
Storage is, for now, one shared instance folder (`MOTOFISCAL_INSTANCE_PATH`: evidence, operator
photos, issuer keys); with the object store, `storage_env` becomes the STORAGE_URL and endpoint
variables and each server may keep an instance folder of its own.
"""
import http.client
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def storage_env(object_store) -> dict:
    """The blobs in one S3-protocol store (tests/object_store.py); each server keeps its own
    instance folder, so a photo stored through one is seen by the other only through the store."""
    return object_store.settings()


def shared_env(database_url, redis_url, public_base_url, storage) -> dict:
    """What must be identical on every app server."""
    return {"DATABASE_URL": database_url, "SECRET_KEY": "two-servers-secret",
            "MOTOFISCAL_KEY_PASSPHRASE": "two-servers-passphrase", "RATELIMIT_STORAGE_URI": redis_url,
            "PUBLIC_BASE_URL": public_base_url, "TRUSTED_PROXIES": "1", **storage}


def start(port, env) -> subprocess.Popen:
    """gunicorn with the production settings, one worker (the second process is the other server)."""
    args = [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", str(ROOT / "gunicorn.conf.py"),
            "-b", f"127.0.0.1:{port}", "-w", "1", "--threads", "4", "--log-level", "warning",
            "--access-logfile", "/dev/null"]
    return subprocess.Popen(args, cwd=ROOT, env={**os.environ, **env}, start_new_session=True)


def wait_healthy(process, port, timeout_s=90):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn on {port} exited with {process.returncode}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn on {port} did not answer /healthz in {timeout_s} s")


def stop(process):
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def flask_cli(env, *args) -> str:
    """A `flask` command on an app server's machine (same environment as its gunicorn)."""
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "flask"), "--app", "server", *args], cwd=ROOT,
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


class Answer:
    """A requests response with the attributes of Flask's test response that the tests read."""

    def __init__(self, response):
        self.status_code = response.status_code
        self.headers = response.headers
        self.data = response.content
        self.raw = response

    @property
    def json(self):
        return self.raw.json()

    def get_data(self, as_text=False):
        return self.raw.text if as_text else self.data


class Http:
    """The slice of Flask's test client that tests/fieldsync_device.FakeDevice and tests/helpers
    use, over real HTTP to one server. `cookies` may be another Http's: one browser, two servers."""

    def __init__(self, base_url, cookies=None):
        self.base_url = base_url
        self.session = requests.Session()
        if cookies is not None:
            self.session.cookies = cookies

    def open(self, method, path, json=None, data=None, headers=None):
        response = self.session.request(method, self.base_url + path, json=json, data=data, headers=headers,
                                        allow_redirects=False, timeout=60)
        return Answer(response)

    def get(self, path, headers=None):
        return self.open("GET", path, headers=headers)

    def post(self, path, json=None, data=None, headers=None):
        return self.open("POST", path, json=json, data=data, headers=headers)

    def put(self, path, json=None, data=None, headers=None):
        return self.open("PUT", path, json=json, data=data, headers=headers)

    def head(self, path, headers=None):
        return self.open("HEAD", path, headers=headers)
