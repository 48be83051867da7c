"""ISSQN by the law (issue 11): Nortelândia's monthly charge per motorcycle (Lei 030/1998,
art. 14), its payments and arrears, with the due date counted by CTN art. 210 § único and the
municipality's closures."""
from datetime import date, timedelta
from decimal import Decimal

from backoffice_data import muni

from server.core.clock import local_today
from server.extensions import db
from server.modules.issuance.models import IssqnCharge
from server.modules.registry.models import Permit
from server.rules.legal_calendar import calendar_for, ctn_210_due

TODAY = local_today()


def test_nortelandia_monthly_issqn_charges_payments_and_arrears(app, demo):
    from server.modules.issuance.operations import create_issqn_charges, pay_issqn_charge
    from server.modules.issuance.requirements import checklist
    from server.modules.registry.models import UnitValue
    # Charge the month the suite runs in: the demo's permits are active on its last day whatever the
    # date (next January, used before, had no active demo permit from January to mid-March).
    month = TODAY.replace(day=1)
    next_first = (month + timedelta(days=32)).replace(day=1)
    month_end = next_first - timedelta(days=1)
    run_on = next_first + timedelta(days=14)
    due_10th = ctn_210_due(calendar_for("MT"), next_first.replace(day=10))
    with app.app_context():
        m = muni("nortelandia")
        db.session.add(UnitValue(municipality_id=m.id, unit="UFM", valid_from=date(2000, 1, 1),
                                 value_brl=Decimal("50.00"), source="Decreto de teste"))
        db.session.commit()
        created = create_issqn_charges(run_on)
        assert create_issqn_charges(run_on) == 0  # idempotent
        charges = IssqnCharge.query.filter_by(month=month).order_by(IssqnCharge.company_id).all()
        assert created == len(charges) > 0
        for charge in charges:
            active = Permit.query.filter(Permit.holder_company_id == charge.company_id,
                                         Permit.valid_from <= month_end,
                                         Permit.valid_until >= month_end,
                                         Permit.status.in_(("ativo", "suspenso", "vencido"))).count()
            assert charge.motorcycles == active
            assert charge.ufm == Decimal("0.5") * active and charge.amount_brl == Decimal("25.00") * active
            # Art. 14: by the 10th of the next month; on a non-business day, the next business day (CTN
            # art. 210 § único): the calendar module's own rule, proven by shared_rules/vectors/calendar.json.
            assert charge.due_on == due_10th
        charge = charges[0]
        # The demo charges the months before today's (paid or not, by the month the suite runs
        # in): settle them, so this month's charge is the only one that can be in arrears below.
        for earlier in IssqnCharge.query.filter(IssqnCharge.company_id == charge.company_id,
                                                IssqnCharge.paid_on.is_(None), IssqnCharge.id != charge.id).all():
            pay_issqn_charge(m, earlier, {"paid_on": TODAY, "payment_reference": "DAM anterior"})
        permit = Permit.query.filter_by(holder_company_id=charge.company_id, status="ativo").order_by(Permit.id).first()
        late = due_10th + timedelta(days=1)
        item = {i.key: i for i in checklist(m, permit, late)}["issqn.monthly"]
        assert item.state == "missing" and item.citation == "Lei 030/1998, art. 14"
        pay_issqn_charge(m, charge, {"paid_on": TODAY, "payment_reference": "DAM 1"})
        item = {i.key: i for i in checklist(m, permit, late)}["issqn.monthly"]
        assert item.state == "ok"


def test_issqn_due_on_a_saturday_is_payable_on_monday_without_arrears(app, demo):
    """December 2025's ISSQN is due on the 10th of January 2026, a Saturday: payable on Monday
    12/01 (CTN art. 210 § único); no arrears, no refused renewal on the 12th; arrears on the 13th.
    A closure the municipality records on the 12th moves it again, to Tuesday 13/01.
    The demo's permits are dated from the day the suite runs: one company's permit is pinned over
    December 2025 here, so the month has a motorcycle in activity whatever that day is (from
    2027-01-21 no demo permit reached back to 31/12/2025 and nothing was charged)."""
    from server.modules.calendar.operations import add_closure
    from server.modules.issuance.operations import create_issqn_charges
    from server.modules.issuance.records import issqn_arrears
    from server.modules.issuance.requirements import checklist
    with app.app_context():
        m = muni("nortelandia")
        pinned = Permit.query.filter(Permit.municipality_id == m.id, Permit.status == "ativo",
                                     Permit.holder_company_id.isnot(None)).order_by(Permit.id).first()
        pinned.valid_from, pinned.valid_until = date(2025, 6, 1), max(pinned.valid_until, date(2026, 5, 31))
        IssqnCharge.query.filter_by(municipality_id=m.id, month=date(2025, 12, 1)).delete()
        db.session.commit()
        assert create_issqn_charges(date(2026, 1, 15)) > 0
        charge = IssqnCharge.query.filter_by(company_id=pinned.holder_company_id, month=date(2025, 12, 1)).one()
        assert charge.due_on == date(2026, 1, 12)
        IssqnCharge.query.filter(IssqnCharge.company_id == charge.company_id, IssqnCharge.id != charge.id).delete()
        db.session.commit()
        assert issqn_arrears(charge.company_id, date(2026, 1, 12)) == []
        assert [c.id for c in issqn_arrears(charge.company_id, date(2026, 1, 13))] == [charge.id]
        permit = pinned
        assert {i.key: i for i in checklist(m, permit, date(2026, 1, 12))}["issqn.monthly"].state != "missing"
        assert {i.key: i for i in checklist(m, permit, date(2026, 1, 13))}["issqn.monthly"].state == "missing"
        add_closure(m, {"day": date(2026, 1, 12), "kind": "fechamento", "name_pt": "Repartição fechada",
                        "act": "Portaria nº 1/2026"})
        assert db.session.get(IssqnCharge, charge.id).due_on == date(2026, 1, 13)
        assert issqn_arrears(charge.company_id, date(2026, 1, 13)) == []
