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

from server.modules.credentials.codec import PREFIX, Body, encode_body, make_payload
from server.modules.credentials.base45 import b45encode
from server.modules.credentials.signing import b64url, public_raw

HERE = Path(__file__).parent
SEEDS = json.loads((HERE / "test_keys.json").read_text())
KEYS = {name: Ed25519PrivateKey.from_private_bytes(bytes.fromhex(hexseed))
        for name, hexseed in SEEDS.items() if not name.startswith("_")}

PARANATINGA, SAPEZAL = 5106307, 5107875
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
for serial in range(1, 16):
    entry("credential", serial, "active")
entry("credential", 5, "revoked", "extravio")
entry("credential", 6, "superseded", "renovação")
entry("key", 3, "revoked", "chave comprometida")


def payload(serial, number="PNT-2026/0001", kid=2, key="paranatinga_kid2", ibge=PARANATINGA,
            expires=date(2026, 12, 31)):
    body = encode_body(Body(kid=kid, ibge_code=ibge, serial=serial, expires_on=expires,
                            permit_number=number))
    return body, make_payload(body, KEYS[key].sign(body))


def case(name, text, verdict, reason_code):
    return {"name": name, "payload": text, "expected": {"verdict": verdict, "reason_code": reason_code}}


def main_cases():
    body, valid = payload(1)
    sig = KEYS["paranatinga_kid2"].sign(body)
    cases = [
        case("valid", valid, "VÁLIDO", "ok"),
        case("valid_retired_key", payload(2, kid=1, key="paranatinga_kid1")[1], "VÁLIDO", "ok"),
        case("valid_expires_today", payload(3, expires=date(2026, 6, 1))[1], "VÁLIDO", "ok"),
        case("valid_longest_permit_number", payload(4, number="ABCDEFGHIJ0123456789")[1], "VÁLIDO", "ok"),
        case("expired_yesterday", payload(7, expires=date(2026, 5, 31))[1], "VENCIDO", "expired"),
        case("credential_revoked", payload(5)[1], "INVÁLIDO", "credential_revoked"),
        case("credential_superseded", payload(6)[1], "INVÁLIDO", "credential_superseded"),
        case("permit_suspenso", payload(8, number="PNT-2026/0002")[1], "SUSPENSO", "permit_suspenso"),
        case("permit_cassado", payload(9, number="PNT-2026/0003")[1], "CASSADO", "permit_cassado"),
        case("permit_vencido", payload(10, number="PNT-2026/0004")[1], "VENCIDO", "permit_vencido"),
        case("permit_caducado", payload(11, number="PNT-2026/0005")[1], "VENCIDO", "permit_caducado"),
        case("permit_extinto", payload(12, number="PNT-2026/0006")[1], "INVÁLIDO", "permit_extinto"),
        case("permit_not_in_data", payload(13, number="PNT-2026/0999")[1], "DESCONHECIDO", "permit_unknown"),
        case("credential_not_in_data", payload(99)[1], "DESCONHECIDO", "credential_unknown"),
        case("other_municipality", payload(1, ibge=SAPEZAL, kid=1, key="sapezal_kid1")[1],
             "INVÁLIDO", "other_municipality"),
        case("unknown_key_id", payload(14, kid=9, key="rogue")[1], "DESCONHECIDO", "unknown_key"),
        case("forged_with_other_key", payload(15, key="rogue")[1], "INVÁLIDO", "bad_signature"),
        case("key_revoked", payload(14, kid=3, key="paranatinga_kid3")[1], "INVÁLIDO", "key_revoked"),
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
        case("empty", "", "INVÁLIDO", "empty"),
        case("signature_only_no_body", PREFIX + b45encode(sig), "INVÁLIDO", "bad_length"),
    ]
    # One flipped bit in every byte of body+signature. Expected outcome per byte region, from
    # the layout: version byte -> unsupported; key id 0 or IBGE > 9,999,999 or serial 0 are
    # outside the layout's ranges -> bad body; key id -> another kid (1 and 3 exist, but their
    # keys did not sign this) else unknown; IBGE -> other municipality; length byte -> length
    # mismatch; permit chars -> outside printable ASCII is a bad body, else the signature breaks;
    # everything else -> signature mismatch.
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
            expected = ("INVÁLIDO", "bad_signature") if flipped[1] in (1, 3) else ("DESCONHECIDO", "unknown_key")
        elif i in (2, 3, 4):
            expected = ("INVÁLIDO", "other_municipality")
        elif i == 11:
            expected = ("INVÁLIDO", "bad_length")
        elif 12 <= i < len(body) and not 0x20 <= flipped[i] <= 0x7E:
            expected = ("INVÁLIDO", "bad_body")
        else:
            expected = ("INVÁLIDO", "bad_signature")
        cases.append(case(f"bit_flip_byte{i:02d}_bit{bit}", PREFIX + b45encode(bytes(flipped)), *expected))
    return cases


def main():
    main_payloads = main_cases()
    valid = main_payloads[0]["payload"]
    expired = main_payloads[4]["payload"]
    revoked = main_payloads[5]["payload"]
    groups = [
        {"name": "main", "now": NOW, "trust": TRUST, "cases": main_payloads},
        {"name": "late_evening_local_time", "now": "2026-06-02T03:30:00Z",  # 23:30 on 1 June in MT
         "trust": TRUST, "cases": [
             case("expires_today_local", payload(3, expires=date(2026, 6, 1))[1], "VÁLIDO", "ok")]},
        {"name": "stale_data", "now": "2026-06-03T12:00:01Z", "trust": TRUST, "cases": [
            case("valid_but_stale", valid, "DESCONHECIDO", "stale_data"),
            case("expired_stays_expired", expired, "VENCIDO", "expired"),
            # A revocation is final: old data may still say so.
            case("revoked_but_stale", revoked, "INVÁLIDO", "credential_revoked")]},
        {"name": "at_freshness_limit", "now": "2026-06-03T12:00:00Z", "trust": TRUST, "cases": [
            case("valid_at_limit", valid, "VÁLIDO", "ok")]},
        {"name": "device_clock_behind", "now": "2026-06-01T11:59:00Z", "trust": TRUST, "cases": [
            case("valid_clock_behind", valid, "DESCONHECIDO", "clock_behind")]},
    ]
    out = {"_comment": "Generated by make_vectors.py; expected verdicts are stated by the generator "
                       "from each scenario, not computed by a verifier.",
           "format": PREFIX, "groups": groups}
    (HERE / "vectors.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    print(sum(len(g["cases"]) for g in groups), "cases")


if __name__ == "__main__":
    main()
