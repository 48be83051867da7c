"""Demo records for the review queue: a Sapezal fiscal's phone, enrolled and keyed, pushes a few
signed inspections and autos through the real sync operations (photos, a cancellation request,
a divergent body, a record with a broken signature), so `make run` shows a queue with work."""
import base64
import hashlib
import io
import json
import uuid
from datetime import timedelta

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from PIL import Image, ImageDraw

from ...core.clock import local_now
from ...extensions import db
from ..accounts.models import Device, User
from ..fieldsync import operations as sync
from ..fieldsync.numbers import reserve_numbers
from ..fieldsync.photos import store_photo
from ..registry.models import Municipality, Permit


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _photo(colour, text, ink=(255, 255, 255)):
    img = Image.new("RGB", (640, 480), colour)
    draw = ImageDraw.Draw(img)
    draw.text((20, 20), text, fill=ink)
    if colour == (250, 250, 250):  # a signature: a scribble in ink on white
        draw.line([(60, 300), (140, 220), (200, 330), (280, 210), (360, 320), (460, 240), (560, 300)],
                  fill=(20, 30, 90), width=6)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=80)
    return out.getvalue()


class _Phone:
    def __init__(self, device, user):
        self.device, self.user = device, user
        self.key = Ed25519PrivateKey.generate()
        sync.register_key(device, _b64(self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)))
        self.seq, self.last = 0, None

    def photo(self, colour, text):
        data = _photo(colour, text, (20, 30, 90) if colour == (250, 250, 250) else (255, 255, 255))
        sha = hashlib.sha256(data).hexdigest()
        store_photo(self.device, sha, "image/jpeg", data)
        return sha

    def record(self, kind, at, **fields):
        self.seq += 1
        body = {"id": str(uuid.uuid4()), "kind": kind, "device_id": self.device.id, "seq": self.seq,
                "prev_hash": self.last, "clock": {"device_at": at.isoformat(timespec="seconds"),
                                                  "gps_at": at.isoformat(timespec="seconds")},
                "gps": {"lat": -13.5441, "lon": -58.8139, "accuracy_m": 6.0}, "data_age_s": 900, "photos": [],
                **fields}
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        self.last = hashlib.sha256(text.encode()).hexdigest()
        return {"id": body["id"], "body": text, "signature": _b64(self.key.sign(text.encode()))}, body


def _ctb_observed():
    """A stop where the driver wore no vest (Lei 12.009/2009 art. 2º IV): the phone proposes CTB art.
    244 IX, which the fiscal sends to the traffic authority ("Comunicar" on the result screen), so
    `make run` shows a communication "a comunicar" (server/modules/traffic)."""
    ctb = {"id": "fed.inf.ctb244_ix", "label_pt": "Transporte remunerado em desacordo com as normas do mototaxista",
           "citation": {"law": "CTB", "art": "244", "inciso": "IX"}, "jurisdiction": "snt",
           "triggered_by": ["fed.req.colete_retrorrefletivo"]}
    evaluation = {"failed": [{"requirement": "fed.req.colete_retrorrefletivo", "label_pt": "Condutor de colete com dispositivos retrorrefletivos",
                              "infractions": [ctb["id"]]}], "infractions": [ctb]}
    return evaluation, {ctb["id"]: {"decision": "communicate", "reason": ""}}


def load_review_demo():
    muni = Municipality.query.filter_by(slug="sapezal").first()
    user = User.query.filter_by(username="fiscal.sapezal").first()
    if muni is None or user is None:
        return
    # Enrolled a month ago, so the day's records are not flagged as older than the phone.
    device = Device(municipality_id=muni.id, user_id=user.id, name="Moto G (demonstração)",
                    registered_at=local_now() - timedelta(days=30))
    db.session.add(device)
    db.session.flush()
    phone = _Phone(device, user)
    _block, numbers = reserve_numbers(device, user, 5)
    permits = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).limit(3).all()
    now = local_now().replace(microsecond=0)
    batch = []
    infraction = {"id": "sap.inf.um_passageiro", "citation": {"law": "L125", "art": "13"},
                  "label_pt": "Transporte de mais de um passageiro", "amount": None, "amount_brl": None,
                  "decision": "confirmed", "removal_reason": None}
    signature = phone.photo((250, 250, 250), "assinatura do fiscal")
    for i, permit in enumerate(permits):
        at = now - timedelta(hours=3 * (len(permits) - i))
        driver = permit.main_driver
        evidence = phone.photo((40 + 60 * i, 90, 140), f"evidência {i + 1} — {permit.vehicle.plate}")
        answers = {"driver.helmet": True, "passenger.present": True, "passenger.count": 2 if i < 2 else 1,
                   "vehicle.headlight_on": i != 1, "equipment.mirrors_count": 2}
        evaluation, decisions = (_ctb_observed() if i == 2 else ({}, {}))
        if i == 2:
            answers["driver.vest"] = False
        item, inspection = phone.record(
            "inspection", at, permit_number=permit.number, plate=permit.vehicle.plate,
            operator_id=driver.id if driver else None, photos=[evidence],
            credential={"verdict": "valido", "reason": "Crachá válido e alvará ativo.", "payload_text": None},
            answers=answers, answer_sources={k: "fiscal" for k in answers}, item_photos={}, evaluation=evaluation,
            # Each answer tapped on its own item (issue 34: every answer says how it was given).
            answer_how={k: {"how": "item", "at": (at - timedelta(minutes=5)).isoformat()} for k in answers},
            group_declarations=[], not_applicable={}, decisions=decisions, pack_versions=[])
        batch.append(item)
        if i < 2:
            auto_item, _auto = phone.record(
                "auto", at + timedelta(minutes=12), inspection_id=inspection["id"], number=numbers[i],
                place=f"Av. Tancredo Neves, {200 + i * 50}", permit_number=permit.number,
                plate=permit.vehicle.plate, operator_id=driver.id if driver else None,
                photos=[evidence, signature], auto_fields={},
                infractions=[dict(infraction, grounds=[{"fact": "passenger.count", "value": answers["passenger.count"],
                                                        "how": "item", "at": (at - timedelta(minutes=5)).isoformat()}])],
                checklist_how={"item": len(answers), "quick": 0, "group": 0, "declarations": 0, "registry": 0,
                               "not_checked": 0, "not_applicable": 0},
                signatures={"fiscal": signature, "operator": None, "operator_refused": True},
                defence={"deadline_days": None, "instance": None}, public_token=_b64(uuid.uuid4().bytes * 2))
            batch.append(auto_item)
    sync.push(device, user, batch)
    autos = [json.loads(b["body"]) for b in batch if '"kind":"auto"' in b["body"]]
    if autos:
        cancel, _ = phone.record("cancel_request", now - timedelta(minutes=30), auto_id=autos[-1]["id"],
                                 reason="Passageiro era filho menor do condutor; confirmei depois com documento.")
        divergent = dict(autos[0], plate="QAB1C23")
        text = json.dumps(divergent, ensure_ascii=False, separators=(",", ":"))
        replay = {"id": divergent["id"], "body": text, "signature": _b64(phone.key.sign(text.encode()))}
        tampered, _ = phone.record("inspection", now - timedelta(minutes=5), plate="XYZ9A87", answers={},
                                   photos=[hashlib.sha256(b"photo never sent").hexdigest()])
        tampered["signature"] = tampered["signature"][::-1]
        sync.push(device, user, [cancel, replay, tampered])
