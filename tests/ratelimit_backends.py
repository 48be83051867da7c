"""The limiter's storage for the rate-limit tests: memory:// and the Redis of this machine.

Import `ratelimit_config` into a test module (`from ratelimit_backends import ratelimit_config`)
and its tests run twice. The Redis run uses its own database number and a key prefix of its own
per test (the Redis is shared with other people's runs), and deletes its keys afterwards. When no
Redis answers, that run is skipped with the reason; memory:// always runs.
"""
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

REDIS_URL = os.environ.get("MOTOFISCAL_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")
ROOT = Path(__file__).resolve().parent.parent


def redis_answers(url=REDIS_URL) -> bool:
    import redis
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5).ping())
    except redis.RedisError:
        return False


def delete_keys(pattern, url=REDIS_URL):
    """Delete the keys matching `pattern` (Redis glob)."""
    import redis
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(pattern, count=1000))
    if keys:
        client.delete(*keys)


@pytest.fixture(params=["memory", "redis"])
def ratelimit_config(request):
    if request.param == "memory":
        yield {}
        return
    if not redis_answers():
        pytest.skip(f"no Redis answers at {REDIS_URL}: the limits ran on memory:// only")
    prefix = f"motofiscal-test-{uuid.uuid4().hex}"
    yield {"RATELIMIT_STORAGE_URI": REDIS_URL, "RATELIMIT_STORAGE_OPTIONS": {"key_prefix": prefix}}
    delete_keys(f"{prefix}:*")


# Another app server: a second Python process with its own app (and so its own limiter), over the
# same database and limiter storage, making failed token requests from one client address.
_OTHER_SERVER = """
import json, sys
from server import create_app
config, address, count = json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[3])
client = create_app(config).test_client()
statuses = [client.post("/api/v1/auth/token", json={"username": f"ninguem{i}", "password": "x"},
                        environ_base={"REMOTE_ADDR": address}).status_code for i in range(count)]
print(json.dumps(statuses))
"""


def fail_logins_on_another_server(config: dict, address: str, count: int) -> list[int]:
    done = subprocess.run([sys.executable, "-c", _OTHER_SERVER, json.dumps(config), address, str(count)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
