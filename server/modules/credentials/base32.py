"""Base32 (RFC 4648 §6, upper-case alphabet), without padding, strict: characters outside the
alphabet (lower case included), '=' padding, impossible lengths (1, 3 or 6 mod 8) and non-zero
trailing bits are rejected, so a text decodes to at most one byte string and each byte string has
exactly one text. Every character is in the QR alphanumeric set. Mirrored by
pwa/js/credentials/base32.js."""
import base64
import binascii

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


class Base32Error(ValueError):
    pass


def b32encode(data: bytes) -> str:
    return base64.b32encode(data).decode("ascii").rstrip("=")


def b32decode(text: str) -> bytes:
    if len(text) % 8 in (1, 3, 6):
        raise Base32Error("length")
    if any(ch not in ALPHABET for ch in text):
        raise Base32Error("alphabet")
    try:
        raw = base64.b32decode(text + "=" * (-len(text) % 8))
    except binascii.Error:
        raise Base32Error("alphabet") from None
    if b32encode(raw) != text:  # non-zero bits after the last byte: another text of the same bytes
        raise Base32Error("non_canonical")
    return raw
