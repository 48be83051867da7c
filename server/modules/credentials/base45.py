"""Base45 (RFC 9285), strict: rejects characters outside the alphabet, lengths of 1 mod 3 and
non-canonical groups (values that do not fit their byte count), so each text decodes to at most
one byte string and each byte string has exactly one text. Hand-written because it is 30 lines
and the JS verifier needs the same code anyway."""

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_INDEX = {c: i for i, c in enumerate(ALPHABET)}


class Base45Error(ValueError):
    pass


def b45encode(data: bytes) -> str:
    out = []
    for i in range(0, len(data) - 1, 2):
        n = data[i] * 256 + data[i + 1]
        out += [ALPHABET[n % 45], ALPHABET[n // 45 % 45], ALPHABET[n // 2025]]
    if len(data) % 2:
        out += [ALPHABET[data[-1] % 45], ALPHABET[data[-1] // 45]]
    return "".join(out)


def b45decode(text: str) -> bytes:
    if len(text) % 3 == 1:
        raise Base45Error("length")
    try:
        values = [_INDEX[ch] for ch in text]
    except KeyError:
        raise Base45Error("alphabet") from None
    out = bytearray()
    for i in range(0, len(values), 3):
        group = values[i:i + 3]
        if len(group) == 3:
            n = group[0] + group[1] * 45 + group[2] * 2025
            if n > 0xFFFF:
                raise Base45Error("group")
            out += bytes((n >> 8, n & 0xFF))
        else:
            n = group[0] + group[1] * 45
            if n > 0xFF:
                raise Base45Error("group")
            out.append(n)
    return bytes(out)
