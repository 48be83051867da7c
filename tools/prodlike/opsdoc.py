"""The commands of docs/operations.md, read from the guide itself so that what `make prod-like`
and tests/test_prod_like.py run is what the guide says (one source: a changed command there is the
command run here).

A block runs when the line before its fence is `<!-- ops-run: NAME -->`. Its shell variables are
the ones the `<!-- ops-settings -->` block names (DB_HOST, DB_OWNER…): the caller gives every one
of them, and a block using one nobody gave stops (`set -u`). `sudo -u postgres CMD` runs CMD as
PostgreSQL's superuser over TCP (PG_ADMIN_URL): on this machine that is what `sudo -u postgres`
reaches on a database host.
"""
import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "operations.md"
_BLOCK = re.compile(r"^<!-- ops-run: ([a-z0-9-]+) -->\n```[a-z]*\n(.*?)^```$", re.M | re.S)
_SETTINGS = re.compile(r"^<!-- ops-settings -->\n```bash\n(.*?)^```$", re.M | re.S)

_SUDO = """
sudo() {  # the guide's `sudo -u postgres CMD`: CMD as PostgreSQL's superuser (PG_ADMIN_URL)
  if [ "$1" != -u ] || [ "$2" != postgres ]; then echo "prod-like: only 'sudo -u postgres' runs here" >&2; return 1; fi
  shift 2
  PGHOST="$PG_ADMIN_HOST" PGPORT="$PG_ADMIN_PORT" PGUSER="$PG_ADMIN_USER" "$@"
}
"""


class CommandFailed(RuntimeError):
    pass


def blocks(path=GUIDE) -> dict[str, str]:
    found = {}
    for name, body in _BLOCK.findall(Path(path).read_text(encoding="utf-8")):
        if name in found:
            raise ValueError(f"{path}: two blocks marked ops-run: {name}")
        found[name] = body
    return found


def block(name, path=GUIDE) -> str:
    try:
        return blocks(path)[name]
    except KeyError:
        raise KeyError(f"{path} has no block marked <!-- ops-run: {name} -->") from None


def setting_names(path=GUIDE) -> list[str]:
    match = _SETTINGS.search(Path(path).read_text(encoding="utf-8"))
    if match is None:
        raise ValueError(f"{path} has no <!-- ops-settings --> block")
    return re.findall(r"^([A-Z][A-Z0-9_]*)=", match.group(1), re.M)


def line_of(name, needle, path=GUIDE) -> str:
    """The one logical line of block `name` that contains `needle` (continuations joined)."""
    lines = block(name, path).replace("\\\n", " ").splitlines()
    matches = [line for line in lines if needle in line]
    if len(matches) != 1:
        raise ValueError(f"block {name}: {len(matches)} lines contain {needle!r}")
    return matches[0]


def pg_admin_env(pg_admin_url) -> dict:
    parts = urlsplit(pg_admin_url)
    return {"PG_ADMIN_HOST": parts.hostname or "127.0.0.1", "PG_ADMIN_PORT": str(parts.port or 5432),
            "PG_ADMIN_USER": parts.username or "postgres"}


def run_script(script, env, stdin=None, timeout=300) -> str:
    """bash, strict, in the tree's root (the guide's commands say `.venv/bin/flask`, as in
    /srv/motofiscal), in a session of its own: no terminal, so a password prompt reads stdin."""
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + _SUDO + script], cwd=ROOT,
                          env={**os.environ, **env}, input=stdin, capture_output=True, text=True,
                          timeout=timeout, start_new_session=True)
    if done.returncode != 0:
        raise CommandFailed(f"exit {done.returncode} running:\n{script}\n--- stdout\n{done.stdout[-3000:]}"
                            f"\n--- stderr\n{done.stderr[-3000:]}")
    return done.stdout


def run(name, env, before=None, stdin=None, path=GUIDE) -> str:
    """Run block `name` with `env` (every name of the settings block must be in it). `before`
    maps a text to a command run just before the block's first line containing it: a step the
    guide does not have yet, named by its caller with the reason."""
    missing = [n for n in setting_names(path) if n not in env]
    if missing:
        raise ValueError(f"the guide's settings {missing} were not given")
    script = block(name, path)
    for needle, command in (before or {}).items():
        lines = script.splitlines(keepends=True)
        at = next((i for i, line in enumerate(lines) if needle in line), None)
        if at is None:
            raise ValueError(f"block {name} no longer has {needle!r}: drop the step added before it")
        script = "".join(lines[:at] + [command.rstrip("\n") + "\n"] + lines[at:])
    return run_script(script, env, stdin=stdin)
