"""`tools/prod-like` (`make prod-like`): start the topology, print where it answers, wait for
Ctrl-C, then stop it and drop what it made."""
import signal
import sys
import tempfile
from pathlib import Path

from .topology import ProdLike, remove


def main():
    folder = Path(tempfile.mkdtemp(prefix="motofiscal-prod-like-"))
    topology = ProdLike(folder)
    try:
        topology.up()
    except Exception as err:  # noqa: BLE001 (what failed is printed; the folder keeps the logs)
        print(f"prod-like: {err}", file=sys.stderr)
        print(f"Logs in {folder}", file=sys.stderr)
        sys.exit(1)
    s = topology.settings
    print(f"""
Motofiscal, production topology on loopback (logs and files in {folder}):
  nginx        {topology.public_url}/  (self-signed: {topology.tls_cert})
  gunicorn     127.0.0.1:{topology.upstream_ports[0]} and 127.0.0.1:{topology.upstream_ports[1]}
  PostgreSQL   database {s['DB_NAME']}: owner {s['DB_OWNER']}, app role {s['DB_APP_ROLE']}
  object store {topology.store_endpoint}  ({s['STORAGE_URL']})
A municipality and its administrator (docs/operations.md, "A new municipality"):
  the guide's `municipality` block, with the app's environment. Ctrl-C stops everything.""")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
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
