"""Credential QR payload: PREFIX + base45(body || Ed25519 signature over body).

Body layout, version 1 (all integers big-endian; docs/credentials.md is the normative text):

    offset size field
    0      1    format version (1)
    1      1    key id (1..255), per municipality
    2      3    municipality IBGE code (7 digits)
    5      4    credential serial (1..2^32-1), per municipality
    9      2    expiry: last valid day, as days since EPOCH (2020-01-01)
    11     1    permit number length n (1..MAX_PERMIT_NUMBER_LEN)
    12     n    permit number, printable ASCII (0x20..0x7E)
    12+n   64   Ed25519 signature over bytes 0..12+n

Pure module: mirrored by pwa/js/credentials/body.js.
"""
from dataclasses import dataclass
from datetime import date, timedelta

from .base45 import Base45Error, b45decode, b45encode

# Alphanumeric-mode QR characters only (":" is one), so the whole payload stays in that mode.
PREFIX = "MF1:"
FORMAT_VERSION = 1
EPOCH = date(2020, 1, 1)
SIGNATURE_LEN = 64
HEADER_LEN = 12
# Agreed with the registry: longer numbers would push the crachá QR past version 8.
MAX_PERMIT_NUMBER_LEN = 20


class CodecError(ValueError):
    """Malformed payload; .code is the verdict reason code."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Body:
    kid: int
    ibge_code: int
    serial: int
    expires_on: date
    permit_number: str
    version: int = FORMAT_VERSION

    def as_dict(self) -> dict:
        return {
            "version": self.version,
            "kid": self.kid,
            "ibge_code": self.ibge_code,
            "serial": self.serial,
            "expires_on": self.expires_on.isoformat(),
            "permit_number": self.permit_number,
        }


def check_permit_number(number: str) -> None:
    """Raise ValueError when a permit number cannot be carried in a credential."""
    if not 1 <= len(number) <= MAX_PERMIT_NUMBER_LEN:
        raise ValueError(f"permit number must have 1..{MAX_PERMIT_NUMBER_LEN} characters")
    if any(not 0x20 <= ord(ch) <= 0x7E for ch in number):
        raise ValueError("permit number must be printable ASCII")


def encode_body(body: Body) -> bytes:
    check_permit_number(body.permit_number)
    days = (body.expires_on - EPOCH).days
    if not 0 <= days <= 0xFFFF:
        raise ValueError("expiry out of range")
    if not 1 <= body.kid <= 0xFF:
        raise ValueError("kid out of range")
    if not 0 < body.ibge_code <= 9_999_999:
        raise ValueError("IBGE code out of range")
    if not 0 < body.serial <= 0xFFFFFFFF:
        raise ValueError("serial out of range")
    number = body.permit_number.encode("ascii")
    return (
        bytes((body.version, body.kid))
        + body.ibge_code.to_bytes(3, "big")
        + body.serial.to_bytes(4, "big")
        + days.to_bytes(2, "big")
        + bytes((len(number),))
        + number
    )


def decode_body(raw: bytes) -> Body:
    """Parse body bytes (without signature); raise CodecError on anything unexpected."""
    if len(raw) < HEADER_LEN + 1:
        raise CodecError("bad_length")
    if raw[0] != FORMAT_VERSION:
        raise CodecError("unsupported_version")
    n = raw[11]
    if not 1 <= n <= MAX_PERMIT_NUMBER_LEN or len(raw) != HEADER_LEN + n:
        raise CodecError("bad_length")
    number = raw[12:]
    if any(not 0x20 <= b <= 0x7E for b in number):
        raise CodecError("bad_body")
    kid, ibge, serial = raw[1], int.from_bytes(raw[2:5], "big"), int.from_bytes(raw[5:9], "big")
    if kid == 0 or ibge == 0 or ibge > 9_999_999 or serial == 0:
        raise CodecError("bad_body")
    return Body(
        kid=kid,
        ibge_code=ibge,
        serial=serial,
        expires_on=EPOCH + timedelta(days=int.from_bytes(raw[9:11], "big")),
        permit_number=number.decode("ascii"),
        version=raw[0],
    )


def make_payload(body_bytes: bytes, signature: bytes) -> str:
    if len(signature) != SIGNATURE_LEN:
        raise ValueError("signature must be 64 bytes")
    return PREFIX + b45encode(body_bytes + signature)


def split_payload(text: str) -> tuple[bytes, Body, bytes]:
    """Payload text -> (signed body bytes, parsed body, signature). Strict: no trimming, no
    case folding; scanners' trailing newlines are the caller's to strip."""
    if not isinstance(text, str) or text == "":
        raise CodecError("empty")
    if not text.startswith(PREFIX):
        raise CodecError("bad_prefix")
    try:
        raw = b45decode(text[len(PREFIX):])
    except Base45Error:
        raise CodecError("bad_base45") from None
    if len(raw) < HEADER_LEN + 1 + SIGNATURE_LEN:
        raise CodecError("bad_length")
    body_bytes, signature = raw[:-SIGNATURE_LEN], raw[-SIGNATURE_LEN:]
    return body_bytes, decode_body(body_bytes), signature
