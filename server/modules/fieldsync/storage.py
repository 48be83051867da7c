"""Photo storage: one interface for every blob the field sync keeps, addressed by content hash.

The default is a local folder (instance/evidence/ unless EVIDENCE_STORAGE_DIR says otherwise).
With several app servers, point EVIDENCE_STORAGE_DIR at a shared volume mounted at the same
path on every server (NFS, a cloud file share): writes are atomic renames of uniquely named
temporary files, so two servers storing the same photo at once both succeed and a reader never
sees half a file. Another backend (an S3 bucket…) only has to implement the three methods below.
"""
import os
import secrets
from pathlib import Path

from flask import current_app


class LocalFolderStorage:
    def __init__(self, root):
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        # Keys are "<namespace>/<hex hash>.<ext>" built by this package, never user text.
        if ".." in key or key.startswith("/"):
            raise ValueError("invalid storage key")
        return self.root / key

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def read(self, key: str) -> bytes:
        return self._path(key).read_bytes()

    def write(self, key: str, data: bytes) -> None:
        """Store data under key, atomically; writing the same key twice is harmless."""
        path = self._path(key)
        if path.is_file():
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)


def storage() -> LocalFolderStorage:
    # Config first (instance/config.py, tests), then the environment (a shared volume in production).
    root = (current_app.config.get("EVIDENCE_STORAGE_DIR") or os.environ.get("EVIDENCE_STORAGE_DIR")
            or Path(current_app.instance_path) / "evidence")
    return LocalFolderStorage(root)
