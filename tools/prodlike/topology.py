"""Everything the guide's production has, on loopback, with names of this run's own (a shared
PostgreSQL cluster and Redis may serve other runs at the same time):

- PostgreSQL: a new database with its owner and app role, made by the guide's `database` block as
  its roles (the superuser only where the guide says `sudo -u postgres`); the servers and every
  other command connect as the app role.
- Redis: the machine's, on a database number of its own (REDIS_URL).
- An S3-protocol store (moto's server, a dev dependency in pyproject.toml), its bucket made by the
  guide's `bucket` block.
- Two gunicorn servers started as the guide says (`gunicorn -c gunicorn.conf.py`, bind and workers
  by MOTOFISCAL_BIND / MOTOFISCAL_WORKERS), each with an instance folder of its own.
- nginx with the guide's block in front of both (nginx.py).

`down()` stops the processes and drops the databases and roles it made.
"""
import http.client
import os
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import create_engine, text

from . import nginx, opsdoc

ROOT = opsdoc.ROOT
PG_ADMIN_URL = os.environ.get("PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
# The tests' limits use database 13 (tests/ratelimit_backends.py); this topology its own.
REDIS_URL = os.environ.get("PROD_LIKE_REDIS_URL", "redis://127.0.0.1:6379/12")
# moto accepts any credentials; boto3 insists on having some.
STORE_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "prod-like", "AWS_SECRET_ACCESS_KEY": "prod-like",
                     "AWS_DEFAULT_REGION": "us-east-1"}
BUCKET = "motofiscal-fotos"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait(check, what, process=None, seconds=90):
    deadline = time.monotonic() + seconds  # start-up on a loaded machine; not an assertion
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not answer within {seconds} s")


def _healthy(port, tls_cert=None):
    if tls_cert:
        context = ssl.create_default_context(cafile=str(tls_cert))
        conn = http.client.HTTPSConnection("localhost", port, timeout=2, context=context)
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    conn.request("GET", "/healthz")
    return conn.getresponse().status == 200


def _listening(port):
    with socket.create_connection(("127.0.0.1", port), timeout=1):
        return True


def _stop(process, seconds=20):
    if process is not None and process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


class ProdLike:
    def __init__(self, folder: Path, pg_admin_url=PG_ADMIN_URL, log=print):
        self.folder = Path(folder)
        self.pg_admin_url = pg_admin_url
        self.log = log
        self.run_id = secrets.token_hex(4)
        base = f"mfpl_{self.run_id}"  # mfpl_: made by prod-like (down() drops them)
        self.settings = {  # the guide's settings block, with this run's values
            "DB_HOST": "127.0.0.1", "DB_NAME": base, "DB_OWNER": f"{base}_owner",
            "DB_OWNER_PASSWORD": secrets.token_hex(12), "DB_APP_ROLE": f"{base}_app",
            "DB_APP_PASSWORD": secrets.token_hex(12), "STORAGE_URL": f"s3://{BUCKET}/{base}",
            "BACKUP_DIR": str(self.folder / "backups"),
        }
        self.processes = {}
        self.nginx_port = free_port()
        self.public_url = f"https://localhost:{self.nginx_port}"
        self.upstream_ports = (free_port(), free_port())
        self.store_endpoint = None
        self.tls_cert = None

    # --- names and environments ----------------------------------------------------------
    def database_url(self, role="app", database=None):
        s = self.settings
        user, password = ((s["DB_OWNER"], s["DB_OWNER_PASSWORD"]) if role == "owner"
                          else (s["DB_APP_ROLE"], s["DB_APP_PASSWORD"]))
        return f"postgresql://{user}:{password}@{s['DB_HOST']}/{database or s['DB_NAME']}"

    def app_env(self, instance=None) -> dict:
        """/etc/motofiscal.env: what every app server and command reads (docs/operations.md,
        "Several app servers", identical on all), plus this machine's instance folder."""
        return {"DATABASE_URL": self.database_url("app"), "SECRET_KEY": f"prod-like-{self.run_id}-secret",
                "MOTOFISCAL_KEY_PASSPHRASE": f"prod-like-{self.run_id}-passphrase",
                "RATELIMIT_STORAGE_URI": REDIS_URL, "PUBLIC_BASE_URL": self.public_url, "TRUSTED_PROXIES": "1",
                "STORAGE_URL": self.settings["STORAGE_URL"], "STORAGE_ENDPOINT_URL": self.store_endpoint or "",
                **STORE_CREDENTIALS,
                "MOTOFISCAL_INSTANCE_PATH": str(instance or self.folder / "instance-cli"),
                "FLASK_APP": "server"}

    def guide_env(self, **extra) -> dict:
        """What a guide's block runs with: the settings, the app's env file, the superuser's address."""
        return {**self.app_env(), **self.settings, **opsdoc.pg_admin_env(self.pg_admin_url), **extra}

    def run_block(self, name, **kwargs) -> str:
        return opsdoc.run(name, self.guide_env(), **kwargs)

    # --- start and stop ----------------------------------------------------------------------
    def _step(self, what, function):
        started = time.monotonic()
        result = function()
        self.log(f"• {what:<44} ok ({time.monotonic() - started:.1f} s)")
        return result

    def up(self):
        self.folder.mkdir(parents=True, exist_ok=True)
        Path(self.settings["BACKUP_DIR"]).mkdir(exist_ok=True)
        try:
            self._step("object store (moto_server)", self._start_store)
            self._step("PostgreSQL: owner, database, app role", lambda: self.run_block("database"))
            self._step("object store bucket (the guide's command)", lambda: self.run_block("bucket"))
            self._step("two gunicorn servers", self._start_servers)
            self._step("nginx in front of both", self._start_nginx)
        except BaseException:
            self.down()
            raise
        return self

    def _start_store(self):
        program = Path(sys.executable).with_name("moto_server")
        if not program.exists():
            raise RuntimeError("moto_server not installed: `make setup` installs the dev dependencies")
        port = free_port()
        log = open(self.folder / "moto_server.log", "wb")
        self.processes["store"] = subprocess.Popen([str(program), "-H", "127.0.0.1", "-p", str(port)], stdout=log,
                                                   stderr=subprocess.STDOUT, env={**os.environ, **STORE_CREDENTIALS},
                                                   start_new_session=True)
        log.close()
        self.store_endpoint = f"http://127.0.0.1:{port}"
        _wait(lambda: _listening(port), "moto_server", self.processes["store"])

    def start_server(self, name, port, wait=True, **env) -> subprocess.Popen:
        """One app server as the guide starts it (`.venv/bin/gunicorn -c gunicorn.conf.py`)."""
        instance = self.folder / f"instance-{name}"
        instance.mkdir(exist_ok=True)
        log = open(self.folder / f"gunicorn-{name}.log", "wb")
        process = subprocess.Popen([str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", "gunicorn.conf.py"], cwd=ROOT,
                                   env={**os.environ, **self.app_env(instance), "MOTOFISCAL_BIND": f"127.0.0.1:{port}",
                                        "MOTOFISCAL_WORKERS": os.environ.get("PROD_LIKE_WORKERS", "1"), **env},
                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self.processes[f"gunicorn-{name}"] = process
        if wait:
            self.wait_server(name, port)
        return process

    def wait_server(self, name, port):
        _wait(lambda: _healthy(port), f"gunicorn {name} on {port} (see gunicorn-{name}.log)",
              self.processes[f"gunicorn-{name}"])

    def _start_servers(self):
        for name, port in zip("ab", self.upstream_ports):  # both start at once, then both are waited for
            self.start_server(name, port, wait=False)
        for name, port in zip("ab", self.upstream_ports):
            self.wait_server(name, port)

    def _start_nginx(self):
        process, self.tls_cert = nginx.start(self.folder / "nginx", [f"127.0.0.1:{p}" for p in self.upstream_ports],
                                             self.nginx_port)
        self.processes["nginx"] = process
        _wait(lambda: _healthy(self.nginx_port, self.tls_cert), "nginx (see nginx/error.log)", process)

    def stop_process(self, name):
        _stop(self.processes.pop(name, None))

    def down(self):
        for name in list(reversed(self.processes)):
            self.stop_process(name)
        self._drop_database_objects()

    def _drop_database_objects(self):
        s = self.settings
        admin = create_engine(self.pg_admin_url, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                names = conn.execute(text("SELECT datname FROM pg_database WHERE datname LIKE :p"),
                                     {"p": s["DB_NAME"] + "%"}).scalars().all()
                for name in names:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                for role in (s["DB_APP_ROLE"], s["DB_OWNER"]):
                    conn.execute(text(f'DROP ROLE IF EXISTS "{role}"'))
        finally:
            admin.dispose()

    def nginx_log(self) -> str:
        path = self.folder / "nginx" / "access.log"
        return path.read_text() if path.exists() else ""


def remove(folder: Path):
    shutil.rmtree(folder, ignore_errors=True)
