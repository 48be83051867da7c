"""Sapezal's alvará (Lei 125/1999 art. 11 "um ano" with art. 10 § 1º, renewal by 31 March): the
back office (issuance.validity, the daily expiry job) and the roadside verdict (the rule pack in
the Python and JS engines) agree on the last valid day. Dates by hand: issued 15/01/2026, the
last 31 March within one year is 31/03/2026 (not 31/03/2027: no 14-month alvará)."""
import json
import subprocess
from datetime import date
from pathlib import Path
from types import SimpleNamespace

from server.modules.issuance.validity import issue_validity
from server.rules import legal_calendar, load_municipality, evaluate

ROOT = Path(__file__).resolve().parents[1]
SAPEZAL = SimpleNamespace(slug="sapezal")


def _facts(until):
    return {"permit.exists": True, "permit.valid_until": until.isoformat(), "permit.issued_on": "2026-01-15"}


def _js_failed(document, days, facts, closures=()):
    """The JS engine's failed requirements on each day, with the same legal calendar (the shared
    holiday data and the municipality's closures)."""
    script = ("import { compileComposed, evaluate } from './pwa/js/rules/index.js';"
              "import { Calendar } from './pwa/js/rules/legal_calendar.js';"
              "import fs from 'node:fs';"
              "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const a=JSON.parse(s);"
              "const rules=compileComposed(a.rules);"
              "const cal=new Calendar(JSON.parse(fs.readFileSync('shared_rules/calendar/holidays.json','utf8')),'MT',a.closures);"
              "process.stdout.write(JSON.stringify(a.days.map(d=>evaluate(rules,d,a.facts,[],cal).failed.map(f=>f.requirement))));});")
    out = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, check=True, capture_output=True,
                         text=True, input=json.dumps({"rules": document, "days": days, "facts": facts,
                                                      "closures": list(closures)}))
    return json.loads(out.stdout)


def test_sapezal_january_alvara_ends_on_the_next_31_march_not_fourteen_months_later():
    assert issue_validity(SAPEZAL, "alvara", date(2026, 1, 15)) == date(2026, 3, 31)
    assert issue_validity(SAPEZAL, "alvara", date(2026, 3, 31)) == date(2027, 3, 31)  # exactly one year
    assert issue_validity(SAPEZAL, "alvara", date(2026, 4, 1)) == date(2027, 3, 31)
    assert issue_validity(SAPEZAL, "alvara", date(2024, 2, 29)) == date(2024, 3, 31)


def test_nortelandia_year_from_29_february_ends_on_1_march():
    assert issue_validity(SimpleNamespace(slug="nortelandia"), "alvara", date(2024, 2, 29)) == date(2025, 3, 1)
    assert issue_validity(SimpleNamespace(slug="paranatinga"), "termo_permissao", date(2024, 2, 29)) == date(2026, 3, 1)


def test_roadside_engines_and_back_office_agree_on_the_last_valid_day(app, demo):
    from server.extensions import db
    from server.modules.registry.models import Municipality, Permit
    from server.modules.permits.operations import expire_due_permits
    until = issue_validity(SAPEZAL, "alvara", date(2026, 1, 15))
    composed = load_municipality("sapezal")
    days = ["2026-03-31", "2026-04-01"]
    calendar = legal_calendar.calendar_for("MT")  # 31 March may move (art. 10 § 1º): only a calendar says
    python = [[f["requirement"] for f in evaluate(composed, d, _facts(until), [], calendar)["failed"]] for d in days]
    assert "sap.req.alvara_renovado" not in python[0] and "sap.req.alvara_renovado" in python[1]
    assert _js_failed(composed.to_json(), days, _facts(until)) == python
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        permit.valid_from, permit.valid_until = date(2026, 1, 15), until
        db.session.commit()
        pid = permit.id
        expire_due_permits(date(2026, 3, 31))
        assert db.session.get(Permit, pid).status == "ativo"  # the last valid day, as at the roadside
        expire_due_permits(date(2026, 4, 1))
        assert db.session.get(Permit, pid).status == "suspenso"  # art. 10 § 2º, as at the roadside


def test_caducidade_last_day_by_cc_132_agrees_in_both_engines_and_the_back_office(app, demo):
    """Sapezal art. 10 § 2º: 30 days after the validity, then caducidade. Valid until Friday
    31/03/2028: the 30th day is Sunday 30/04, 01/05 is Labour Day, so the last day to regularize is
    Tuesday 02/05/2028 (Código Civil art. 132 § 1º) and the alvará lapses on Wednesday 03/05.
    With a municipal closure recorded on 02/05 the last day is Wednesday 03/05 and it lapses on 04/05."""
    from server.extensions import db
    from server.modules.calendar.operations import add_closure
    from server.modules.calendar.service import calendar_of
    from server.modules.registry.models import Municipality, Permit
    from server.modules.permits.operations import expire_due_permits, lapse_unrenewed_permits
    facts = {"permit.exists": True, "permit.valid_until": "2028-03-31", "permit.issued_on": "2027-04-01"}
    composed = load_municipality("sapezal")
    days = ["2028-05-02", "2028-05-03", "2028-05-04"]
    closure = {"date": "2028-05-02", "kind": "feriado_religioso", "name_pt": "Feriado municipal", "act": "Lei municipal 1/2027"}

    def lapsed(failed):
        return ["sap.req.alvara_nao_caducado" in f for f in failed]

    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        python = [[f["requirement"] for f in evaluate(composed, d, facts, [], calendar_of(muni))["failed"]] for d in days]
        assert lapsed(python) == [False, True, True]
        assert _js_failed(composed.to_json(), days, facts) == python
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        permit.valid_from, permit.valid_until = date(2027, 4, 1), date(2028, 3, 31)
        db.session.commit()
        pid = permit.id
        expire_due_permits(date(2028, 4, 1))
        assert db.session.get(Permit, pid).suspended_until == date(2028, 5, 2)
        lapse_unrenewed_permits(date(2028, 5, 2))
        assert db.session.get(Permit, pid).status == "suspenso"
        add_closure(muni, {"day": date(2028, 5, 2), "kind": closure["kind"], "name_pt": closure["name_pt"], "act": closure["act"]})
        # The stored last day follows the closure (issue 35), audited.
        assert db.session.get(Permit, pid).suspended_until == date(2028, 5, 3)
        python = [[f["requirement"] for f in evaluate(composed, d, facts, [], calendar_of(muni))["failed"]] for d in days]
        assert lapsed(python) == [False, False, True]
        assert _js_failed(composed.to_json(), days, facts, [closure]) == python
        lapse_unrenewed_permits(date(2028, 5, 3))
        assert db.session.get(Permit, pid).status == "suspenso"  # the closure moved the last day
        lapse_unrenewed_permits(date(2028, 5, 4))
        assert db.session.get(Permit, pid).status == "caducado"


def test_a_31_march_without_office_hours_moves_the_renewal_deadline_and_the_30_days(app, demo):
    """Sapezal art. 10 § 1º ("até o último dia do mês de março") is a deadline set as a date: it ends
    like any other (CC art. 132 § 1º; Lei 9.784/1999 art. 66 § 1º). 31/03/2024 was Easter Sunday,
    so the renewal could be filed on Monday 01/04; the permit is suspended from 02/04, and the 30
    days of § 2º run from 01/04: the 30th day, 01/05, is Labour Day, so the last day is Thursday
    02/05/2024 and it lapses on 03/05. Roadside (both engines) and back office agree."""
    from server.extensions import db
    from server.modules.calendar.service import calendar_of
    from server.modules.registry.models import Municipality, Permit
    from server.modules.permits.operations import expire_due_permits, lapse_unrenewed_permits
    facts = {"permit.exists": True, "permit.valid_until": "2024-03-31", "permit.issued_on": "2023-04-01"}
    composed = load_municipality("sapezal")
    days = ["2024-04-01", "2024-04-02", "2024-05-02", "2024-05-03"]
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        python = [[f["requirement"] for f in evaluate(composed, d, facts, [], calendar_of(muni))["failed"]] for d in days]
        assert ["sap.req.alvara_renovado" in f for f in python] == [False, True, True, True]  # then displaced
        assert ["sap.req.alvara_nao_caducado" in f for f in python] == [False, False, False, True]
        assert _js_failed(composed.to_json(), days, facts) == python
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        permit.valid_from, permit.valid_until = date(2023, 4, 1), date(2024, 3, 31)
        db.session.commit()
        pid = permit.id
        expire_due_permits(date(2024, 4, 1))
        assert db.session.get(Permit, pid).status == "ativo"  # the moved last day to renew
        expire_due_permits(date(2024, 4, 2))
        assert db.session.get(Permit, pid).status == "suspenso"
        assert db.session.get(Permit, pid).suspended_until == date(2024, 5, 2)
        lapse_unrenewed_permits(date(2024, 5, 2))
        assert db.session.get(Permit, pid).status == "suspenso"
        lapse_unrenewed_permits(date(2024, 5, 3))
        assert db.session.get(Permit, pid).status == "caducado"


def test_a_closure_recorded_on_31_march_moves_the_suspension_and_its_end_audited(app, demo):
    """A closure recorded after the suspension on the 31 March the 30 days counted from moves the
    stored `suspended_until` (the start moves: CPC art. 224 § 1º / CC art. 132 § 1º); audited."""
    from server.extensions import db
    from server.core.audit import AuditLog
    from server.modules.calendar.operations import add_closure
    from server.modules.registry.models import Municipality, Permit
    from server.modules.permits.operations import expire_due_permits
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        permit.valid_from, permit.valid_until = date(2026, 4, 1), date(2027, 3, 31)  # a Wednesday
        db.session.commit()
        pid = permit.id
        expire_due_permits(date(2027, 4, 1))
        db.session.commit()
        # 31/03/2027 + 30 = Friday 30/04/2027.
        assert db.session.get(Permit, pid).suspended_until == date(2027, 4, 30)
        add_closure(muni, {"day": date(2027, 3, 31), "kind": "fechamento", "name_pt": "Repartição fechada",
                           "act": "Portaria 9/2027"})
        # From Thursday 01/04: the 30th day is Saturday 01/05 (also Labour Day) → Monday 03/05/2027.
        assert db.session.get(Permit, pid).suspended_until == date(2027, 5, 3)
        entry = (AuditLog.query.filter_by(entity="permit", entity_id=str(pid), action="update")
                 .order_by(AuditLog.id.desc()).first())
        assert entry is not None and "art. 132" in entry.reason and entry.after["suspended_until"] == "2027-05-03"
