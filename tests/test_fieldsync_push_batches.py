"""The batch push's set-based steps (operations.py, resolve.py, bulk.py): a body's text stored
byte for byte whatever it holds, operators resolved for a whole batch (holders and, for company
permits, the first driver by name), numbers claimed across batches."""
import json

import pytest

from fieldsync_device import FakeDevice


def _get(model, ident):
    from server.extensions import db
    return db.session.get(model, ident)


TRICKY = ['aspas "duplas" e \'simples\'', "barra \\ invertida \\\\ e \\u0041 literal", "ação, pão, ñ, 😀, 𝄞",
          "tab\tquebra\nretorno\r", "separadores \u2028 \u2029 e \ufeff"]


def test_bodies_are_stored_byte_for_byte_in_one_batch(app, client, demo):
    from server.modules.fieldsync.models import FieldRecord
    phone = FakeDevice(client, "fiscal.sapezal")
    batch = [phone.inspection(plate="ABC1D23", note=text, answers={"x": {"obs": text}}) for text in TRICKY]
    results = phone.push(batch).json["results"]
    assert [r["status"] for r in results] == ["accepted"] * len(TRICKY)
    assert all(r["flags"] == [] for r in results), results
    with app.app_context():
        for item, text in zip(batch, TRICKY):
            stored = _get(FieldRecord, item["id"])
            assert stored.body == item["body"]
            assert json.loads(stored.body)["note"] == text
    # The same batch again: every record a duplicate, nothing stored twice.
    assert [r["status"] for r in phone.push(batch).json["results"]] == ["duplicate"] * len(TRICKY)
    with app.app_context():
        assert FieldRecord.query.count() == len(TRICKY)


@pytest.mark.parametrize("slug", ["sapezal", "nortelandia"])
def test_operators_of_a_whole_batch_follow_permit_main_drivers(app, client, demo, slug):
    from server.modules.fieldsync.models import FieldRecord
    from server.modules.registry.models import Municipality, Permit
    with app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        permits = [p for p in Permit.query.filter_by(municipality_id=muni.id).order_by(Permit.id)
                   if p.main_driver is not None][:4]
        expected = {p.number: p.main_driver.id for p in permits}
        with_company = [p for p in permits if p.holder_operator_id is None]
    if slug == "nortelandia":
        assert with_company, "Nortelândia's permits are held by companies: main driver = first driver by name"
    phone = FakeDevice(client, f"fiscal.{slug}")
    bodies = [phone.body("inspection", permit_number=number) for number in expected]
    bodies.append(phone.body("inspection", permit_number="NAO-EXISTE"))
    results = phone.push([phone.record(b) for b in bodies]).json["results"]
    assert [r["status"] for r in results] == ["accepted"] * len(bodies)
    with app.app_context():
        for body in bodies:
            assert _get(FieldRecord, body["id"]).operator_id == expected.get(body["permit_number"])


def test_a_number_claimed_in_an_earlier_batch_is_reused_later(app, client, demo):
    from server.modules.fieldsync.models import AutoNumber
    phone = FakeDevice(client, "fiscal.sapezal")
    numbers = phone.reserve(2)
    first = phone.auto(numbers[0])
    assert phone.push([first]).json["results"][0]["flags"] == []
    results = phone.push([phone.auto(numbers[1]), phone.auto(numbers[0])]).json["results"]
    assert [r["flags"] for r in results] == [[], ["number_reused"]]
    with app.app_context():
        claimed = AutoNumber.query.filter_by(number=numbers[0]).one()
        assert claimed.status == "used" and claimed.record_id == first["id"]


def test_device_last_contact_is_written_at_most_once_a_minute(app, client, demo):
    from datetime import timedelta

    from server.extensions import db
    from server.modules.accounts.models import Device
    from server.core.clock import as_utc
    phone = FakeDevice(client, "fiscal.sapezal")

    def seen():
        with app.app_context():
            return as_utc(_get(Device, phone.device_id).last_seen_at)

    assert phone.push([phone.inspection()]).json["results"][0]["status"] == "accepted"
    first = seen()
    assert first is not None
    assert phone.push([phone.inspection()]).json["results"][0]["status"] == "accepted"
    assert seen() == first  # a push seconds later leaves the row alone
    with app.app_context():
        _get(Device, phone.device_id).last_seen_at = first - timedelta(minutes=2)
        db.session.commit()
    assert phone.push([phone.inspection()]).json["results"][0]["status"] == "accepted"
    assert seen() > first  # older than a minute: written again
