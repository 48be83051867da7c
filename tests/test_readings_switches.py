"""Readings that are switches (issue 35, item 4): the municipality's option, saved with its act in
Configuração das regras (rules.settings.save_value, audited), changes how a period the law leaves
uncounted is counted. The same cases are vectors of shared_rules/vectors/calendar.json, which both
engines run (tests/test_legal_calendar.py, tests/js/legal_calendar.test.mjs)."""
from datetime import date

import pytest

from server.core.audit import AuditLog
from server.core.errors import ApiError
from server.extensions import db
from server.modules.registry.models import Municipality, Permit, Vehicle


def _muni(slug):
    return Municipality.query.filter_by(slug=slug).one()


def test_sapezal_art_15_window_follows_the_municipality_s_option(app, demo):
    """Changed motorcycles on Friday 31/07/2026; the 15th day is Saturday 15/08. Default reading
    (`plain`): a request on Monday 17/08 is late. With `cc_132` chosen by decree, it is in time."""
    from server.modules.permits.changes_of_life import substitute_vehicle
    from server.modules.rules.settings import save_value
    with app.app_context():
        m = _muni("sapezal")
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        vehicle = Vehicle(municipality_id=m.id, plate="QBX1B23", renavam="12345678901", chassis="9C2KC1670AR000001",
                          make="Honda", model="CG 160", year_manufacture=2025, engine_cc=160)
        db.session.add(vehicle)
        db.session.commit()
        with pytest.raises(ApiError) as late:
            substitute_vehicle(permit, m, vehicle.id, date(2026, 7, 31), "Requerimento", requested_on=date(2026, 8, 17))
        assert "15 dias da troca" in late.value.fields["replaced_on"][0]
        save_value(m, "options", "sapezal.art15_counting", "cc_132", "Decreto nº 9/2026")
        assert AuditLog.query.filter_by(action="configure_rules").order_by(AuditLog.id.desc()).first().reason == "Decreto nº 9/2026"
        m = _muni("sapezal")
        permit = db.session.get(Permit, permit.id)
        substitute_vehicle(permit, m, vehicle.id, date(2026, 7, 31), "Requerimento", requested_on=date(2026, 8, 17))
        assert db.session.get(Permit, permit.id).vehicle_id == vehicle.id


def test_paranatinga_art_33_3_window_follows_the_municipality_s_option(app, demo):
    """Granted on Wednesday 02/12/2026: 5 plain days end on Monday 07/12 (default); 5 business days
    (`cpc_219`, chosen by decree) on Wednesday 09/12."""
    from server.modules.rules.settings import save_value
    from server.modules.selection.operations import _regularize_until
    with app.app_context():
        m = _muni("paranatinga")
        assert _regularize_until(m.id, date(2026, 12, 2)) == date(2026, 12, 7)
        save_value(m, "options", "paranatinga.art33_3_counting", "cpc_219", "Decreto nº 4/2026")
        assert _regularize_until(m.id, date(2026, 12, 2)) == date(2026, 12, 9)


def test_good_friday_follows_the_municipality_s_option(app, demo):
    """Lei 9.093/1995 art. 2º: by default (`holiday`) Good Friday 03/04/2026 has no office hours and
    a 10-day period from 24/03 ends on Monday 06/04. With `declared_only` chosen by decree and no
    municipal law recorded, it is a business day there (the period ends on it) and the phone's
    field calendar carries the same reading; recording the municipal law as a closure closes it again."""
    from server.modules.calendar.models import CalendarClosure
    from server.modules.calendar.service import calendar_of, field_calendar
    from server.modules.rules.settings import save_value
    from server.rules.legal_calendar import deadline
    with app.app_context():
        m = _muni("nortelandia")
        assert not calendar_of(m).is_business_day(date(2026, 4, 3))
        assert deadline(calendar_of(m), date(2026, 3, 24), 10, "cc_132") == date(2026, 4, 6)
        save_value(m, "options", "nortelandia.good_friday", "declared_only", "Decreto nº 12/2026")
        assert AuditLog.query.filter_by(action="configure_rules").order_by(AuditLog.id.desc()).first().reason == "Decreto nº 12/2026"
        m = _muni("nortelandia")
        assert calendar_of(m).is_business_day(date(2026, 4, 3))
        assert deadline(calendar_of(m), date(2026, 3, 24), 10, "cc_132") == date(2026, 4, 3)
        assert field_calendar(m)["good_friday"] == "declared_only"
        assert calendar_of(_muni("sapezal")).is_business_day(date(2026, 4, 3)) is False
        db.session.add(CalendarClosure(municipality_id=m.id, day=date(2026, 4, 3), kind="feriado_religioso",
                                       name_pt="Sexta-Feira da Paixão", act="Lei municipal nº 1/1999"))
        db.session.commit()
        assert not calendar_of(m).is_business_day(date(2026, 4, 3))


def test_sapezal_art_26_suspension_recidivism_follows_the_municipality_s_option(app, demo):
    """Art. 26 "reincidente em suspensão": a suspension chosen now for an operator recidivist in the
    same infraction (art. 29). Default (`duas_suspensoes`): no disqualification notice; with
    `suspensao_de_reincidente` chosen by decree, one suspension is enough (the same case as the
    vectors of shared_rules/vectors/law-sapezal.json, evaluated on the municipality's saved options)."""
    import json
    from pathlib import Path
    from server.modules.calendar.service import calendar_of
    from server.modules.rules.service import composed_for
    from server.modules.rules.settings import save_value
    from server.rules.evaluation import evaluate
    cases = json.loads((Path(__file__).resolve().parents[1] / "shared_rules/vectors/law-sapezal.json")
                       .read_text(encoding="utf-8"))["cases"]
    case = next(c for c in cases if c["name"].startswith("art. 26, alternativa `suspensao_de_reincidente`"))

    def escalations(m):
        out = evaluate(composed_for(m), "2025-06-10", case["facts"], case["history"], calendar_of(m))
        return [e for e in out["escalations"] if e["id"] == "sap.inabilitacao"]

    with app.app_context():
        m = _muni("sapezal")
        save_value(m, "periods", "sapezal.recidivism_window", {"years": 1}, "Decreto nº 3/2025")
        assert escalations(_muni("sapezal")) == []
        save_value(_muni("sapezal"), "options", "sapezal.art26_suspension_recidivism", "suspensao_de_reincidente",
                   "Decreto nº 10/2026")
        assert AuditLog.query.filter_by(action="configure_rules").order_by(AuditLog.id.desc()).first().reason == "Decreto nº 10/2026"
        [esc] = escalations(_muni("sapezal"))
        assert (esc["status"], esc["count"], esc["current"]) == ("would_reach", 1, 1)


def test_nortelandia_issqn_em_atividade_follows_the_municipality_s_option(app, demo):
    """Art. 14 "por motocicleta em atividade": a company whose permits all ended on 15/05/2031.
    Default (`ultimo_dia`): none is in activity on 31/05, no charge for May. With `algum_dia`
    chosen by decree, each is charged for May (the reading's vectors: shared_rules/vectors/calendar.json)."""
    from server.modules.issuance.models import IssqnCharge
    from server.modules.issuance.operations import create_issqn_charges
    from server.modules.rules.settings import save_value
    with app.app_context():
        m = _muni("nortelandia")
        company_id = (Permit.query.filter(Permit.municipality_id == m.id, Permit.holder_company_id.isnot(None))
                      .order_by(Permit.id).first().holder_company_id)
        permits = Permit.query.filter_by(holder_company_id=company_id).all()
        for p in permits:
            p.valid_from, p.valid_until, p.status = date(2030, 6, 1), date(2031, 5, 15), "ativo"
        db.session.commit()
        create_issqn_charges(date(2031, 6, 15))
        assert IssqnCharge.query.filter_by(company_id=company_id, month=date(2031, 5, 1)).first() is None
        save_value(m, "options", "nortelandia.issqn_em_atividade", "algum_dia", "Decreto nº 15/2026")
        assert AuditLog.query.filter_by(action="configure_rules").order_by(AuditLog.id.desc()).first().reason == "Decreto nº 15/2026"
        create_issqn_charges(date(2031, 6, 15))
        charge = IssqnCharge.query.filter_by(company_id=company_id, month=date(2031, 5, 1)).one()
        assert charge.motorcycles == len(permits) > 0
