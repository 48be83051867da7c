"""Field sync: device key, auto number blocks and the batch push (issue 9, server side)."""
import json
from datetime import datetime, timedelta, timezone

import pytest

from fieldsync_device import FakeDevice, b64url, sha256_hex
from helpers import api_token
from server.core.clock import local_today
from server.extensions import db


@pytest.fixture
def phone(client, demo):
    return FakeDevice(client, "fiscal.sapezal")


def _get(model, ident):
    from server.extensions import db
    return db.session.get(model, ident)


def _count(app, model, **filters):
    with app.app_context():
        return model.query.filter_by(**filters).count()


# --- device key -------------------------------------------------------------------------------

def test_key_registration_is_idempotent_and_never_replaced(client, demo):
    device = FakeDevice(client, "fiscal.sapezal", register_key=False)
    body = {"algorithm": "Ed25519", "public_key": device.public_key}
    first = client.put("/api/v1/devices/me/key", headers=device.headers, json=body)
    assert first.status_code == 200
    assert first.json == {"device_id": device.device_id,
                          "key_fingerprint": sha256_hex(_raw(device.public_key))[:16]}
    assert client.put("/api/v1/devices/me/key", headers=device.headers, json=body).json == first.json
    other = FakeDevice(client, "fiscal.sapezal", register_key=False).public_key
    refused = client.put("/api/v1/devices/me/key", headers=device.headers,
                         json={"algorithm": "Ed25519", "public_key": other})
    assert refused.status_code == 409 and refused.json["error"]["code"] == "key_already_registered"
    bad = client.put("/api/v1/devices/me/key", headers=device.headers,
                     json={"algorithm": "Ed25519", "public_key": b64url(b"short")})
    assert bad.status_code == 422 and "public_key" in bad.json["error"]["fields"]


def _raw(text):
    import base64
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_sync_needs_a_fiscal_with_a_device_token(client, demo):
    no_device = api_token(client, "fiscal.sapezal")  # logged in without a device name
    response = client.post("/api/v1/autos/numbers", headers=no_device, json={"count": 3})
    assert response.status_code == 403 and response.json["error"]["code"] == "device_required"
    staff = api_token(client, "backoffice.sapezal")
    assert client.post("/api/v1/sync/push", headers=staff, json={"records": []}).status_code == 403
    assert client.post("/api/v1/sync/push", json={"records": []}).status_code == 401


def test_revoked_device_is_told_to_wipe(app, client, demo, phone):
    from server.modules.accounts.models import Device
    from server.modules.accounts.operations import revoke_device
    with app.app_context():
        revoke_device(_get(Device, phone.device_id), "perdido")
        db.session.commit()  # as the admin's request
    # Every authenticated endpoint says so (core.auth.api_auth), not only the sync ones.
    for response in (phone.push([phone.inspection()]), client.get("/api/v1/field/data", headers=phone.headers),
                     client.post("/api/v1/autos/numbers", headers=phone.headers, json={}),
                     client.get("/api/v1/trust/sapezal", headers=phone.headers),
                     client.get("/api/v1/autos/numbers", headers=phone.headers)):
        assert response.status_code == 403, response.request.path
        assert response.json["error"]["code"] == "device_revoked"


def test_expired_token_of_an_active_device_is_a_plain_401(app, client, demo, phone):
    from datetime import datetime, timedelta, timezone

    from server.extensions import db
    from server.modules.accounts.models import ApiToken
    with app.app_context():
        for token in ApiToken.query.filter_by(device_id=phone.device_id):
            token.expires_at = datetime.now(timezone.utc) - timedelta(minutes=1)
        db.session.commit()
    for response in (phone.push([phone.inspection()]), client.get("/api/v1/trust/sapezal", headers=phone.headers)):
        assert response.status_code == 401
        assert response.json["error"]["code"] == "unauthorized"


# --- numbers ----------------------------------------------------------------------------------

def test_number_blocks_never_overlap_and_voids_are_kept(app, client, demo, phone):
    other = FakeDevice(client, "fiscal.sapezal", name="Segundo aparelho")
    a, b, c = phone.reserve(3), other.reserve(2), phone.reserve(2)
    year = local_today().year  # the series is the municipality's year (Cuiabá), not UTC's
    assert a == [f"SAP-{year}-{n:06d}" for n in (1, 2, 3)]
    assert b == [f"SAP-{year}-{n:06d}" for n in (4, 5)] and c[0].endswith("000006")
    paranatinga = FakeDevice(client, "fiscal.paranatinga").reserve(1)
    assert paranatinga == [f"PAR-{year}-000001"]  # one series per municipality

    void = client.post("/api/v1/autos/numbers/void", headers=phone.headers,
                       json={"number": a[0], "reason": "Formulário rasurado"})
    assert void.status_code == 200 and void.json["status"] == "voided"
    again = client.post("/api/v1/autos/numbers/void", headers=phone.headers,
                        json={"number": a[0], "reason": "Formulário rasurado"})
    assert again.status_code == 200  # idempotent
    not_mine = client.post("/api/v1/autos/numbers/void", headers=phone.headers,
                           json={"number": b[0], "reason": "Não é meu"})
    assert not_mine.status_code == 404 and not_mine.json["error"]["code"] == "number_unknown"
    assert client.post("/api/v1/autos/numbers/void", headers=phone.headers,
                       json={"number": a[1]}).json["error"]["fields"] == {"reason": ["Campo obrigatório."]}
    listed = client.get("/api/v1/autos/numbers", headers=phone.headers).json["numbers"]
    assert [(n["number"], n["status"]) for n in listed][:2] == [(a[0], "voided"), (a[1], "reserved")]
    from server.core.audit import AuditLog
    assert _count(app, AuditLog, action="reserve_numbers") == 4
    assert _count(app, AuditLog, action="void_number") == 1
    too_many = client.post("/api/v1/autos/numbers", headers=phone.headers, json={"count": 101})
    assert too_many.status_code == 422 and "count" in too_many.json["error"]["fields"]


# --- push -------------------------------------------------------------------------------------

def test_replaying_a_batch_ten_times_stores_each_record_once(app, phone):
    from server.modules.fieldsync.models import FieldRecord
    numbers = phone.reserve(2)
    inspection = phone.body("inspection")
    batch = [phone.record(inspection), phone.auto(numbers[0], inspection_id=inspection["id"]), phone.inspection()]
    first = phone.push(batch)
    assert first.status_code == 200
    assert [r["status"] for r in first.json["results"]] == ["accepted"] * 3
    assert all(r["flags"] == [] for r in first.json["results"]), first.json
    for _ in range(10):
        replay = phone.push(batch)
        assert [r["status"] for r in replay.json["results"]] == ["duplicate"] * 3
        assert [r["received_at"] for r in replay.json["results"]] == [r["received_at"] for r in first.json["results"]]
    assert _count(app, FieldRecord) == 3
    with app.app_context():
        stored = _get(FieldRecord, batch[1]["id"])
        assert stored.body == batch[1]["body"]  # byte for byte as signed
        assert stored.auto_number == numbers[0]


def test_same_id_other_body_is_a_conflict_kept_apart(app, phone):
    from server.core.audit import AuditLog
    from server.modules.fieldsync.models import FieldRecord, FieldRecordConflict
    body = phone.body("inspection")
    original = phone.record(body)
    assert phone.push([original]).json["results"][0]["status"] == "accepted"
    changed = phone.record({**body, "plate": "XYZ9Z99"})
    for _ in range(3):
        result = phone.push([changed]).json["results"][0]
        assert result["status"] == "conflict" and result["id"] == body["id"]
    with app.app_context():
        assert _get(FieldRecord, body["id"]).body == original["body"]  # never overwritten
        conflicts = FieldRecordConflict.query.all()
        assert len(conflicts) == 1 and conflicts[0].body == changed["body"]
        assert AuditLog.query.filter_by(action="sync_conflict").count() == 1


def test_tampered_signature_is_accepted_but_flagged(phone):
    good = phone.inspection()
    tampered = phone.inspection()
    tampered["body"] = tampered["body"].replace("ABC1D23", "ABC1D24")
    unsigned = phone.record(phone.body("inspection"), sign=False)
    results = phone.push([good, tampered, unsigned]).json["results"]
    assert [r["status"] for r in results] == ["accepted"] * 3
    assert results[0]["flags"] == []
    assert "bad_signature" in results[1]["flags"] and "bad_signature" in results[2]["flags"]


def test_broken_chain_and_gaps_are_flagged_and_settled(app, phone):
    from server.modules.fieldsync.models import FieldRecord
    first = phone.inspection()
    second_body = phone.body("inspection")
    second = phone.record(second_body)
    third = phone.inspection()
    assert phone.push([first]).json["results"][0]["flags"] == []
    # The third arrives before the second: a gap, settled when the second arrives.
    assert phone.push([third]).json["results"][0]["flags"] == ["chain_gap"]
    assert phone.push([second]).json["results"][0]["flags"] == []
    with app.app_context():
        assert _get(FieldRecord, third["id"]).flags == []
    broken = phone.body("inspection")
    broken["prev_hash"] = sha256_hex("not the previous record")
    assert phone.push([phone.record(broken)]).json["results"][0]["flags"] == ["broken_chain"]
    # A record at a seq the device already used (a restored backup, a cloned phone).
    phone.seq -= 1
    assert "seq_reused" in phone.push([phone.inspection()]).json["results"][0]["flags"]


def test_unknown_reused_and_voided_numbers_are_flagged(client, phone):
    numbers = phone.reserve(3)
    other = FakeDevice(client, "fiscal.sapezal", name="Outro").reserve(1)
    client.post("/api/v1/autos/numbers/void", headers=phone.headers, json={"number": numbers[2], "reason": "Rasurado"})
    results = phone.push([phone.auto(numbers[0]), phone.auto(numbers[0]), phone.auto("SAP-1999-999999"),
                          phone.auto(other[0]), phone.auto(numbers[2]), phone.auto(numbers[1])]).json["results"]
    assert [r["status"] for r in results] == ["accepted"] * 6
    assert [r["flags"] for r in results] == [[], ["number_reused"], ["number_unknown"], ["number_unknown"],
                                             ["number_voided"], []]


def test_clock_from_1970_the_future_and_far_from_gps_is_flagged(phone):
    utc = timezone.utc
    now = datetime.now(utc)
    records = [phone.record(phone.body("inspection", device_at=datetime(1970, 1, 1, 0, 0, 7, tzinfo=utc))),
               phone.record(phone.body("inspection", device_at=now + timedelta(days=2)))]
    for gps_at in (now - timedelta(hours=3), now):
        body = phone.body("inspection")
        body["clock"]["gps_at"] = gps_at.isoformat()
        records.append(phone.record(body))
    results = phone.push(records).json["results"]
    assert [r["status"] for r in results] == ["accepted"] * 4
    assert [r["flags"] for r in results] == [["clock_behind"], ["clock_ahead"], ["clock_drift"], []]


def test_malformed_records_are_rejected_with_field_errors(app, phone):
    from server.modules.fieldsync.models import FieldRecord
    missing = phone.body("auto", number="X")
    wrong_id = phone.body("inspection")
    naive_clock = phone.body("inspection")
    naive_clock["clock"]["device_at"] = "2026-05-10T14:03:00"
    good = phone.inspection()
    batch = [{"id": "0b4e-not-a-uuid", "body": "{}", "signature": "x"},
             {"id": missing["id"], "body": "{not json", "signature": "abc"},
             phone.record(missing),
             {**phone.record(wrong_id), "id": "00000000-0000-4000-8000-000000000000"},
             phone.record(naive_clock), "not an object", good]
    results = phone.push(batch).json["results"]
    assert [r["status"] for r in results] == ["rejected"] * 6 + ["accepted"]
    assert "id" in results[0]["errors"]
    assert results[1]["errors"] == {"body": ["JSON inválido."]}
    assert set(results[2]["errors"]) == {"body.signatures", "body.public_token"}
    assert results[3]["errors"] == {"body.id": ["Diferente do id do registro."]}
    assert "body.clock.device_at" in results[4]["errors"]
    assert results[5]["id"] is None and results[5]["errors"]
    assert _count(app, FieldRecord) == 1
    too_big = phone.push([good] * 101)
    assert too_big.status_code == 422 and "records" in too_big.json["error"]["fields"]
    assert phone.client.post("/api/v1/sync/push", headers=phone.headers, data="[]",
                             content_type="application/json").status_code == 400


def test_accepted_records_are_audited_and_scoped(app, client, demo, phone):
    from server.core.audit import AuditLog
    from server.modules.fieldsync.models import FieldRecord
    record = phone.inspection()
    phone.push([record])
    with app.app_context():
        stored = _get(FieldRecord, record["id"])
        entry = AuditLog.query.filter_by(action="sync_accept").one()
        assert entry.entity_id == record["id"] and entry.municipality_id == stored.municipality_id
        assert entry.after["records"] == [{"id": record["id"], "kind": "inspection", "seq": 1, "flags": [],
                                           "number": None}]
        assert stored.device_id == phone.device_id
    # The same id pushed by another municipality's phone never touches this record.
    stranger = FakeDevice(client, "fiscal.paranatinga")
    result = stranger.push([record]).json["results"][0]
    assert result["status"] == "foreign"
    with app.app_context():
        assert _get(FieldRecord, record["id"]).municipality_id == stored.municipality_id


def test_inspection_names_the_operator_and_the_auto_follows(app, client, demo, phone):
    from server.modules.fieldsync.models import FieldRecord
    from server.modules.registry.models import Municipality, Permit
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        permit = Permit.query.filter_by(municipality_id=muni.id).order_by(Permit.id).first()
        number, operator_id = permit.number, permit.main_driver.id
    numbers = phone.reserve(1)
    inspection = phone.body("inspection", permit_number=number)
    auto = phone.auto(numbers[0], inspection_id=inspection["id"])
    # The auto arrives first (the outbox is per record): it learns its operator from the inspection.
    phone.push([auto])
    phone.push([phone.record(inspection)])
    with app.app_context():
        assert _get(FieldRecord, auto["id"]).operator_id == operator_id
        assert json.loads(_get(FieldRecord, inspection["id"]).body)["permit_number"] == number
