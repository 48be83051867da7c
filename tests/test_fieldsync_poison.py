"""Issue 20: one bad record is answered `rejected` with its reason and never fails its batch;
a rejected record is kept in a quarantine the back office sees (a signed auto is evidence)."""
import json
import uuid

import pytest

from fieldsync_device import FakeDevice, b64url
from helpers import login


@pytest.fixture
def phone(client, demo):
    return FakeDevice(client, "fiscal.sapezal")


def _count(app, model, **filters):
    with app.app_context():
        return model.query.filter_by(**filters).count()


def _with_clock(phone, device_at=None, gps_at=None, kind="inspection", **fields):
    body = phone.body(kind, **fields)
    if device_at is not None:
        body["clock"]["device_at"] = device_at
    if gps_at is not None:
        body["clock"]["gps_at"] = gps_at
    return phone.record(body)


def _raw_record(phone, text_body, rid):
    """A push item whose body text is given as is (signed as sent)."""
    return {"id": rid, "body": text_body, "signature": b64url(phone.key.sign(text_body.encode("utf-8", "surrogatepass")))}


def test_clocks_the_arithmetic_cannot_hold_are_rejected_and_the_rest_stored(app, phone):
    from server.modules.fieldsync.models import FieldRecord
    batch = [phone.inspection(),
             _with_clock(phone, "0001-01-01T00:00:00+05:00"),
             _with_clock(phone, "9999-12-31T23:00:00-04:00"),
             _with_clock(phone, "1969-12-31T23:59:59+00:00"),
             _with_clock(phone, gps_at="0001-01-01T01:00:00+03:00"),
             phone.inspection()]
    response = phone.push(batch)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    results = response.json["results"]
    assert [r["status"] for r in results] == ["accepted"] + ["rejected"] * 4 + ["accepted"]
    for result in results[1:4]:
        assert list(result["errors"]) == ["body.clock.device_at"]
        assert "1970" in result["errors"]["body.clock.device_at"][0]
    assert list(results[4]["errors"]) == ["body.clock.gps_at"]
    assert _count(app, FieldRecord) == 2


def test_a_signature_longer_than_the_column_is_rejected_by_name(app, phone):
    from server.modules.fieldsync.models import FieldRecord
    long_sig = {**phone.inspection(), "signature": "A" * 101}
    response = phone.push([long_sig, phone.inspection()])
    assert response.status_code == 200
    first, second = response.json["results"]
    assert first["status"] == "rejected" and list(first["errors"]) == ["signature"]
    assert "100" in first["errors"]["signature"][0]
    assert second["status"] == "accepted"
    assert _count(app, FieldRecord) == 1


def test_text_the_database_cannot_store_is_rejected(app, phone):
    """PostgreSQL text holds no lone UTF-16 surrogate; a body nested deeper than the parser goes
    is no JSON. (A NUL anywhere in a request is refused for the whole request by core/security.py
    before any view runs: the phone's batch split finds that record, tests/js/fieldapp_outbox_poison.)"""
    from server.modules.fieldsync.models import FieldRecord
    surrogate = phone.body("inspection")
    text = json.dumps(surrogate, separators=(",", ":"))[:-1] + ',"plate":"\\ud800"}'
    deep = str(uuid.uuid4())
    deep_text = '{"id":"%s","x":%s1%s}' % (deep, "[" * 50000, "]" * 50000)
    batch = [_raw_record(phone, text, surrogate["id"]), _raw_record(phone, deep_text, deep), phone.inspection()]
    response = phone.push(batch)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    results = response.json["results"]
    assert [r["status"] for r in results] == ["rejected"] * 2 + ["accepted"]
    assert list(results[0]["errors"]) == ["body.plate"]
    assert results[1]["errors"] == {"body": ["JSON inválido."]}
    assert _count(app, FieldRecord) == 1
    # A NUL inside one record refuses that record, named, and the rest of the batch is stored.
    nul = phone.push([phone.record(phone.body("inspection", permit_number="SAP\u0000001")), phone.inspection()])
    assert nul.status_code == 200, nul.get_data(as_text=True)[:300]
    assert [r["status"] for r in nul.json["results"]] == ["rejected", "accepted"]
    assert list(nul.json["results"][0]["errors"]) == ["body.permit_number"]
    assert _count(app, FieldRecord) == 2
    # Outside the records, a NUL is still refused at the door.
    outside = phone.client.post("/api/v1/sync/push", headers=phone.headers,
                                json={"records": [phone.inspection()], "x\u0000": 1})
    assert outside.status_code == 400 and outside.json["error"]["code"] == "invalid_character"


def test_dates_outside_a_sane_range_for_a_vistoria_are_refused(app, phone):
    from server.modules.fieldsync.models import FieldRecord
    fields = {"vehicle_id": 1, "vistoria_kind": "periodica", "result": "aprovada", "answers": {}}
    batch = [phone.record(phone.body("vistoria", inspected_on="0001-01-01", **fields)),
             phone.record(phone.body("vistoria", inspected_on="2026-05-10", result="reprovada",
                                     items_to_fix=[{"fact": "x"}], return_on="9999-12-31",
                                     **{k: v for k, v in fields.items() if k != "result"})),
             phone.inspection()]
    results = phone.push(batch).json["results"]
    assert [r["status"] for r in results] == ["rejected", "rejected", "accepted"]
    assert list(results[0]["errors"]) == ["body.inspected_on"]
    assert list(results[1]["errors"]) == ["body.return_on"]
    assert _count(app, FieldRecord) == 1


def test_an_amount_the_dashboard_cannot_add_is_refused_at_the_door(app, phone):
    """Issue 39: an amount no fine comes near (above R$ 10 trillion, the dashboard's bound) is
    refused with its field named, like any other shape the pages cannot read; nothing counted."""
    from server.modules.dashboard.models import FieldStat
    from server.modules.fieldsync.models import FieldRecord
    block = phone.client.post("/api/v1/autos/numbers", headers=phone.headers, json={"count": 1}).json
    auto = phone.auto(block["numbers"][0], infractions=[{"id": "sap.inf.x", "amount_brl": 1e300,
                                                         "decision": "confirmed"}])
    response = phone.push([auto])
    assert response.status_code == 200 and response.json["results"][0]["status"] == "rejected"
    assert list(response.json["results"][0]["errors"]) == ["body.infractions.0.amount_brl"]
    with app.app_context():
        assert FieldRecord.query.count() == 0
        assert FieldStat.query.count() == 0


def test_ids_that_no_column_can_hold_are_refused(phone):
    results = phone.push([phone.record(phone.body("inspection", operator_id=2**40)),
                          phone.record(phone.body("inspection", device_id=2**63))]).json["results"]
    assert [r["status"] for r in results] == ["rejected", "rejected"]
    assert list(results[0]["errors"]) == ["body.operator_id"]
    assert list(results[1]["errors"]) == ["body.device_id"]


def test_a_rejected_record_is_quarantined_for_its_municipality_and_audited(app, client, demo, phone):
    from server.modules.fieldsync.models import RejectedRecord
    from server.core.audit import AuditLog
    block = client.post("/api/v1/autos/numbers", headers=phone.headers, json={"count": 1}).json
    body = phone.body("auto", number=block["numbers"][0], signatures={"fiscal": "a" * 64}, public_token="t" * 40)
    body["clock"]["device_at"] = "0001-01-01T00:00:00+05:00"
    poison = phone.record(body)
    first = phone.push([poison]).json["results"][0]
    again = phone.push([poison]).json["results"][0]  # a resend after a lost answer
    assert first["status"] == again["status"] == "rejected"
    with app.app_context():
        kept = RejectedRecord.query.one()
        assert kept.record_id == body["id"] and kept.kind == "auto" and kept.body == poison["body"]
        assert kept.signature == poison["signature"] and "body.clock.device_at" in kept.errors
        assert AuditLog.query.filter_by(action="sync_reject").count() == 1
    login(client, "backoffice.sapezal")
    page = client.get("/bo/revisao/recusados")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and block["numbers"][0] in html and "1970" in html
    detail = client.get(f"/bo/revisao/recusados/{kept.id}")
    assert detail.status_code == 200 and poison["signature"] in detail.get_data(as_text=True)
    client.post("/logout")
    other = client.application.test_client()
    login(other, "backoffice.paranatinga")
    assert block["numbers"][0] not in other.get("/bo/revisao/recusados").get_data(as_text=True)
    assert other.get(f"/bo/revisao/recusados/{kept.id}").status_code == 404
