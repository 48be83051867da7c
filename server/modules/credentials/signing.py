"""Ed25519 issuer signatures (pyca/cryptography). Keys travel to devices as raw 32-byte public
keys in unpadded base64url, which both WebCrypto ('raw' import) and @noble/ed25519 accept."""
import base64

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey


def generate() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def sign(private_key: Ed25519PrivateKey, body_bytes: bytes) -> bytes:
    return private_key.sign(body_bytes)


def public_raw(private_or_public) -> bytes:
    pub = private_or_public.public_key() if isinstance(private_or_public, Ed25519PrivateKey) else private_or_public
    return pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def load_public(raw: bytes) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(raw)


def verify(public_key: Ed25519PublicKey, signature: bytes, body_bytes: bytes) -> bool:
    try:
        public_key.verify(signature, body_bytes)
        return True
    except InvalidSignature:
        return False
