"""A real S3-protocol server for tests: moto's `moto_server` on a free loopback port, one per test
session (conftest.py: the `s3_server` fixture), started and stopped here. Nothing leaves 127.0.0.1.

Other sessions (the two-server test) use it the same way: `server.settings(prefix)` gives the
settings an app server needs to store its blobs there, as config keys or environment variables.
"""
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

BUCKET = "motofiscal-test"
# moto accepts any credentials; boto3 insists on having some. Never real ones.
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _moto_server_command():
    beside = Path(sys.executable).with_name("moto_server")
    found = str(beside) if beside.exists() else shutil.which("moto_server")
    if found is None:
        raise RuntimeError("moto_server not installed: pip install 'moto[server]'")
    return found


class MotoServer:
    def __init__(self, log_path):
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self._log = open(log_path, "wb")
        self.process = subprocess.Popen([_moto_server_command(), "-H", "127.0.0.1", "-p", str(self.port)],
                                        stdout=self._log, stderr=subprocess.STDOUT,
                                        env={**os.environ, **CREDENTIALS})
        self._wait_until_listening()
        self.client().create_bucket(Bucket=BUCKET)

    def _wait_until_listening(self, seconds=60):
        deadline = time.monotonic() + seconds  # start-up on a loaded machine; not an assertion
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"moto_server exited with {self.process.returncode}; see {self._log.name}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"moto_server did not listen on {self.endpoint} within {seconds} s")

    def client(self):
        import boto3
        return boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
                            aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
                            region_name=CREDENTIALS["AWS_DEFAULT_REGION"])

    def settings(self, prefix=None) -> dict:
        """STORAGE_URL (a prefix of its own, fresh unless given), the endpoint and the credentials."""
        prefix = prefix or f"run-{uuid.uuid4().hex[:12]}"
        return {"STORAGE_URL": f"s3://{BUCKET}/{prefix}", "STORAGE_ENDPOINT_URL": self.endpoint, **CREDENTIALS}

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
