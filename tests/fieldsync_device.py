"""A phone as the field sync sees it, for tests and benchmarks: it logs in with a device name,
holds an Ed25519 key (cryptography: the client side, not our component), builds records chained
by hash and signs their bodies, exactly as docs/sync-api.md says the app must."""
import base64
import hashlib
import json
import uuid
from datetime import datetime, timedelta, timezone

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from helpers import DEMO_PASSWORD


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def sha256_hex(data) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


class FakeDevice:
    def __init__(self, client, username, password=DEMO_PASSWORD, name="Moto G - teste", register_key=True):
        response = client.post("/api/v1/auth/token", json={"username": username, "password": password,
                                                          "device_name": name})
        assert response.status_code == 200, response.json
        self.client = client
        self.token = response.json["token"]
        self.device_id = response.json["device_id"]
        self.headers = {"Authorization": f"Bearer {self.token}"}
        self.key = Ed25519PrivateKey.generate()
        self.public_key = b64url(self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))
        self.seq = 0
        self.last_hash = None
        if register_key:
            response = client.put("/api/v1/devices/me/key", headers=self.headers,
                                  json={"algorithm": "Ed25519", "public_key": self.public_key})
            assert response.status_code == 200, response.json

    # --- building records -----------------------------------------------------------------
    def body(self, kind="inspection", device_at=None, **fields):
        """The next record body of this device's chain (advances seq and the chain)."""
        self.seq += 1
        now = device_at or datetime.now(timezone(timedelta(hours=-4)))
        body = {"id": str(uuid.uuid4()), "kind": kind, "device_id": self.device_id, "seq": self.seq,
                "prev_hash": self.last_hash,
                "clock": {"device_at": now.isoformat(timespec="seconds"), "gps_at": None},
                "gps": {"lat": -13.54, "lon": -58.81, "accuracy_m": 8.0}, "data_age_s": 120, "photos": []}
        if kind == "inspection":
            body.update({"permit_number": None, "plate": "ABC1D23", "credential": None, "answers": {},
                         "answer_sources": {}, "item_photos": {}, "evaluation": {}, "pack_versions": {}})
        body.update(fields)
        return body

    def record(self, body, sign=True):
        """body dict → push item; the chain moves on to this body's hash."""
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        self.last_hash = sha256_hex(text)
        signature = b64url(self.key.sign(text.encode("utf-8"))) if sign else b64url(b"\0" * 64)
        return {"id": body["id"], "body": text, "signature": signature}

    def inspection(self, **fields):
        return self.record(self.body("inspection", **fields))

    def auto(self, number, inspection_id=None, token=None, **fields):
        fields = {"inspection_id": inspection_id, "number": number,
                  "infractions": [{"id": "sap.inf.um_passageiro", "citation": {"law": "L125", "art": "13"},
                                   "amount": {"value": 50, "unit": "UFM"}, "amount_brl": 123.45,
                                   "decision": "confirmed", "removal_reason": None}],
                  "auto_fields": {}, "signatures": {"fiscal": sha256_hex("fiscal-png"), "operator": None,
                                                    "operator_refused": True},
                  "defence": {"deadline_days": 30, "instance": "JARI"},
                  "public_token": token or b64url(uuid.uuid4().bytes + uuid.uuid4().bytes), **fields}
        return self.record(self.body("auto", **fields))

    # --- talking to the server --------------------------------------------------------------
    def push(self, records):
        return self.client.post("/api/v1/sync/push", headers=self.headers, json={"records": records})

    def reserve(self, count=5):
        response = self.client.post("/api/v1/autos/numbers", headers=self.headers, json={"count": count})
        assert response.status_code == 201, response.json
        return response.json["numbers"]
