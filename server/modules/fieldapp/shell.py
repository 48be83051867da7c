"""Which files make up the field app's shell, its version, and the service worker that caches it.

No Flask imports. The version is a hash of every shipped file (vendor/ included), so any change
to the shell — ours or a third-party module's — yields a new sw.js, which browsers detect byte
for byte and install as a waiting worker behind the update prompt.
"""
import hashlib
import json
from pathlib import Path, PurePosixPath

# Top-level entries of pwa/ that are build inputs, not part of what the phone downloads.
# copy-sw.js is the operator's copy worker (scope /a/, copy_worker.py), not part of the app's shell.
NOT_SHIPPED = {"node_modules", "scripts", "package.json", "package-lock.json", "sw.js", "copy-sw.js", "README.md"}
SW_VERSION_TOKEN = '"__SHELL_VERSION__"'
SW_FILES_TOKEN = '["__SHELL_FILES__"]'

_memo: dict = {}


def _shipped_parts(parts) -> bool:
    return bool(parts) and parts[0] not in NOT_SHIPPED and not any(part.startswith(".") for part in parts)


def shipped_files(root: Path) -> list[str]:
    """Relative POSIX paths of the files the phone downloads, sorted (hidden files excluded)."""
    root = Path(root)
    out = []
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if path.is_file() and _shipped_parts(rel.parts):
            out.append(rel.as_posix())
    return sorted(out)


def is_shipped(root: Path, rel: str) -> bool:
    """Whether `rel` (a URL path under /app/) is one of shipped_files(root), without walking the
    tree on every request (a walk cost ~30 ms per file served, more than sending it)."""
    path = PurePosixPath(rel)
    if path.is_absolute() or ".." in path.parts:
        return False
    return _shipped_parts(path.parts) and (Path(root) / path).is_file()


def _fingerprint(root: Path, files: list[str]) -> tuple:
    # Cheap stat-based key so the hash is recomputed only when a file changes on disk.
    stats = []
    for rel in [*files, "sw.js"]:
        st = (root / rel).stat()
        stats.append((rel, st.st_mtime_ns, st.st_size))
    return (str(root), tuple(stats))


def shell_version(root: Path) -> str:
    """12 hex digits of SHA-256 over every shipped file's path and bytes, plus sw.js itself."""
    return build_shell(root)["version"]


def build_shell(root: Path) -> dict:
    """{"version", "files" (precache URLs relative to /app/), "sw" (service worker source)}."""
    root = Path(root)
    files = shipped_files(root)
    key = _fingerprint(root, files)
    if key in _memo:
        return _memo[key]
    digest = hashlib.sha256()
    for rel in [*files, "sw.js"]:
        digest.update(rel.encode() + b"\0")
        digest.update((root / rel).read_bytes() + b"\0")
    version = digest.hexdigest()[:12]
    # The shell page is cached under the scope URL ("./"), which is what navigations fall back to.
    urls = ["./" if rel == "index.html" else rel for rel in files]
    template = (root / "sw.js").read_text(encoding="utf-8")
    if SW_VERSION_TOKEN not in template or SW_FILES_TOKEN not in template:
        raise RuntimeError("pwa/sw.js lost its version/files placeholders")
    sw = template.replace(SW_VERSION_TOKEN, json.dumps(version)).replace(
        SW_FILES_TOKEN, json.dumps(urls))
    result = {"version": version, "files": urls, "sw": sw}
    _memo.clear()  # keep only the current shell
    _memo[key] = result
    return result
