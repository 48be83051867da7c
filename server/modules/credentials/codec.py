"""Credential QR payload: the same signed body in one of two envelopes.

    URL form (issued now):  HTTPS://HOST/V/ + base32(body || Ed25519 signature over body)
    MF1 form (first format): MF1: + base45(body || signature) — verifies until those crachás expire

The URL form is what any phone camera opens (the public page); scheme and host are
case-insensitive and not signed, the path "/V/" and the base32 code are exact. Every character of
both forms is in the QR alphanumeric set.

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

import math
import re
from urllib.parse import urlsplit

from .base32 import Base32Error, b32decode, b32encode
from .base45 import Base45Error, b45decode, b45encode

# Alphanumeric-mode QR characters only (":" is one), so the whole payload stays in that mode.
PREFIX = "MF1:"  # first envelope, kept for crachás printed with it
URL_PATH = "/V/"  # public page route, upper-case so the whole URL stays alphanumeric
# Host (letters, digits, dots, hyphens: punycode for accented names) and an optional port.
HOST_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]{1,5})?")
FORMAT_VERSION = 1
EPOCH = date(2020, 1, 1)
SIGNATURE_LEN = 64
HEADER_LEN = 12
# Agreed with the registry: longer numbers would push the crachá QR past version 8.
MAX_PERMIT_NUMBER_LEN = 20
# Longest base32 code: the longest body plus its signature.
MAX_CODE_LEN = math.ceil((HEADER_LEN + MAX_PERMIT_NUMBER_LEN + SIGNATURE_LEN) * 8 / 5)


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


def url_prefix(base_url: str) -> str:
    """Config PUBLIC_BASE_URL -> the QR's upper-case prefix "HTTPS://HOST/V/". Only scheme, host
    and port: a path would be upper-cased in the QR and no longer match the server's routes."""
    parts = urlsplit(base_url or "")
    if parts.scheme.lower() not in ("http", "https"):
        raise ValueError("PUBLIC_BASE_URL must start with https:// (or http:// for development)")
    if not HOST_RE.fullmatch(parts.netloc or ""):
        raise ValueError("PUBLIC_BASE_URL host must have only letters, digits, dots, hyphens, :port")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("PUBLIC_BASE_URL must have no path, query or fragment")
    return f"{parts.scheme.upper()}://{parts.netloc.upper()}{URL_PATH}"


def make_url_payload(body_bytes: bytes, signature: bytes, base_url: str) -> str:
    if len(signature) != SIGNATURE_LEN:
        raise ValueError("signature must be 64 bytes")
    return url_prefix(base_url) + b32encode(body_bytes + signature)


def make_payload(body_bytes: bytes, signature: bytes) -> str:
    if len(signature) != SIGNATURE_LEN:
        raise ValueError("signature must be 64 bytes")
    return PREFIX + b45encode(body_bytes + signature)


def url_code(text: str) -> str | None:
    """The base32 code of a URL-form payload, or None when the text is not one."""
    scheme, sep, rest = text.partition("://")
    if not sep or scheme.lower() not in ("http", "https"):
        return None
    host, slash, path = rest.partition("/")
    if not slash or not HOST_RE.fullmatch(host) or not path.startswith(URL_PATH[1:]):
        return None
    return path[len(URL_PATH) - 1:]


def _split_raw(raw: bytes) -> tuple[bytes, Body, bytes]:
    if len(raw) < HEADER_LEN + 1 + SIGNATURE_LEN:
        raise CodecError("bad_length")
    body_bytes, signature = raw[:-SIGNATURE_LEN], raw[-SIGNATURE_LEN:]
    return body_bytes, decode_body(body_bytes), signature


def split_code(code: str) -> tuple[bytes, Body, bytes]:
    """The base32 part of a URL-form payload -> (signed body bytes, parsed body, signature)."""
    try:
        raw = b32decode(code)
    except Base32Error:
        raise CodecError("bad_base32") from None
    return _split_raw(raw)


def split_payload(text: str) -> tuple[bytes, Body, bytes]:
    """Payload text, either envelope -> (signed body bytes, parsed body, signature). Strict: no
    trimming, no case folding beyond the URL's scheme and host; scanners' trailing newlines are
    the caller's to strip."""
    if not isinstance(text, str) or text == "":
        raise CodecError("empty")
    if text.startswith(PREFIX):
        try:
            raw = b45decode(text[len(PREFIX):])
        except Base45Error:
            raise CodecError("bad_base45") from None
        return _split_raw(raw)
    code = url_code(text)
    if code is None:
        raise CodecError("bad_prefix")
    return split_code(code)
