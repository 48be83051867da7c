"""Deterministic benchmark data: trust data for a municipality with many permits and
credentials, and payloads to verify, signed with the committed test-only keys."""
import json
from datetime import date
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from server.modules.credentials.codec import Body, encode_body, make_payload, make_url_payload
from server.modules.credentials.signing import b64url, public_raw

ROOT = Path(__file__).resolve().parent.parent
SEEDS = json.loads((ROOT / "tests/vectors/credentials/test_keys.json").read_text())
IBGE = 5106307
BASE_URL = "https://motofiscal.paranatinga.mt.gov.br"


def build(permits=2000, generated_at="2026-06-01T12:00:00Z", legacy=False):
    """Payloads in the URL form the server issues now, or in the first MF1 form when legacy."""
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(SEEDS["paranatinga_kid2"]))
    entries, payloads = [], []
    cursor = 0
    for i in range(1, permits + 1):
        number = f"PNT-{2026 - i % 3}/{i:04d}"  # 13 characters, a realistic order number
        for kind, ref, status in (("permit", number, "ativo"), ("credential", str(i), "active")):
            cursor += 1
            entries.append({"cursor": cursor, "kind": kind, "ref": ref, "status": status})
        body = encode_body(Body(kid=2, ibge_code=IBGE, serial=i, expires_on=date(2026, 12, 31),
                                permit_number=number))
        signature = key.sign(body)
        payloads.append(make_payload(body, signature) if legacy else make_url_payload(body, signature, BASE_URL))
    trust = {
        "municipality": {"ibge_code": IBGE, "slug": "paranatinga", "name": "Paranatinga",
                         "utc_offset_minutes": -240},
        "generated_at": generated_at, "max_age_seconds": 72 * 3600,
        "keys": [{"kid": 2, "public_key": b64url(public_raw(key)), "status": "active", "revoked_reason": None}],
        "entries": entries,
    }
    return {"trust": trust, "payloads": payloads, "now": "2026-06-01T15:00:00Z"}
