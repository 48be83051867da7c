"""Issuer private keys at rest: PKCS#8 PEM files encrypted with a key-encryption passphrase,
under <instance>/keys/<municipality slug>/<kid>.pem (the instance folder is outside the
repository and never committed).

Passphrase, first found wins:
  1. environment variable MOTOFISCAL_KEY_PASSPHRASE (production: from the secret store);
  2. config KEY_PASSPHRASE (instance/config.py);
  3. <instance>/keys/master.key, generated on first use with mode 0600 (development).
With option 3 the passphrase sits next to the keys: it protects against a copied database or a
leaked key file alone, not against a copied instance folder. Say so to whoever deploys.
"""
import os
import secrets
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import current_app

ENV_PASSPHRASE = "MOTOFISCAL_KEY_PASSPHRASE"


def keys_dir() -> Path:
    path = Path(current_app.instance_path) / "keys"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def _passphrase() -> bytes:
    value = os.environ.get(ENV_PASSPHRASE) or current_app.config.get("KEY_PASSPHRASE")
    if value:
        return value.encode()
    master = keys_dir() / "master.key"
    if not master.exists():
        fd = os.open(master, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(32))
    return master.read_text().strip().encode()


def store_private_key(slug: str, kid: int, key: Ed25519PrivateKey) -> str:
    """Write the encrypted key; returns its path relative to the keys folder."""
    folder = keys_dir() / slug
    folder.mkdir(mode=0o700, exist_ok=True)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.BestAvailableEncryption(_passphrase()))
    relative = f"{slug}/{kid}.pem"
    if (keys_dir() / relative).exists():
        # A key file of an earlier database (e.g. instance DB reset, keys kept) is never
        # overwritten: the new key gets a name of its own; the DB row records which file.
        relative = f"{slug}/{kid}-{secrets.token_hex(4)}.pem"
    fd = os.open(keys_dir() / relative, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    return relative


PARKED_SUFFIX = ".revoking"


def load_private_key(relative: str) -> Ed25519PrivateKey:
    """Callers load only keys the database says are active. A file still parked means a revocation
    that never committed (process killed between park and commit): the key is still active, so it
    goes back to its name."""
    path = keys_dir() / relative
    parked = path.with_name(path.name + PARKED_SUFFIX)
    if not path.exists() and parked.is_file():
        os.rename(parked, path)
    return serialization.load_pem_private_key(path.read_bytes(), password=_passphrase())


# Revocation changes the database and removes the key file, together (issue 8). The file is first
# parked under another name (an atomic rename: nothing can load it any more), then the database
# commits; if the commit fails the file goes back, and only after it succeeds is the file deleted.

def park_private_key(relative: str) -> Path | None:
    """Rename the key file out of use; None when it is already gone. Raises OSError on failure,
    before anything else changed."""
    path = keys_dir() / relative
    if not path.exists():
        return None
    parked = path.with_name(path.name + PARKED_SUFFIX)
    os.rename(path, parked)
    return parked


def unpark_private_key(parked: Path | None) -> None:
    """The revocation did not commit: the key file returns to its name, unchanged."""
    if parked is not None:
        os.rename(parked, parked.with_name(parked.name[:-len(PARKED_SUFFIX)]))


def delete_revoked_key(relative: str, parked: Path | None) -> None:
    """After the commit: the parked file goes, and so does any file under the key's own name (a
    signer in another process may have restored it while the revocation was still uncommitted,
    see load_private_key). Should an unlink fail, what remains is a revoked key: the database
    never lets it sign again."""
    for path in (parked, keys_dir() / relative):
        if path is not None:
            path.unlink(missing_ok=True)
