"""The sync push announces what it accepted (fieldsync/signals.py) instead of calling autos and the
dashboard above it, and the field data asks tariffs for its section; server/subscriptions.py
connects them when the app is built. What the push's receivers write belongs to its transaction:
committed with the records, or not at all."""
from fieldsync_device import FakeDevice
from server.modules.fieldsync.signals import autos_accepted, field_data_sections, records_accepted


def test_the_app_connects_the_push_subscribers(app):
    from server.modules.autos.operations import open_cases_of_push
    from server.modules.dashboard.operations import count_push
    from server.modules.traffic.operations import open_reports_of_push
    assert list(autos_accepted.receivers_for(object())) == [open_cases_of_push]
    # The communications to the traffic authority first, the dashboard's rollups last (their locks).
    assert list(records_accepted.receivers_for(object())) == [open_reports_of_push, count_push]
    from server.modules.autos.process_settings import field_data_section as traffic_authority_section
    from server.modules.tariffs.operations import field_data_section
    assert list(field_data_sections.receivers_for(object())) == [field_data_section, traffic_authority_section]


def test_a_failing_subscriber_takes_the_whole_push_back(app, client, demo):
    from server.modules.autos.models import AutoCase
    from server.modules.dashboard.models import FieldStat
    from server.modules.fieldsync.models import AutoNumber, FieldRecord
    phone = FakeDevice(client, "fiscal.sapezal")
    number = phone.reserve(1)[0]
    auto = phone.auto(number)
    written = {}

    def fails(device, records, **_):
        # Connected after the dashboard's: the record, its case and its figures are written, uncommitted.
        ids = [r["id"] for r in records]
        written.update(cases=AutoCase.query.filter(AutoCase.record_id.in_(ids)).count(),
                       stats=FieldStat.query.filter(FieldStat.record_id.in_(ids)).count())
        raise RuntimeError("subscriber failed")

    with records_accepted.connected_to(fails):
        assert phone.push([auto]).status_code == 500  # core/errors.py: an unhandled error
    assert written == {"cases": 1, "stats": 1}
    with app.app_context():
        assert FieldRecord.query.filter_by(id=auto["id"]).count() == 0
        assert AutoCase.query.filter_by(record_id=auto["id"]).count() == 0
        assert FieldStat.query.filter_by(record_id=auto["id"]).count() == 0
        assert AutoNumber.query.filter_by(number=number).one().status == "reserved"
    # The phone sends it again: stored once, with its case and its figures.
    assert phone.push([auto]).json["results"][0]["status"] == "accepted"
    with app.app_context():
        assert AutoCase.query.filter_by(record_id=auto["id"]).count() == 1
        assert FieldStat.query.filter_by(record_id=auto["id"]).count() == 1
