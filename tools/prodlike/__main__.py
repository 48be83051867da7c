"""`tools/prod-like` (`make prod-like`): start the topology, print where it answers, wait for
Ctrl-C, then stop it and drop what it made."""
import functools
import signal
import sys
import tempfile
from pathlib import Path

from .topology import ProdLike, remove


def main():
    folder = Path(tempfile.mkdtemp(prefix="motofiscal-prod-like-"))
    topology = ProdLike(folder, log=functools.partial(print, flush=True))
    try:
        topology.up()
    except Exception as err:  # noqa: BLE001 (what failed is printed; the folder keeps the logs)
        print(f"prod-like: {err}", file=sys.stderr)
        print(f"Logs in {folder}", file=sys.stderr)
        sys.exit(1)
    s = topology.settings
    env_file = folder / "motofiscal.env"  # what /etc/motofiscal.env holds on a real machine
    env_file.write_text("".join(f"{k}={v}\n" for k, v in topology.guide_env().items() if not k.startswith("PG_ADMIN")))
    env_file.chmod(0o600)
    print(f"""
Motofiscal, production topology on loopback (logs and files in {folder}):
  nginx        {topology.public_url}/  (self-signed: {topology.tls_cert})
  gunicorn     127.0.0.1:{topology.upstream_ports[0]} and 127.0.0.1:{topology.upstream_ports[1]}
  PostgreSQL   database {s['DB_NAME']}: owner {s['DB_OWNER']}, app role {s['DB_APP_ROLE']}
  object store {topology.store_endpoint}  ({s['STORAGE_URL']})
Commands as the app role, e.g. the guide's "A new municipality and its administrator":
  set -a; . {env_file}; set +a
  .venv/bin/flask --app server municipality create …
Ctrl-C stops everything and drops the databases and roles it made.""")
    # Both end the wait the same way (a job started in the background ignores SIGINT unless told).
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: sys.exit(0))
    try:
        signal.pause()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        print("\nStopping…")
        topology.down()
        remove(folder)


if __name__ == "__main__":
    main()
