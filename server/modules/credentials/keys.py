"""Issuer private keys at rest: PKCS#8 PEM encrypted with a key-encryption passphrase, kept in the
database (issuer_key.private_key_pem), where every app server reads the same keys and a rotation
or revocation is one transaction (credentials.operations). A revoked key's PEM is erased in the
revocation's own transaction. Migration 0024 moved the PEM files of instance/keys/ in.

Passphrase, first found wins:
  1. environment variable MOTOFISCAL_KEY_PASSPHRASE (production: from the secret store; with
     several app servers it MUST be set, and the same, on every one of them);
  2. config KEY_PASSPHRASE (instance/config.py);
  3. <instance>/keys/master.key, generated on first use with mode 0600 (development, one server).
The database alone (a copied dump, a backup) does not sign: its keys need the passphrase, which
is never stored with them. With option 3 the passphrase sits in the instance folder: it protects
against a copied database, not against a copied server. Say so to whoever deploys.
"""
import os
import secrets
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import current_app

from ...core.errors import ApiError

ENV_PASSPHRASE = "MOTOFISCAL_KEY_PASSPHRASE"
MASTER_KEY = "master.key"


def keys_dir() -> Path:
    """The instance's keys folder: master.key (option 3), and the PEM files of before 0024."""
    path = Path(current_app.instance_path) / "keys"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def passphrase() -> bytes:
    value = os.environ.get(ENV_PASSPHRASE) or current_app.config.get("KEY_PASSPHRASE")
    if value:
        return value.encode()
    master = keys_dir() / MASTER_KEY
    if not master.exists():
        fd = os.open(master, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(32))
    return master.read_text().strip().encode()


def encrypt_private_key(key: Ed25519PrivateKey) -> str:
    """The PEM text to store in issuer_key.private_key_pem."""
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.BestAvailableEncryption(passphrase())).decode("ascii")


def load_private_key(issuer_key) -> Ed25519PrivateKey:
    """The private half of an IssuerKey row the caller found active. A revoked key has none."""
    if issuer_key.status != "active" or not issuer_key.private_key_pem:
        raise ApiError(409, "no_active_key", "A chave de assinatura não está ativa: use a chave ativa do município.")
    try:
        return serialization.load_pem_private_key(issuer_key.private_key_pem.encode("ascii"), password=passphrase())
    except ValueError:
        # Another passphrase than the one the key was stored with: a server set up differently.
        raise ApiError(500, "key_passphrase_mismatch",
                       "A chave de assinatura não abre com a senha deste servidor (MOTOFISCAL_KEY_PASSPHRASE "
                       "deve ser a mesma em todos os servidores).") from None
