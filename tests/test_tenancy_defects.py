"""Issue 20, tenancy half: the three defects of the outside audit, reproduced through the real
sync API and back office (they failed on the code before the fix).

(a) a fiscal of municipality B pushing a body under a record id held by municipality A got
    `conflict`, filed in B, whose page showed A's record and could "adotar" it;
(b) a cancellation request naming A's auto marked it "cancelamento pendente" in A's queue,
    filter and CSV;
(c) another device pushing a device's exact record first took it over.
"""
import csv
import io
import json
import uuid

import pytest

from fieldsync_device import FakeDevice, b64url
from helpers import csrf_token, login
from server.extensions import db


@pytest.fixture
def sapezal(client, demo):
    return FakeDevice(client, "fiscal.sapezal")


@pytest.fixture
def paranatinga(app, demo):
    return FakeDevice(app.test_client(), "fiscal.paranatinga")


def _staff(app, username):
    c = app.test_client()
    login(c, username)
    return c


def _signed_by(device, body):
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return {"id": body["id"], "body": text, "signature": b64url(device.key.sign(text.encode()))}


def _auto(phone):
    number = phone.reserve(1)[0]
    item = phone.auto(number, plate="ABC1D23")
    assert phone.push([item]).json["results"][0]["status"] == "accepted"
    return item


def _counts(app):
    from server.modules.fieldsync.models import FieldRecord, FieldRecordConflict
    from server.modules.autos.models import AutoCaseVersion
    with app.app_context():
        return FieldRecord.query.count(), FieldRecordConflict.query.count(), AutoCaseVersion.query.count()


# --- (a) a record id held by another municipality -------------------------------------------------

def test_other_municipality_push_under_a_held_id_is_foreign_not_a_conflict(app, sapezal, paranatinga):
    from server.extensions import db
    from server.modules.fieldsync.models import FieldRecord
    auto = _auto(sapezal)
    before = _counts(app)
    hostile = json.loads(auto["body"])
    hostile.update(plate="ZZZ9Z99", device_id=paranatinga.device_id)
    for item in (_signed_by(paranatinga, hostile), auto):  # a changed body, and A's exact record
        result = paranatinga.push([item]).json["results"][0]
        assert result["status"] == "foreign", result
        assert result["received_at"] is None and result["flags"] == [] and result["missing_photos"] == []
        # Nothing about the holder: the same answer as for an id nobody holds (below).
        assert "ZZZ" not in json.dumps(result) and "sapezal" not in json.dumps(result).lower()
    assert _counts(app) == before  # no conflict row, no version, nothing stored
    with app.app_context():
        assert json.loads(db.session.get(FieldRecord, auto["id"]).body)["plate"] == "ABC1D23"
    clerk = _staff(app, "backoffice.paranatinga")
    assert auto["id"] not in clerk.get("/bo/revisao/?conflitos=1").get_data(as_text=True)


def test_a_foreign_record_is_kept_in_the_pushers_quarantine_revealing_nothing_of_the_holder(
        app, sapezal, paranatinga):
    """Issue 20, poison records: the phone sets a `foreign` record aside ("recusado", kept by the
    server for review), so the back office of the PUSHER's municipality must see it — the item as
    that phone sent it, with the same neutral reason — and nothing of the record holding the id."""
    from server.core.audit import AuditLog
    from server.extensions import db
    from server.modules.fieldsync.models import FieldRecord, RejectedRecord
    from server.modules.fieldsync.ownership import FOREIGN_MESSAGE
    from server.modules.registry.models import Municipality
    held = _auto(sapezal)
    held_body = json.loads(held["body"])
    mine = paranatinga.body("inspection", plate="QQF0R31")  # B's own record, under A's id
    mine["id"] = held["id"]
    item = paranatinga.record(mine)
    results = paranatinga.push([item, paranatinga.inspection()]).json["results"]
    assert [r["status"] for r in results] == ["foreign", "accepted"]
    assert paranatinga.push([item]).json["results"][0]["status"] == "foreign"  # a resend keeps nothing more
    with app.app_context():
        b = Municipality.query.filter_by(slug="paranatinga").one().id
        kept = RejectedRecord.query.one()
        assert (kept.municipality_id, kept.device_id, kept.record_id) == (b, paranatinga.device_id, held["id"])
        assert kept.body == item["body"] and kept.signature == item["signature"] and kept.kind == "inspection"
        assert kept.errors == {"id": [FOREIGN_MESSAGE]}
        assert AuditLog.query.filter_by(action="sync_reject", municipality_id=b).count() == 1
        kid = kept.id
    clerk = _staff(app, "backoffice.paranatinga")
    listing = clerk.get("/bo/revisao/recusados").get_data(as_text=True)
    assert f"/bo/revisao/recusados/{kid}" in listing and "Identificador" in listing
    page = clerk.get(f"/bo/revisao/recusados/{kid}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "QQF0R31" in html and FOREIGN_MESSAGE in html
    for holders in (held_body["plate"], held_body["number"], held_body["public_token"], held["signature"]):
        assert holders not in html and holders not in listing, holders
    # The holder's municipality files nothing, cannot open it, and its record is as it was.
    owner = _staff(app, "backoffice.sapezal")
    assert held["id"] not in owner.get("/bo/revisao/recusados").get_data(as_text=True)
    assert owner.get(f"/bo/revisao/recusados/{kid}").status_code == 404
    with app.app_context():
        stored = db.session.get(FieldRecord, held["id"])
        assert stored.body == held["body"] and stored.device_id == sapezal.device_id


def test_a_conflict_linked_to_another_municipality_record_is_404_there(app, sapezal, paranatinga):
    """A conflict row filed before the fix (B's conflict pointing at A's record) stays harmless:
    B's back office gets 404 on its page and cannot adopt it; A's record is untouched."""
    from server.extensions import db
    from server.modules.fieldsync.models import FieldRecordConflict
    from server.modules.registry.models import Municipality
    auto = _auto(sapezal)
    hostile = json.loads(auto["body"])
    hostile["plate"] = "ZZZ9Z99"
    item = _signed_by(paranatinga, hostile)
    with app.app_context():
        b = Municipality.query.filter_by(slug="paranatinga").one()
        row = FieldRecordConflict(record_id=auto["id"], municipality_id=b.id, device_id=paranatinga.device_id,
                                  body_hash="0" * 64, body=item["body"], signature=item["signature"],
                                  received_at=db.func.now())
        db.session.add(row)
        db.session.commit()
        cid = row.id
    before = _counts(app)
    clerk = _staff(app, "backoffice.paranatinga")
    path = f"/bo/revisao/conflitos/{cid}"
    page = clerk.get(path)
    assert page.status_code == 404 and auto["id"] not in page.get_data(as_text=True)
    adopt = clerk.post(path, data={"choice": "adotar", "note": "Adotando o auto do vizinho.",
                                   "csrf_token": csrf_token(clerk, "/bo/revisao/")})
    assert adopt.status_code == 404
    assert _counts(app) == before
    with app.app_context():
        assert db.session.get(FieldRecordConflict, cid).reviewed_at is None
    # The queue of B never counts it on one of its records either (it has none with that id).
    assert auto["id"] not in clerk.get("/bo/revisao/?conflitos=1").get_data(as_text=True)


# --- (b) a cancellation request naming another municipality's auto --------------------------------

def _csv_cancel_column(clerk, record_id):
    text = clerk.get("/bo/revisao/?formato=csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    column = rows[0].index("Pedido de cancelamento")
    return [r[column] for r in rows[1:] if r[-1] == record_id]


def test_cancel_request_naming_another_municipality_auto_marks_nothing_there(app, sapezal, paranatinga):
    auto = _auto(sapezal)
    clerk = _staff(app, "backoffice.sapezal")
    before = _csv_cancel_column(clerk, auto["id"])
    assert len(before) == 1
    request = paranatinga.record(paranatinga.body("cancel_request", auto_id=auto["id"],
                                                  reason="Pedido vindo de outro município."))
    # Refused at the door like any foreign id (issue 39), and it marks nothing in Sapezal.
    assert paranatinga.push([request]).json["results"][0]["status"] == "foreign"
    assert auto["id"] not in clerk.get("/bo/revisao/?cancelamento=1").get_data(as_text=True)
    assert _csv_cancel_column(clerk, auto["id"]) == before
    page = clerk.get(f"/bo/revisao/registros/{auto['id']}").get_data(as_text=True)
    assert "Pedido vindo de outro município." not in page
    # A request from Sapezal's own fiscal still marks it (the check above can fail).
    own = sapezal.record(sapezal.body("cancel_request", auto_id=auto["id"], reason="Placa anotada errada."))
    assert sapezal.push([own]).json["results"][0]["status"] == "accepted"
    assert auto["id"] in clerk.get("/bo/revisao/?cancelamento=1").get_data(as_text=True)
    assert _csv_cancel_column(clerk, auto["id"]) != before


# --- (c) another device pushing a device's exact record first ------------------------------------

def test_another_device_cannot_take_a_record_over(app, client, sapezal):
    from server.extensions import db
    from server.modules.fieldsync.models import FieldRecord
    thief = FakeDevice(client, "fiscal.sapezal", name="Outro celular")
    first = sapezal.inspection()
    second = sapezal.inspection()
    taken = thief.push([first]).json["results"][0]
    assert taken["status"] == "foreign" and taken["received_at"] is None
    assert _counts(app)[0] == 0
    owner = sapezal.push([first, second]).json["results"]
    assert [r["status"] for r in owner] == ["accepted", "accepted"]
    assert owner[0]["flags"] == [] and owner[1]["flags"] == []  # no bad signature, no chain gap
    with app.app_context():
        assert db.session.get(FieldRecord, first["id"]).device_id == sapezal.device_id
    # Once held, the thief's replay is foreign too, and the owner's replay a duplicate.
    assert thief.push([first]).json["results"][0]["status"] == "foreign"
    assert sapezal.push([first]).json["results"][0]["status"] == "duplicate"


def _enrolled_again(client, phone, username="fiscal.sapezal"):
    """The same phone after its token expired: a new device row, the same key (session.js)."""
    again = FakeDevice(client, username, name="Mesmo celular", register_key=False)
    again.key, again.public_key = phone.key, phone.public_key
    response = client.put("/api/v1/devices/me/key", headers=again.headers,
                          json={"algorithm": "Ed25519", "public_key": again.public_key})
    assert response.status_code == 200, response.json
    return again


def test_the_same_phone_enrolled_again_keeps_its_records(app, client, sapezal):
    sent = sapezal.inspection()
    assert sapezal.push([sent]).json["results"][0]["status"] == "accepted"
    unsent = sapezal.inspection()  # signed before the token expired, still in the outbox
    again = _enrolled_again(client, sapezal)
    results = again.push([sent, unsent]).json["results"]
    assert [r["status"] for r in results] == ["duplicate", "accepted"]
    assert "device_mismatch" in results[1]["flags"] and "bad_signature" not in results[1]["flags"]
    changed = json.loads(sent["body"])
    changed["plate"] = "QWE1A23"
    assert again.push([_signed_by(sapezal, changed)]).json["results"][0]["status"] == "conflict"
    # Another fiscal who registers the same public key is not that phone.
    _second_fiscal(app)
    other = _enrolled_again(client, sapezal, "fiscal2.sapezal")
    assert other.push([sent]).json["results"][0]["status"] == "foreign"
    assert other.push([_signed_by(sapezal, {**json.loads(unsent["body"]), "id": str(uuid.uuid4())})]
                      ).json["results"][0]["status"] == "foreign"


def _second_fiscal(app):
    from helpers import DEMO_PASSWORD
    from server.modules.accounts.operations import create_user
    from server.modules.registry.models import Municipality
    with app.app_context():
        mid = Municipality.query.filter_by(slug="sapezal").one().id
        create_user(mid, {"username": "fiscal2.sapezal", "name": "Segundo fiscal", "role": "fiscal",
                          "password": DEMO_PASSWORD})
        db.session.commit()  # as the admin's request
