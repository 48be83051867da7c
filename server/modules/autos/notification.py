"""The notificação de autuação as a signed document.

Its content (what the PDF prints and the public page shows) is canonical JSON stored with the
notification; the QR carries a short body signed with the municipality's issuer key (the key
that signs crachás, credentials/keys.py), in the crachá's URL form with its own path:

    HTTPS://HOST/N/ + base32(body || Ed25519 signature over body)

Body, version 1 (big-endian), 27 bytes:
    0   1   format version (1)
    1   1   key id (kid) of the municipality's issuer key
    2   3   municipality IBGE code
    5   4   notification serial (per municipality)
    9   2   issue date, days since 2020-01-01
    11  16  first 16 bytes of sha256(content)

The public page verifies the signature with the municipality's key, then finds the notification
by serial and checks that its stored content still hashes to the signed value: a changed row, a
made-up code or a flipped character all fail. Pure module except `sign_body` (reads the key file).
"""
import hashlib
import json
from dataclasses import dataclass
from datetime import date, timedelta

from ..credentials import signing
from ..credentials.base32 import Base32Error, b32decode, b32encode
from ..credentials.codec import EPOCH, url_prefix

FORMAT_VERSION = 1
BODY_LEN = 27
SIGNATURE_LEN = 64
URL_PATH = "/N/"


class NotificationCodeError(ValueError):
    pass


@dataclass(frozen=True)
class NotificationBody:
    kid: int
    ibge_code: int
    serial: int
    issued_on: date
    content_digest: bytes  # 16 bytes


def canonical(content: dict) -> str:
    return json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def encode_body(body: NotificationBody) -> bytes:
    days = (body.issued_on - EPOCH).days
    if not (1 <= body.kid <= 255 and 0 < body.ibge_code <= 9_999_999 and 0 < body.serial <= 0xFFFFFFFF
            and 0 <= days <= 0xFFFF and len(body.content_digest) == 16):
        raise ValueError("notification body field out of range")
    return (bytes((FORMAT_VERSION, body.kid)) + body.ibge_code.to_bytes(3, "big")
            + body.serial.to_bytes(4, "big") + days.to_bytes(2, "big") + body.content_digest)


def decode_code(code: str) -> tuple[bytes, NotificationBody, bytes]:
    """base32 code → (body bytes, body, signature); NotificationCodeError when malformed."""
    try:
        raw = b32decode(code)
    except Base32Error:
        raise NotificationCodeError("bad_base32") from None
    if len(raw) != BODY_LEN + SIGNATURE_LEN:
        raise NotificationCodeError("bad_length")
    body_bytes, signature = raw[:BODY_LEN], raw[BODY_LEN:]
    if body_bytes[0] != FORMAT_VERSION:
        raise NotificationCodeError("unsupported_version")
    body = NotificationBody(kid=body_bytes[1], ibge_code=int.from_bytes(body_bytes[2:5], "big"),
                            serial=int.from_bytes(body_bytes[5:9], "big"),
                            issued_on=EPOCH + timedelta(days=int.from_bytes(body_bytes[9:11], "big")),
                            content_digest=body_bytes[11:27])
    if body.kid == 0 or body.ibge_code == 0 or body.serial == 0:
        raise NotificationCodeError("bad_body")
    return body_bytes, body, signature


def payload(body_bytes: bytes, signature: bytes, base_url: str) -> str:
    """The QR text; upper case, so it is one alphanumeric QR segment like the crachá's."""
    return url_prefix(base_url)[:-len("/V/")] + URL_PATH + b32encode(body_bytes + signature)


def code_of(payload_text: str) -> str:
    return payload_text.rsplit(URL_PATH, 1)[1]


def verify_signature(public_key_b64: str, body_bytes: bytes, signature: bytes) -> bool:
    return signing.verify(signing.load_public(signing.b64url_decode(public_key_b64)), signature, body_bytes)
