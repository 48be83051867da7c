"""What the server checks on a record it receives: signature, clock and hash chain.

These never refuse a record (a signed auto de infração exists whatever the server thinks of it);
they return flags that the back office sees next to the record.
"""
import base64
import functools
import hashlib
from datetime import timedelta

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ...core.clock import as_utc


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def body_hash(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def key_fingerprint(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()[:16]


def load_public_key(text: str):
    """The device key from its base64url text; ValueError when it is not 32 raw bytes."""
    try:
        raw = b64url_decode(text)
    except (ValueError, TypeError) as exc:
        raise ValueError("not base64url") from exc
    if len(raw) != 32:
        raise ValueError("not 32 bytes")
    return Ed25519PublicKey.from_public_bytes(raw), raw


@functools.lru_cache(maxsize=4096)
def _device_key(public_key_text):
    """The device's key object, decoded once per process (a push verifies up to 100 records)."""
    return load_public_key(public_key_text)[0]


def signature_flags(public_key_text, body: str, signature: str):
    if not public_key_text:
        return ["no_device_key"]
    try:
        key = _device_key(public_key_text)
        key.verify(b64url_decode(signature), body.encode("utf-8"))
    except (InvalidSignature, ValueError, TypeError):
        return ["bad_signature"]
    return []


def clock_flags(device_at, gps_at, received_at, enrolled_at, limit_s):
    """clock_ahead: later than the server; clock_behind: earlier than the device's enrollment (a
    phone in 1970 after a battery swap); clock_drift: far from the GPS fix time."""
    flags = []
    limit = timedelta(seconds=limit_s)
    if device_at > received_at + limit:
        flags.append("clock_ahead")
    if enrolled_at is not None and device_at < as_utc(enrolled_at) - limit:
        flags.append("clock_behind")
    if gps_at is not None and abs(device_at - gps_at) > limit:
        flags.append("clock_drift")
    return flags


def chain_flags(seq, prev_hash, predecessors, same_seq_others):
    """predecessors: body hashes of the device's records at seq - 1 already held."""
    flags = []
    if seq > 1:
        if not predecessors:
            flags.append("chain_gap")
        elif prev_hash not in predecessors:
            flags.append("broken_chain")
    if same_seq_others:
        flags.append("seq_reused")
    return flags
