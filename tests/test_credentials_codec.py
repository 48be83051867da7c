"""Base45 (RFC 9285 vectors) and the credential body layout."""
from datetime import date

import pytest

from server.modules.credentials.base45 import Base45Error, b45decode, b45encode
from server.modules.credentials.codec import (
    MAX_PERMIT_NUMBER_LEN, PREFIX, Body, CodecError, decode_body, encode_body, make_payload,
    split_payload)

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
                                       ("MF1:BB8", "bad_length")])
def test_split_payload_errors(text, code):
    with pytest.raises(CodecError) as err:
        split_payload(text)
    assert err.value.code == code
