"""Building homologated autos for the process tests: a phone pushes a signed auto (the real sync),
the case is homologated with autos.operations.decide, and — to test deadlines that run over
days — the auto's and the notification's dates are moved back, as if issued days ago."""
from datetime import datetime, time, timedelta, timezone

from fieldsync_device import FakeDevice, sha256_hex
from server.core.clock import local_today

INFRACTION = {"paranatinga": ("par.inf.g1_c", {"law": "L311", "art": "50"}, {"value": 29, "unit": "UFIR"}, 30.86),
              "nortelandia": ("nl.inf.faixa_moto_taxi", {"law": "L030", "art": "16"}, {"value": 10, "unit": "UFM"}, 42.0),
              "sapezal": ("sap.inf.um_passageiro", {"law": "L125", "art": "13"}, {"value": 50, "unit": "UFM"}, 123.45)}


def first_operator_and_permit(app, slug):
    from server.modules.registry.models import Municipality, Permit
    with app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        permit = next(p for p in Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id)
                      if p.main_driver is not None)
        return permit.main_driver.id, permit.number, permit.id


def ensure_key(app, slug):
    from server.extensions import db
    from server.modules.credentials.operations import active_key, create_key
    from server.modules.registry.models import Municipality
    with app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        if active_key(muni) is None:
            create_key(muni)
            db.session.commit()  # as `flask keys create`


def _auto_fields(app, slug, permit_number):
    """What the fiscal types in the auto's legal fields (the app prefills most of them)."""
    from server.rules import load_municipality
    from server.rules.checklist import auto_fields
    with app.app_context():
        fields = auto_fields(load_municipality(slug), local_today().isoformat())
    return {f["id"]: f"Conforme constatado no local ({permit_number})" for f in fields}


def homologated_case(app, client, slug, days_ago=0, operator_signed=False, phone=None, infraction=None):
    """(case id, phone) of a homologated auto issued `days_ago` days ago against the first
    active permit's holder; `infraction` (id, citation, amount, amount_brl) replaces the
    municipality's usual one."""
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.operations import decide
    ensure_key(app, slug)
    phone = phone or FakeDevice(client, f"fiscal.{slug}")
    operator_id, permit_number, _ = first_operator_and_permit(app, slug)
    inf_id, citation, amount, brl = infraction or INFRACTION[slug]
    number = phone.reserve(1)[0]
    fields = _auto_fields(app, slug, permit_number)
    item = phone.auto(number, operator_id=operator_id, permit_number=permit_number, plate="QBX1A23",
                      place="Av. Brasil, 100", auto_fields=fields,
                      infractions=[{"id": inf_id, "citation": citation, "amount": amount, "amount_brl": brl,
                                    "decision": "confirmed", "removal_reason": None}],
                      signatures={"fiscal": sha256_hex("f"), "operator": sha256_hex("o") if operator_signed else None,
                                  "operator_refused": not operator_signed})
    assert phone.push([item]).status_code == 200
    with app.app_context():
        case = AutoCase.query.filter_by(record_id=item["id"]).one()
        if days_ago:
            case.record.device_at = datetime.now(timezone.utc) - timedelta(days=days_ago)
            db.session.commit()
        decide(case, "auto_homologate", "Fatos confirmados pelas fotos do fiscal.")
        db.session.commit()  # the test is the boundary (server/core/transaction.py)
        return case.id, phone


def backdate_notification(app, case_id, day):
    """The notification as if issued on `day` (a local date)."""
    from server.extensions import db
    from server.modules.autos.process_models import AutoNotification
    with app.app_context():
        note = AutoNotification.query.filter_by(case_id=case_id).one()
        note.issued_at = datetime.combine(day, time(12), timezone.utc)
        db.session.commit()


# National holidays written out by hand (Lei 662/1949 as amended by Lei 6.802/1980, Lei 10.607/2002,
# Lei 14.759/2023), so tests pick their dates without asking the calendar under test.
FIXED_HOLIDAYS = {(1, 1), (4, 21), (5, 1), (9, 7), (10, 12), (11, 2), (11, 15), (11, 20), (12, 25)}


def plain_monday(today, at_least=21, span=22):
    """A Monday at least `at_least` days before `today` whose next `span` days hold no national
    holiday and no Good Friday (which never falls outside 20 March - 23 April): deadlines counted
    from it land where plain weekday arithmetic says, on any date the tests run."""
    from datetime import timedelta
    d = today - timedelta(days=at_least)
    while True:
        d -= timedelta(days=d.weekday())
        days = [d + timedelta(days=i) for i in range(span)]
        if not any((x.month, x.day) in FIXED_HOLIDAYS or (x.month, x.day) >= (3, 20) and (x.month, x.day) <= (4, 23)
                   for x in days):
            return d
        d -= timedelta(days=1)


def art48_due(app, served):
    """The last day of Paranatinga's 3-day defence from `served` on the municipality's calendar
    (the legal calendar is checked against hand-computed dates in test_legal_calendar.py; here
    it only tells a test that starts today where the weekend pushes the deadline)."""
    from server.modules.calendar.service import calendar_of
    from server.modules.registry.models import Municipality
    from server.rules.legal_calendar import cc_132_days
    with app.app_context():
        return cc_132_days(calendar_of(Municipality.query.filter_by(slug="paranatinga").one()), served, 3)
