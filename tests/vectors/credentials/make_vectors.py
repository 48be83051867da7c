"""Generate vectors.json: shared conformance cases for the Python and JS credential verifiers.

Run once (`.venv/bin/python tests/vectors/credentials/make_vectors.py`) and commit the output.
Every expected verdict below is written by hand from the scenario and docs/credentials.md —
the verifier under test is never called here. Signing uses the fixed test keys in
test_keys.json, so re-running gives the same file.
"""
import json
from datetime import date
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from server.modules.credentials.codec import PREFIX, Body, encode_body, make_payload, make_url_payload
from server.modules.credentials.base32 import ALPHABET as B32, b32encode
from server.modules.credentials.base45 import b45encode
from server.modules.credentials.signing import b64url, public_raw

HERE = Path(__file__).parent
SEEDS = json.loads((HERE / "test_keys.json").read_text())
KEYS = {name: Ed25519PrivateKey.from_private_bytes(bytes.fromhex(hexseed))
        for name, hexseed in SEEDS.items() if not name.startswith("_")}

PARANATINGA, SAPEZAL = 5106307, 5107875
BASE_URL = "https://motofiscal.paranatinga.mt.gov.br"
URL_PREFIX = "HTTPS://MOTOFISCAL.PARANATINGA.MT.GOV.BR/V/"  # written by hand: the QR's upper case
GENERATED_AT = "2026-06-01T12:00:00Z"
NOW = "2026-06-01T15:00:00Z"  # 11:00 in Mato Grosso (UTC-4)
MAX_AGE = 172800  # 48 h

TRUST = {
    "municipality": {"ibge_code": PARANATINGA, "slug": "paranatinga", "name": "Paranatinga",
                     "utc_offset_minutes": -240},
    "generated_at": GENERATED_AT,
    "max_age_seconds": MAX_AGE,
    "keys": [
        {"kid": 1, "public_key": b64url(public_raw(KEYS["paranatinga_kid1"])), "status": "retired",
         "revoked_reason": None},
        {"kid": 2, "public_key": b64url(public_raw(KEYS["paranatinga_kid2"])), "status": "active",
         "revoked_reason": None},
        {"kid": 3, "public_key": b64url(public_raw(KEYS["paranatinga_kid3"])), "status": "active",
         "revoked_reason": None},
    ],
    "entries": [],
}
_cursor = 0


def entry(kind, ref, status, reason=None):
    global _cursor
    _cursor += 1
    TRUST["entries"].append({"cursor": _cursor, "kind": kind, "ref": str(ref), "status": status,
                             "reason": reason, "changed_at": "2026-05-20T10:00:00Z"})


# Registry as the device last saw it.
for number, status in [("PNT-2026/0001", "ativo"), ("PNT-2026/0002", "suspenso"),
                       ("PNT-2026/0003", "cassado"), ("PNT-2026/0004", "vencido"),
                       ("PNT-2026/0005", "caducado"), ("PNT-2026/0006", "extinto"),
                       ("ABCDEFGHIJ0123456789", "ativo")]:
    entry("permit", number, "ativo")
    if status != "ativo":
        entry("permit", number, status)
for serial in range(1, 18):
    entry("credential", serial, "active")
entry("credential", 5, "revoked", "extravio")
entry("credential", 6, "superseded", "renovação")
# A crachá follows its permit: suspending PNT-2026/0007 also sets its crachá's entry.
entry("permit", "PNT-2026/0007", "ativo")
entry("permit", "PNT-2026/0007", "suspenso")
entry("credential", 16, "suspenso")
# Only the crachá's entry says cassado (the permit's last entry the device holds is ativo).
entry("permit", "PNT-2026/0008", "ativo")
entry("credential", 17, "cassado")
entry("key", 3, "revoked", "chave comprometida")


def payload(serial, number="PNT-2026/0001", kid=2, key="paranatinga_kid2", ibge=PARANATINGA,
            expires=date(2026, 12, 31), legacy=False):
    """(body bytes, payload text): URL form, or the first MF1 form when legacy."""
    body = encode_body(Body(kid=kid, ibge_code=ibge, serial=serial, expires_on=expires,
                            permit_number=number))
    signature = KEYS[key].sign(body)
    return body, make_payload(body, signature) if legacy else make_url_payload(body, signature, BASE_URL)


def envelope(raw: bytes, legacy: bool) -> str:
    return PREFIX + b45encode(raw) if legacy else URL_PREFIX + b32encode(raw)


def case(name, text, verdict, reason_code):
    return {"name": name, "payload": text, "expected": {"verdict": verdict, "reason_code": reason_code}}


def common_cases(legacy):
    """Cases of the verifier's checks, the same in both envelopes (the signed body is the same)."""
    p = {"legacy": legacy}
    body, valid = payload(1, **p)
    sig = KEYS["paranatinga_kid2"].sign(body)
    cases = [
        case("valid", valid, "VÁLIDO", "ok"),
        case("valid_retired_key", payload(2, kid=1, key="paranatinga_kid1", **p)[1], "VÁLIDO", "ok"),
        case("valid_expires_today", payload(3, expires=date(2026, 6, 1), **p)[1], "VÁLIDO", "ok"),
        case("valid_longest_permit_number", payload(4, number="ABCDEFGHIJ0123456789", **p)[1], "VÁLIDO", "ok"),
        case("expired_yesterday", payload(7, expires=date(2026, 5, 31), **p)[1], "VENCIDO", "expired"),
        case("credential_revoked", payload(5, **p)[1], "INVÁLIDO", "credential_revoked"),
        case("credential_superseded", payload(6, **p)[1], "INVÁLIDO", "credential_superseded"),
        case("permit_suspenso", payload(8, number="PNT-2026/0002", **p)[1], "SUSPENSO", "permit_suspenso"),
        case("permit_cassado", payload(9, number="PNT-2026/0003", **p)[1], "CASSADO", "permit_cassado"),
        case("permit_vencido", payload(10, number="PNT-2026/0004", **p)[1], "VENCIDO", "permit_vencido"),
        case("permit_caducado", payload(11, number="PNT-2026/0005", **p)[1], "CADUCADO", "permit_caducado"),
        case("permit_extinto", payload(12, number="PNT-2026/0006", **p)[1], "INVÁLIDO", "permit_extinto"),
        case("permit_and_credential_suspenso", payload(16, number="PNT-2026/0007", **p)[1],
             "SUSPENSO", "permit_suspenso"),
        case("credential_entry_follows_cassado_permit", payload(17, number="PNT-2026/0008", **p)[1],
             "CASSADO", "permit_cassado"),
        case("permit_not_in_data", payload(13, number="PNT-2026/0999", **p)[1], "DESCONHECIDO", "permit_unknown"),
        case("credential_not_in_data", payload(99, **p)[1], "DESCONHECIDO", "credential_unknown"),
        case("other_municipality", payload(1, ibge=SAPEZAL, kid=1, key="sapezal_kid1", **p)[1],
             "INVÁLIDO", "other_municipality"),
        # Fresh data knows every key: a key id it does not list is made up (issue 8).
        case("unknown_key_id", payload(14, kid=9, key="rogue", **p)[1], "INVÁLIDO", "unknown_key"),
        case("forged_with_other_key", payload(15, key="rogue", **p)[1], "INVÁLIDO", "bad_signature"),
        case("key_revoked", payload(14, kid=3, key="paranatinga_kid3", **p)[1], "INVÁLIDO", "key_revoked"),
        case("empty", "", "INVÁLIDO", "empty"),
        case("signature_only_no_body", envelope(sig, legacy), "INVÁLIDO", "bad_length"),
    ]
    cases += legacy_envelope_cases(valid) if legacy else url_envelope_cases(body, sig, valid)
    # One flipped bit in every byte of body+signature. Expected outcome per byte region, from
    # the layout: version byte -> unsupported; key id 0 or IBGE > 9,999,999 or serial 0 are
    # outside the layout's ranges -> bad body; key id -> another kid (1 and 3 exist, but their
    # keys did not sign this: bad signature) else a key the fresh data does not list (INVÁLIDO);
    # IBGE -> other municipality; length byte -> length mismatch; permit chars -> outside
    # printable ASCII is a bad body, else the signature breaks; everything else -> signature.
    raw = body + sig
    for i in range(len(raw)):
        bit = i % 8
        flipped = bytearray(raw)
        flipped[i] ^= 1 << bit
        if i == 0:
            expected = ("INVÁLIDO", "unsupported_version")
        elif (flipped[1] == 0 or int.from_bytes(flipped[2:5], "big") > 9_999_999
              or int.from_bytes(flipped[5:9], "big") == 0):
            expected = ("INVÁLIDO", "bad_body")
        elif i == 1:
            expected = ("INVÁLIDO", "bad_signature") if flipped[1] in (1, 3) else ("INVÁLIDO", "unknown_key")
        elif i in (2, 3, 4):
            expected = ("INVÁLIDO", "other_municipality")
        elif i == 11:
            expected = ("INVÁLIDO", "bad_length")
        elif 12 <= i < len(body) and not 0x20 <= flipped[i] <= 0x7E:
            expected = ("INVÁLIDO", "bad_body")
        else:
            expected = ("INVÁLIDO", "bad_signature")
        cases.append(case(f"bit_flip_byte{i:02d}_bit{bit}", envelope(bytes(flipped), legacy), *expected))
    return cases


def legacy_envelope_cases(valid):
    """MF1: + base45: the first format's own parsing errors."""
    return [
        # base45 text lengths of 1 mod 3 do not exist; other truncations decode to too few bytes.
        *[case(f"truncated_{k}_chars", valid[:-k], "INVÁLIDO",
               "bad_base45" if (len(valid) - len(PREFIX) - k) % 3 == 1 else "bad_length")
          for k in (1, 2)],
        case("truncated_to_half", valid[: len(PREFIX) + 60], "INVÁLIDO", "bad_length"),
        case("prefix_only", PREFIX, "INVÁLIDO", "bad_length"),
        case("wrong_prefix", "HC1:" + valid[len(PREFIX):], "INVÁLIDO", "bad_prefix"),
        case("lowercase_prefix", valid.lower()[:4] + valid[4:], "INVÁLIDO", "bad_prefix"),
        case("lowercase_content", valid[:4] + valid[4:].lower(), "INVÁLIDO", "bad_base45"),
        case("non_base45_garbage", PREFIX + "hello, world!", "INVÁLIDO", "bad_base45"),
        case("non_canonical_base45_group", PREFIX + ":::", "INVÁLIDO", "bad_base45"),
        case("trailing_newline", valid + "\n", "INVÁLIDO", "bad_base45"),
    ]


def url_envelope_cases(body, sig, valid):
    """HTTPS://HOST/V/ + base32: scheme and host in any case, path and code exact."""
    code = valid[len(URL_PREFIX):]
    assert len(code) == 143  # 25 + 64 = 89 bytes = 712 bits -> 143 characters, the last with 3 spare bits
    spare_bit_set = code[:-1] + B32[B32.index(code[-1]) | 1]
    return [
        case("lowercase_scheme_and_host", "https://motofiscal.paranatinga.mt.gov.br/V/" + code, "VÁLIDO", "ok"),
        case("mixed_case_host_and_port", "Https://MotoFiscal.Paranatinga.MT.gov.br:8443/V/" + code, "VÁLIDO", "ok"),
        case("http_development_host", "HTTP://LOCALHOST:5000/V/" + code, "VÁLIDO", "ok"),
        case("same_body_as_mf1", "HTTPS://EXAMPLE.ORG/V/" + code, "VÁLIDO", "ok"),
        case("lowercase_path", URL_PREFIX[:-3] + "/v/" + code, "INVÁLIDO", "bad_prefix"),
        case("other_path", URL_PREFIX[:-3] + "/X/" + code, "INVÁLIDO", "bad_prefix"),
        case("extra_path_segment", URL_PREFIX[:-3] + "/APP/V/" + code, "INVÁLIDO", "bad_prefix"),
        case("ftp_scheme", "FTP://MOTOFISCAL.PARANATINGA.MT.GOV.BR/V/" + code, "INVÁLIDO", "bad_prefix"),
        case("no_host", "HTTPS:///V/" + code, "INVÁLIDO", "bad_prefix"),
        case("host_with_underscore", "HTTPS://MOTO_FISCAL.GOV.BR/V/" + code, "INVÁLIDO", "bad_prefix"),
        case("host_with_userinfo", "HTTPS://X@MOTOFISCAL.GOV.BR/V/" + code, "INVÁLIDO", "bad_prefix"),
        case("no_scheme", "MOTOFISCAL.PARANATINGA.MT.GOV.BR/V/" + code, "INVÁLIDO", "bad_prefix"),
        case("lowercase_code", URL_PREFIX + code.lower(), "INVÁLIDO", "bad_base32"),
        case("padded_code", URL_PREFIX + code + "======", "INVÁLIDO", "bad_base32"),
        case("trailing_newline", valid + "\n", "INVÁLIDO", "bad_base32"),
        case("trailing_slash", valid + "/", "INVÁLIDO", "bad_base32"),
        case("query_string", valid + "?utm=1", "INVÁLIDO", "bad_base32"),
        case("digit_outside_alphabet", URL_PREFIX + "1" + code[1:], "INVÁLIDO", "bad_base32"),
        case("spare_bits_not_zero", URL_PREFIX + spare_bit_set, "INVÁLIDO", "bad_base32"),
        case("truncated_1_char", valid[:-1], "INVÁLIDO", "bad_base32"),  # 142 = 6 mod 8: no such length
        case("truncated_to_85_bytes", URL_PREFIX + code[:136], "INVÁLIDO", "bad_length"),  # 136 chars = 85 bytes
        case("path_only", URL_PREFIX, "INVÁLIDO", "bad_length"),
        case("base45_after_url", URL_PREFIX + b45encode(body + sig), "INVÁLIDO", "bad_base32"),
    ]


def main():
    main_payloads = common_cases(legacy=False)
    valid = main_payloads[0]["payload"]
    expired = main_payloads[4]["payload"]
    revoked = main_payloads[5]["payload"]
    legacy_payloads = common_cases(legacy=True)
    legacy_valid = legacy_payloads[0]["payload"]
    unknown_key = payload(14, kid=9, key="rogue")[1]
    groups = [
        {"name": "main", "now": NOW, "trust": TRUST, "cases": main_payloads},
        # Crachás printed in the first format keep verifying until they expire.
        {"name": "main_mf1", "now": NOW, "trust": TRUST, "cases": legacy_payloads},
        {"name": "late_evening_local_time", "now": "2026-06-02T03:30:00Z",  # 23:30 on 1 June in MT
         "trust": TRUST, "cases": [
             case("expires_today_local", payload(3, expires=date(2026, 6, 1))[1], "VÁLIDO", "ok"),
             case("expires_today_local_mf1", payload(3, expires=date(2026, 6, 1), legacy=True)[1],
                  "VÁLIDO", "ok")]},
        {"name": "stale_data", "now": "2026-06-03T12:00:01Z", "trust": TRUST, "cases": [
            case("valid_but_stale", valid, "DESCONHECIDO", "stale_data"),
            case("valid_but_stale_mf1", legacy_valid, "DESCONHECIDO", "stale_data"),
            case("expired_stays_expired", expired, "VENCIDO", "expired"),
            # A revocation is final: old data may still say so.
            case("revoked_but_stale", revoked, "INVÁLIDO", "credential_revoked"),
            # Stale data may miss a new key: unknown stays DESCONHECIDO, not INVÁLIDO.
            case("unknown_key_stale", unknown_key, "DESCONHECIDO", "unknown_key_stale")]},
        {"name": "at_freshness_limit", "now": "2026-06-03T12:00:00Z", "trust": TRUST, "cases": [
            case("valid_at_limit", valid, "VÁLIDO", "ok"),
            case("unknown_key_at_limit", unknown_key, "INVÁLIDO", "unknown_key")]},
        {"name": "device_clock_behind", "now": "2026-06-01T11:59:00Z", "trust": TRUST, "cases": [
            case("valid_clock_behind", valid, "DESCONHECIDO", "clock_behind"),
            # The data's age is unknown when the clock is behind it: not fresh.
            case("unknown_key_clock_behind", unknown_key, "DESCONHECIDO", "unknown_key_stale")]},
    ]
    out = {"_comment": "Generated by make_vectors.py; expected verdicts are stated by the generator "
                       "from each scenario, not computed by a verifier.",
           "formats": {"url": URL_PREFIX + "<base32>", "legacy": PREFIX + "<base45>"}, "groups": groups}
    (HERE / "vectors.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    print(sum(len(g["cases"]) for g in groups), "cases")


if __name__ == "__main__":
    main()
