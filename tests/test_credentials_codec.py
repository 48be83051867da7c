"""Base45 (RFC 9285 vectors), base32 (RFC 4648 vectors), the URL envelope and the body layout."""
from datetime import date

import pytest

from server.modules.credentials.base32 import Base32Error, b32decode, b32encode
from server.modules.credentials.base45 import Base45Error, b45decode, b45encode
from server.modules.credentials.codec import (
    MAX_CODE_LEN, MAX_PERMIT_NUMBER_LEN, PREFIX, Body, CodecError, decode_body, encode_body,
    make_payload, make_url_payload, split_payload, url_prefix)

RFC9285 = [(b"AB", "BB8"), (b"Hello!!", "%69 VD92EX0"), (b"base-45", "UJCLQE7W581"), (b"ietf!", "QED8WEX0"),
           (b"", "")]


@pytest.mark.parametrize("raw,text", RFC9285)
def test_base45_rfc_vectors(raw, text):
    assert b45encode(raw) == text
    assert b45decode(text) == raw


@pytest.mark.parametrize("bad", ["A", "GGW", "ZZZ", "::", "abc", "BB8\n", "ÇÇÇ"])
def test_base45_rejects_invalid_and_non_canonical(bad):
    # 'GGW' = 65536 and ':::'/'ZZZ' overflow 16 bits; '::' overflows a byte (RFC 9285 section 4.2).
    with pytest.raises(Base45Error):
        b45decode(bad)


def test_base45_roundtrip_all_lengths():
    data = bytes(range(256))
    for n in range(0, 40):
        assert b45decode(b45encode(data[n:n * 3])) == data[n:n * 3]


# RFC 4648 section 10, padding removed.
RFC4648 = [(b"", ""), (b"f", "MY"), (b"fo", "MZXQ"), (b"foo", "MZXW6"), (b"foob", "MZXW6YQ"),
           (b"fooba", "MZXW6YTB"), (b"foobar", "MZXW6YTBOI")]


@pytest.mark.parametrize("raw,text", RFC4648)
def test_base32_rfc_vectors(raw, text):
    assert b32encode(raw) == text
    assert b32decode(text) == raw


# Lower case, padding, a digit outside 2-7, lengths 1/3/6 mod 8, and "MZ" (f plus a spare bit set:
# "MY" is the only text of b"f").
@pytest.mark.parametrize("bad", ["my", "MY======", "MY1", "M", "MZX", "MZXW6Y", "MZ", "MY\n", "MÝ"])
def test_base32_rejects_invalid_and_non_canonical(bad):
    with pytest.raises(Base32Error):
        b32decode(bad)


def test_base32_roundtrip_all_lengths():
    data = bytes(range(256))
    for n in range(0, 40):
        assert b32decode(b32encode(data[n:n * 3])) == data[n:n * 3]


@pytest.mark.parametrize("base,prefix", [
    ("https://motofiscal.paranatinga.mt.gov.br", "HTTPS://MOTOFISCAL.PARANATINGA.MT.GOV.BR/V/"),
    ("https://motofiscal.example.org/", "HTTPS://MOTOFISCAL.EXAMPLE.ORG/V/"),
    ("http://localhost:5000", "HTTP://LOCALHOST:5000/V/")])
def test_url_prefix_is_upper_case(base, prefix):
    assert url_prefix(base) == prefix


@pytest.mark.parametrize("base", ["", "motofiscal.gov.br", "ftp://x.gov.br", "https://x.gov.br/motofiscal",
                                  "https://x.gov.br?a=1", "https://user@x.gov.br", "https://moto_fiscal.gov.br",
                                  "https://são-josé.gov.br"])
def test_url_prefix_refuses_what_would_not_route_or_not_stay_alphanumeric(base):
    with pytest.raises(ValueError):
        url_prefix(base)


def test_longest_code_length():
    assert MAX_CODE_LEN == 154  # (12 + 20 + 64) bytes * 8 / 5, rounded up


BODY = Body(kid=2, ibge_code=5106307, serial=258, expires_on=date(2026, 12, 31), permit_number="PNT-2026/01")


def test_body_layout_byte_by_byte():
    raw = encode_body(BODY)
    days = (date(2026, 12, 31) - date(2020, 1, 1)).days  # 2556
    assert raw == bytes([1, 2, 0x4D, 0xEA, 0x83, 0, 0, 1, 2, days >> 8, days & 0xFF, 11]) + b"PNT-2026/01"
    assert len(raw) == 23
    assert decode_body(raw) == BODY


def test_payload_roundtrip_and_length():
    raw = encode_body(BODY)
    payload = make_payload(raw, bytes(64))
    assert payload.startswith(PREFIX)
    assert len(payload) == len(PREFIX) + (len(raw) + 64) // 2 * 3 + (len(raw) + 64) % 2 * 2
    body_bytes, body, signature = split_payload(payload)
    assert (body_bytes, body, signature) == (raw, BODY, bytes(64))


def test_url_payload_roundtrip():
    raw = encode_body(BODY)
    payload = make_url_payload(raw, bytes(range(64)), "https://motofiscal.example.org")
    assert payload == "HTTPS://MOTOFISCAL.EXAMPLE.ORG/V/" + b32encode(raw + bytes(range(64)))
    assert split_payload(payload) == (raw, BODY, bytes(range(64)))
    assert split_payload(payload.replace("HTTPS://MOTOFISCAL", "https://motofiscal")) == (raw, BODY, bytes(range(64)))


@pytest.mark.parametrize("number", ["", "X" * (MAX_PERMIT_NUMBER_LEN + 1), "Nº 12", "A\nB"])
def test_permit_numbers_outside_the_agreement_are_refused(number):
    with pytest.raises(ValueError):
        encode_body(Body(kid=1, ibge_code=5106307, serial=1, expires_on=date(2026, 1, 1), permit_number=number))


@pytest.mark.parametrize("field,value", [("kid", 0), ("kid", 256), ("serial", 0), ("serial", 2**32),
                                         ("ibge_code", 10_000_000), ("expires_on", date(2019, 12, 31))])
def test_out_of_range_fields_are_refused(field, value):
    args = dict(kid=1, ibge_code=5106307, serial=1, expires_on=date(2026, 1, 1), permit_number="1")
    args[field] = value
    with pytest.raises(ValueError):
        encode_body(Body(**args))


@pytest.mark.parametrize("text,code", [("", "empty"), ("HC1:BB8", "bad_prefix"), ("MF1:bb8", "bad_base45"),
                                       ("MF1:BB8", "bad_length"), ("HTTPS://X.ORG/V/MY", "bad_length"),
                                       ("HTTPS://X.ORG/V/my", "bad_base32"), ("HTTPS://X.ORG/v/MY", "bad_prefix"),
                                       ("HTTPS://X.ORG", "bad_prefix"), ("X.ORG/V/MY", "bad_prefix")])
def test_split_payload_errors(text, code):
    with pytest.raises(CodecError) as err:
        split_payload(text)
    assert err.value.code == code
