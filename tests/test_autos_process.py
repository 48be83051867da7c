"""Notification, service, defence and appeals, applied penalties (issue 10): the deadlines of each
law counted from the day the operator learnt of the auto, the second instance of Paranatinga,
the suspensive appeal of Nortelândia, penalties applied by the daily job (twice, idempotent)
and counted by the server's rule evaluation."""
from datetime import timedelta

import pytest

from autos_process_helpers import (art48_due, backdate_notification, first_operator_and_permit, homologated_case,
                                   plain_monday)
from server.core.errors import ApiError
from server.extensions import db


def _today():
    from server.core.clock import local_today
    return local_today()


def _served():
    """A Monday at least three weeks ago with no holiday in the next three weeks, so each deadline
    below ends on the weekday plain arithmetic gives."""
    return plain_monday(_today())


def _ago(day):
    """days_ago for homologated_case: an auto issued a week before `day`."""
    return (_today() - day).days + 7


def _call(app, fn, *args, **kwargs):
    """Run an operation on fresh objects loaded by id; ApiError comes back as the value."""
    from server.extensions import db
    with app.app_context():
        try:
            result = fn(*args, **kwargs)
        except ApiError as exc:
            db.session.rollback()
            return exc
        db.session.commit()  # the test plays the request that would have committed it
        if hasattr(result, "__table__"):  # loaded now, usable after the context ends
            db.session.refresh(result)
            db.session.expunge(result)
        return result


def _case(case_id):
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    return db.session.get(AutoCase, case_id)


def notify(app, case_id, via, served_on, note="AR JT123456789BR"):
    from server.modules.autos import process_operations as ops
    _call(app, lambda: ops.issue_notification(_case(case_id)))
    backdate_notification(app, case_id, served_on if via != "assinatura_local" else _today() - timedelta(days=60))
    return _call(app, lambda: ops.record_service(_case(case_id), via, served_on.isoformat() if served_on else None, note))


def file(app, case_id, filed_on, summary="O autuado nega os fatos e junta testemunhas."):
    from server.modules.autos import process_operations as ops
    return _call(app, lambda: ops.file_appeal(_case(case_id), filed_on.isoformat(), summary))


def decide_appeal(app, appeal_id, decision, decided_on, infraction_id=None):
    from server.extensions import db
    from server.modules.autos import process_operations as ops
    from server.modules.autos.process_models import AutoAppeal
    return _call(app, lambda: ops.decide_appeal(db.session.get(AutoAppeal, appeal_id), decision,
                                                "Decisão fundamentada nos autos do processo.", decided_on.isoformat(),
                                                infraction_id))


def know(app, appeal_id, known_on, via="postal_ar", note="AR JT987654321BR"):
    """The clerk records the ciência of a decision (its AR's receipt date, by default)."""
    from server.extensions import db
    from server.modules.autos import process_operations as ops
    from server.modules.autos.process_models import AutoAppeal
    return _call(app, lambda: ops.record_decision_service(db.session.get(AutoAppeal, appeal_id), via,
                                                          known_on.isoformat(), note))


def penalties(app, case_id):
    from server.modules.autos.process_models import AutoPenalty
    with app.app_context():
        return [(p.infraction_id, p.state, p.applied_on) for p in AutoPenalty.query.filter_by(case_id=case_id)]


def refresh(app, case_id, today):
    from server.extensions import db
    from server.modules.autos.process_operations import refresh_penalties
    with app.app_context():
        refresh_penalties(_case(case_id), today)
        db.session.commit()
    return penalties(app, case_id)


def run_daily(app, today, replay=True):
    """The two tasks of the process as the daily command runs them. replay=False forgets the dates
    already decided first, so the run decides `today` alone (a jump of years without replaying
    every day between: the replay itself is tested in test_daily_catch_up.py)."""
    from server.extensions import db
    from server.modules.jobs.models import DailyTaskRun
    from server.modules.jobs.registry import run_daily as run
    with app.app_context():
        if not replay:
            DailyTaskRun.query.delete()
            db.session.commit()
        return {task.name: count for task, count in run(today, only=["autos.penalties", "autos.quiet_period"])}


def applied_rows(app):
    from server.modules.fieldsync.models import AppliedPenalty
    with app.app_context():
        return [(p.infraction_id, p.applied_on, p.cancelled, p.operator_id, p.permit_id)
                for p in AppliedPenalty.query.order_by(AppliedPenalty.id)]


@pytest.mark.parametrize("via", ["postal_ar", "pessoal"])
def test_paranatinga_deadline_runs_three_days_from_the_service_date(app, client, demo, via):
    served = _served()
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=_ago(served))
    assert notify(app, case_id, via, served).served_on == served
    # Art. 48: 3 days from receipt; Código Civil art. 132: the day of receipt is excluded.
    assert refresh(app, case_id, served + timedelta(days=3))[0][1] == "pendente"
    assert refresh(app, case_id, served + timedelta(days=4)) == [("par.inf.g1_c", "aplicada", served + timedelta(days=4))]


def test_roadside_signature_counts_from_the_day_of_the_auto(app, client, demo):
    monday = _served()
    signed_id, _ = homologated_case(app, client, "paranatinga", days_ago=(_today() - monday).days, operator_signed=True)
    from server.modules.autos.notification_content import infraction_date
    note = notify(app, signed_id, "assinatura_local", None)
    with app.app_context():
        auto_day = infraction_date(_case(signed_id))
    assert note.served_on == auto_day == monday
    assert refresh(app, signed_id, auto_day + timedelta(days=4))[0][2] == auto_day + timedelta(days=4)
    refused_id, _ = homologated_case(app, client, "paranatinga", days_ago=10, operator_signed=False)
    refused = notify(app, refused_id, "assinatura_local", None)
    assert refused.status == 422 and "via" in refused.fields


def test_edital_is_refused_where_the_law_does_not_provide_it_and_dates_are_checked(app, client, demo):
    case_id, _ = homologated_case(app, client, "nortelandia", days_ago=5)
    refused = notify(app, case_id, "edital", _today())
    assert refused.status == 422 and "edital" in refused.fields["via"][0]
    from server.modules.autos import process_operations as ops
    future = _call(app, lambda: ops.record_service(_case(case_id), "pessoal", (_today() + timedelta(days=1)).isoformat()))
    assert future.status == 422 and "served_on" in future.fields
    assert penalties(app, case_id) == []  # nothing runs before the operator is notified


def test_sapezal_notifies_only_once_the_defence_deadline_and_authority_are_configured(app, client, demo):
    from server.extensions import db
    from server.modules.autos import process_operations as ops
    from server.modules.registry.models import Municipality
    from server.modules.rules.settings import save_value
    served = _served()
    case_id, _ = homologated_case(app, client, "sapezal", days_ago=_ago(served))
    refused = _call(app, lambda: ops.issue_notification(_case(case_id)))
    # Art. 28 VI fixes no days; the message names the setting by its label, never its key (issue 34).
    assert refused.status == 409 and "“Prazo de defesa (a lei manda constar" in refused.message
    assert "sapezal.prazo_defesa" not in refused.message
    with app.app_context():
        save_value(Municipality.query.filter_by(slug="sapezal").one(), "deadlines", "sapezal.prazo_defesa", 15,
                   "Decreto nº 40/2026")
        db.session.commit()  # as the configuration page's request
    refused = _call(app, lambda: ops.issue_notification(_case(case_id)))
    assert refused.status == 409 and refused.code == "authority_not_configured"
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        ops.save_process_settings(muni, {"authority_pt": "Diretor de Trânsito", "source": "Decreto nº 40/2026"})
        db.session.commit()
    notify(app, case_id, "pessoal", served)
    assert refresh(app, case_id, served + timedelta(days=15))[0][1] == "pendente"
    assert refresh(app, case_id, served + timedelta(days=16))[0][1:] == ("aplicada", served + timedelta(days=16))
    with app.app_context():
        from server.modules.autos.process_models import AutoNotification
        content = __import__("json").loads(AutoNotification.query.one().content)
    assert content["instances"][0]["days"] == 15 and content["authority"] == "Diretor de Trânsito"


def test_defence_in_time_waits_for_the_decision_and_a_late_one_is_flagged(app, client, demo):
    served = _served()
    timely_id, phone = homologated_case(app, client, "paranatinga", days_ago=_ago(served))
    notify(app, timely_id, "postal_ar", served)
    appeal = file(app, timely_id, served + timedelta(days=3))
    assert (appeal.late, appeal.due_on, appeal.level) == (False, served + timedelta(days=3), 1)
    assert refresh(app, timely_id, _today())[0][1] == "pendente"  # awaiting the Secretário
    late_id, _ = homologated_case(app, client, "paranatinga", days_ago=_ago(served), phone=phone)
    notify(app, late_id, "postal_ar", served)
    late = file(app, late_id, served + timedelta(days=4))
    assert late.late is True
    # A late defence is recorded but never stops the deadline.
    assert refresh(app, late_id, _today()) == [("par.inf.g1_c", "aplicada", served + timedelta(days=4))]


def test_paranatinga_second_instance_secretario_then_prefeito(app, client, demo):
    served = _served()
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=_ago(served))
    notify(app, case_id, "pessoal", served)
    first = file(app, case_id, served + timedelta(days=2))
    assert first.instance_pt == "Secretário Municipal de Infra-estrutura"
    decided = served + timedelta(days=4)  # a Friday
    decide_appeal(app, first.id, "indeferido", decided)
    # The appeal to the Prefeito has no suspensive effect in the law: applied on the decision.
    assert penalties(app, case_id) == [("par.inf.g1_c", "aplicada", decided)]
    assert [(r[0], r[1], r[2]) for r in applied_rows(app)] == [("par.inf.g1_c", decided, False)]
    # Art. 48: the 3 days run from the ciência of the decision, its AR received on Monday: Thursday.
    know(app, first.id, decided + timedelta(days=3))
    second = file(app, case_id, decided + timedelta(days=6))
    assert (second.level, second.instance_pt, second.late, second.due_on) == (2, "Prefeito Municipal", False,
                                                                             decided + timedelta(days=6))
    decide_appeal(app, second.id, "deferido", decided + timedelta(days=6))
    assert penalties(app, case_id)[0][1] == "anulada"
    assert applied_rows(app)[0][2] is True  # cancelled: no longer history for recidivism
    with app.app_context():
        assert _case(case_id).state == "insubsistente"
    third = file(app, case_id, decided + timedelta(days=7))
    assert third.status == 409


def test_paranatinga_second_appeal_after_its_deadline_is_intempestiva(app, client, demo):
    served = _served()
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=_ago(served))
    notify(app, case_id, "pessoal", served)
    first = file(app, case_id, served + timedelta(days=1))
    decide_appeal(app, first.id, "indeferido", served + timedelta(days=1))
    know(app, first.id, served + timedelta(days=1), via="pessoal", note=None)
    # Known on Tuesday: 3 days end on Friday (served + 4); Saturday is late.
    second = file(app, case_id, served + timedelta(days=5))
    assert (second.level, second.late, second.due_on) == (2, True, served + timedelta(days=4))


def test_an_appeal_due_on_a_saturday_is_timely_on_monday(app, client, demo):
    """Paranatinga art. 48, 3 days: decision known on Wednesday, the 3rd day is Saturday; CC art. 132
    § 1º and Lei 9.784/1999 art. 66 § 1º move the end to Monday (served + 7)."""
    served = _served()
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=_ago(served))
    notify(app, case_id, "pessoal", served)
    first = file(app, case_id, served + timedelta(days=1))
    decide_appeal(app, first.id, "indeferido", served + timedelta(days=2))
    know(app, first.id, served + timedelta(days=2), via="pessoal", note=None)
    second = file(app, case_id, served + timedelta(days=7))
    assert (second.level, second.late, second.due_on) == (2, False, served + timedelta(days=7))


def test_a_first_defence_due_on_sunday_is_applied_only_after_monday(app, client, demo):
    """Paranatinga art. 48: served on a Thursday, the 3rd day is Sunday; nothing is applied on
    Monday, the last day; on Tuesday it is."""
    thursday = _served() + timedelta(days=3)
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=_ago(thursday))
    notify(app, case_id, "pessoal", thursday)
    monday = thursday + timedelta(days=4)
    assert refresh(app, case_id, monday)[0][1] == "pendente"
    assert refresh(app, case_id, monday + timedelta(days=1)) == [("par.inf.g1_c", "aplicada", monday + timedelta(days=1))]


def test_nortelandia_suspensive_appeal_holds_the_penalty_until_decided(app, client, demo):
    case_id, phone = homologated_case(app, client, "nortelandia", days_ago=3)
    served = _today() - timedelta(days=1)
    notify(app, case_id, "postal_ar", served)
    appeal = file(app, case_id, _today())
    assert (appeal.late, appeal.suspensive, appeal.instance_pt) == (False, True, "Chefe do Poder Executivo (Prefeito)")
    counts = run_daily(app, served + timedelta(days=25))  # long after the 10 days
    assert counts["autos.penalties"] == 0
    assert penalties(app, case_id)[0][1] == "suspensa"
    assert applied_rows(app) == []
    decided = _today()
    decide_appeal(app, appeal.id, "indeferido", decided)
    assert penalties(app, case_id) == [("nl.inf.faixa_moto_taxi", "aplicada", decided)]



def test_nortelandia_appeal_counts_ten_business_days_by_default(app, client, demo):
    """Art. 16 § 2º "na forma prevista no Código de Processo Civil": CPC/2015 arts. 219 and 224,
    counted from the first business day after the intimação. From a Monday with no holiday
    around: the 10th business day is the Monday two weeks later."""
    served = _served()
    for filed_after, late in ((14, False), (15, True)):
        case_id, _ = homologated_case(app, client, "nortelandia", days_ago=_ago(served))
        notify(app, case_id, "pessoal", served)
        appeal = file(app, case_id, served + timedelta(days=filed_after))
        assert (appeal.late, appeal.due_on) == (late, served + timedelta(days=14))


def test_nortelandia_calendar_day_reading_is_an_option(app, client, demo):
    """With nortelandia.art16_counting = cc_132: 10 calendar days from Monday end on Thursday."""
    from server.modules.registry.models import Municipality
    from server.modules.rules.settings import save_value
    with app.app_context():
        save_value(Municipality.query.filter_by(slug="nortelandia").one(), "options", "nortelandia.art16_counting",
                   "cc_132", "Parecer jurídico nº 1/2026")
        db.session.commit()  # as the configuration page's request
    served = _served()
    for filed_after, late in ((10, False), (11, True)):
        case_id, _ = homologated_case(app, client, "nortelandia", days_ago=_ago(served))
        notify(app, case_id, "pessoal", served)
        appeal = file(app, case_id, served + timedelta(days=filed_after))
        assert (appeal.late, appeal.due_on) == (late, served + timedelta(days=10))


def test_deferido_for_one_infraction_annuls_only_its_penalty(app, client, demo):
    case_id, _ = homologated_case(app, client, "nortelandia", days_ago=40)
    served = _today() - timedelta(days=30)
    notify(app, case_id, "pessoal", served)
    appeal = file(app, case_id, served + timedelta(days=1))
    bad = decide_appeal(app, appeal.id, "deferido", served + timedelta(days=2), "nl.inf.outra")
    assert bad.status == 422 and "infraction_id" in bad.fields
    decide_appeal(app, appeal.id, "deferido", served + timedelta(days=2), "nl.inf.faixa_moto_taxi")
    assert penalties(app, case_id)[0][1] == "anulada"


def test_daily_job_applies_once_and_the_server_counts_it_as_recidivism(app, client, demo):
    from server.extensions import db
    from server.modules.autos.process_operations import server_history
    from server.modules.fieldsync.field_data import penalty_rows
    from server.modules.registry.models import Municipality
    from server.modules.rules.service import composed_for
    from server.rules import evaluate
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=3)
    served = _today() - timedelta(days=1)  # the deadline still runs when the AR comes back
    notify(app, case_id, "postal_ar", served)
    assert penalties(app, case_id)[0][1] == "pendente"
    due_passed = art48_due(app, served) + timedelta(days=1)
    first = run_daily(app, due_passed)
    second = run_daily(app, due_passed)
    assert first["autos.penalties"] >= 1 and second["autos.penalties"] == 0
    operator_id, _, permit_id = first_operator_and_permit(app, "paranatinga")
    assert applied_rows(app) == [("par.inf.g1_c", due_passed, False, operator_id, permit_id)]
    with app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        assert [r["infraction_id"] for r in penalty_rows(muni.id)] == ["par.inf.g1_c"]  # phones get it
        history = server_history(muni.id, operator_id)
        result = evaluate(composed_for(muni), (due_passed + timedelta(days=10)).isoformat(),
                          {"$selected": ["par.inf.g1_c"]}, history)
        db.session.rollback()
    inf = [i for i in result["infractions"] if i["id"] == "par.inf.g1_c"]
    assert inf and inf[0]["recidivism"]["applied"] is True and inf[0]["recidivism"]["prior_count"] == 1
    # Art. 42 § único: 2 multas in a year disqualify — the applied one counts as the first.
    [esc] = [e for e in result["escalations"] if e["id"] == "par.inabilitacao"]
    assert (esc["prior"], esc["current"], esc["status"]) == (1, 1, "would_reach")


def test_field_data_delta_carries_the_applied_penalty_to_phones(app, client, demo):
    case_id, phone = homologated_case(app, client, "paranatinga", days_ago=3)
    served = _today() - timedelta(days=1)
    notify(app, case_id, "pessoal", served)
    cursor = client.get("/api/v1/field/data?cursor=0", headers=phone.headers).json["cursor"]
    applied_on = art48_due(app, served) + timedelta(days=1)
    run_daily(app, applied_on)
    delta = client.get(f"/api/v1/field/data?cursor={cursor}", headers=phone.headers).json
    assert delta["snapshot"] is False
    assert [(p["infraction_id"], p["applied_on"]) for p in delta["penalties"]] == [
        ("par.inf.g1_c", applied_on.isoformat())]


def test_quiet_year_cancels_the_record_once(app, client, demo):
    served = _served()
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=_ago(served))
    notify(app, case_id, "pessoal", served)
    applied_on = served + timedelta(days=4)
    run_daily(app, applied_on)
    # The anniversary is the year's last day (Lei 810/1949 art. 1º), as in the engine's art. 42
    # § único window: the record is cancelled only on the day after it (issue 19, point 10).
    anniversary = applied_on.replace(year=applied_on.year + 1)
    assert run_daily(app, anniversary, replay=False)["autos.quiet_period"] == 0
    year_later = anniversary + timedelta(days=1)
    assert run_daily(app, year_later)["autos.quiet_period"] == 1
    assert run_daily(app, year_later)["autos.quiet_period"] == 0
    assert penalties(app, case_id)[0][1] == "registro_cancelado"


def test_quiet_period_applies_only_where_the_law_has_it(app, client, demo):
    case_id, _ = homologated_case(app, client, "nortelandia", days_ago=40)
    served = _today() - timedelta(days=30)
    notify(app, case_id, "pessoal", served)
    run_daily(app, served + timedelta(days=11))
    assert run_daily(app, served + timedelta(days=800), replay=False)["autos.quiet_period"] == 0
    assert penalties(app, case_id)[0][1] == "aplicada"


def test_seizure_release_needs_alvara_and_payment_in_paranatinga(app, client, demo):
    from server.extensions import db
    from server.modules.autos import process_operations as ops
    from server.modules.autos.process_models import Seizure
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=5)
    seized = _today() - timedelta(days=3)
    _call(app, lambda: ops.record_seizure(_case(case_id), "apreensao", seized.isoformat()))

    def release(alvara, payment_id):
        return _call(app, lambda: ops.release_seizure(Seizure.query.one(), _today().isoformat(), alvara, payment_id))

    no_payment = release("001/2026", None)
    assert no_payment.status == 422 and "art. 45" in no_payment.fields["payment_id"][0]
    payment = _call(app, lambda: ops.record_payment(_case(case_id), "GUIA-77", _today().isoformat(), "30,86"))
    assert payment.amount_cents == 3086
    no_alvara = release("", payment.id)
    assert no_alvara.status == 422 and "alvara" in no_alvara.fields
    done = release("001/2026", payment.id)
    assert done.released_on == _today()
    with app.app_context():
        assert db.session.get(Seizure, done.id).release_payment_id == payment.id


def test_paranatinga_release_needs_the_art45_fine_paid_in_full(app, client, demo):
    """Art. 45 § único: the proof of payment of the fine "fixada em 132 UFIR" — a payment for less
    than the auto's art. 45 fine does not release the moto; the payments of the auto add up."""
    from server.modules.autos import process_operations as ops
    from server.modules.autos.process_models import Seizure
    art45 = ("par.inf.art45_sem_alvara", {"law": "L311", "art": "45"}, {"value": 132, "unit": "UFIR"}, 140.46)
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=2, infraction=art45)
    _call(app, lambda: ops.record_seizure(_case(case_id), "apreensao", _today().isoformat()))

    def release(payment_id):
        return _call(app, lambda: ops.release_seizure(Seizure.query.one(), _today().isoformat(), "001/2026", payment_id))

    first = _call(app, lambda: ops.record_payment(_case(case_id), "GUIA-1", _today().isoformat(), "100,00"))
    short = release(first.id)
    assert short.status == 422
    message = short.fields["payment_id"][0]
    assert "R$ 100,00" in message and "R$ 140,46" in message and "132 UFIR" in message
    _call(app, lambda: ops.record_payment(_case(case_id), "GUIA-2", _today().isoformat(), "40,46"))
    done = release(first.id)
    assert done.released_on == _today()
    with app.app_context():
        from server.core.audit import AuditLog
        entry = AuditLog.query.filter_by(action="seizure_release").one()
        assert entry.after["art45_fine_cents"] == 14046 and entry.after["fine_paid_cents"] == 14046


def test_notification_only_for_homologated_autos_and_issued_once(app, client, demo):
    from server.modules.autos import process_operations as ops
    from server.modules.autos.operations import decide
    case_id, _ = homologated_case(app, client, "paranatinga")
    first = _call(app, lambda: ops.issue_notification(_case(case_id)))
    again = _call(app, lambda: ops.issue_notification(_case(case_id)))
    assert (again.id, again.payload, again.content) == (first.id, first.payload, first.content)
    other, _ = homologated_case(app, client, "sapezal")
    _call(app, lambda: decide(_case(other), "auto_void", "Placa anotada não confere com o veículo."))
    refused = _call(app, lambda: ops.issue_notification(_case(other)))
    assert refused.status == 409


def test_voiding_a_notified_auto_annuls_its_applied_penalty_at_once(app, client, demo):
    from server.modules.autos.operations import decide
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=30)
    notify(app, case_id, "pessoal", _today() - timedelta(days=20))
    assert penalties(app, case_id)[0][1] == "aplicada" and applied_rows(app)[0][2] is False
    _call(app, lambda: decide(_case(case_id), "auto_void", "Erro de identificação do veículo comprovado."))
    assert penalties(app, case_id)[0][1] == "anulada"
    assert applied_rows(app)[0][2] is True


def test_voiding_an_auto_never_notified_creates_no_penalty(app, client, demo):
    from server.modules.autos.operations import decide
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=3)
    _call(app, lambda: decide(_case(case_id), "auto_void", "Auto lavrado em duplicidade pelo fiscal."))
    assert penalties(app, case_id) == [] and applied_rows(app) == []


def test_recidivism_window_counts_from_the_day_the_prior_was_committed(app, client, demo):
    """Issue 19 (5): an auto of 120 days ago notified late becomes applied 16 days ago; Paranatinga
    art. 49 counts a prior the operator "tenha cometido" in the last 3 months, so it is not one —
    neither on the server nor in the history phones receive."""
    from server.extensions import db
    from server.modules.autos.notification_content import infraction_date
    from server.modules.autos.process_operations import server_history
    from server.modules.fieldsync.field_data import penalty_rows
    from server.modules.fieldsync.models import AppliedPenalty
    from server.modules.registry.models import Municipality
    from server.modules.rules.service import composed_for
    from server.rules import evaluate
    # A Monday with no holiday near: the 3-day recurso (art. 48) ends on Thursday, applied on Friday;
    # the auto was committed 100 days before that Monday.
    served = plain_monday(_today(), at_least=20, span=6)
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=(_today() - served).days + 100)
    notify(app, case_id, "pessoal", served)
    applied_on = served + timedelta(days=4)
    run_daily(app, applied_on)
    operator_id, _, _ = first_operator_and_permit(app, "paranatinga")
    with app.app_context():
        committed = infraction_date(_case(case_id))
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        [row] = AppliedPenalty.query.all()
        assert (row.committed_on, row.applied_on) == (committed, applied_on)
        assert committed < applied_on - timedelta(days=90)
        [entry] = server_history(muni.id, operator_id)
        assert (entry["date"], entry["applied_on"]) == (committed.isoformat(), applied_on.isoformat())
        [sent] = penalty_rows(muni.id)
        assert (sent["committed_on"], sent["applied_on"]) == (committed.isoformat(), applied_on.isoformat())
        today = _today().isoformat()
        result = evaluate(composed_for(muni), today, {"$selected": ["par.inf.g1_c"]}, [entry])
        [inf] = [i for i in result["infractions"] if i["id"] == "par.inf.g1_c"]
        assert inf["recidivism"]["applied"] is False and inf["recidivism"]["prior_count"] == 0
        # The same prior committed inside the window counts: the window, not the entry, decided.
        inside = dict(entry, date=(_today() - timedelta(days=30)).isoformat())
        result = evaluate(composed_for(muni), today, {"$selected": ["par.inf.g1_c"]}, [inside])
        [inf] = [i for i in result["infractions"] if i["id"] == "par.inf.g1_c"]
        assert inf["recidivism"]["applied"] is True
        db.session.rollback()


def test_second_instance_runs_from_the_recorded_ciencia_not_the_decision(app, client, demo):
    """Paranatinga art. 48: "Da nova decisão, caberá recurso ao Sr. Prefeito Municipal, observando o
    mesmo prazo" — 3 days "a contar do recebimento da notificação". Decided on Tuesday; while the
    ciência is unknown the period does not run (an appeal is timely); the AR comes back received on
    Saturday, a day without office hours, so it counts as received on Monday (CPC art. 224 § 1º)
    and the 3 days end on Thursday: an appeal filed that day is timely. Counted from the decision
    it would have ended on Friday of the week before."""
    from server.core.audit import AuditLog
    served = _served()
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=_ago(served))
    notify(app, case_id, "pessoal", served)
    first = file(app, case_id, served + timedelta(days=1))
    decided = served + timedelta(days=1)  # Tuesday
    decide_appeal(app, first.id, "indeferido", decided)
    with app.app_context():
        from server.modules.autos import process_operations as ops
        from server.modules.autos.outcome import current_step
        case = _case(case_id)
        step, due_on = current_step(ops.steps_for(case), served, ops.appeals_of(case), ops.calendar_for_case(case))
        assert (step["level"], due_on) == (2, None)  # not running yet
    bad = know(app, first.id, decided - timedelta(days=1))
    assert bad.status == 422 and "decision_known_on" in bad.fields
    assert know(app, first.id, decided, via="carta").fields.keys() == {"decision_known_via"}
    assert know(app, first.id, decided, via="publicacao", note="").fields.keys() == {"decision_known_note"}
    saturday = served + timedelta(days=5)
    know(app, first.id, saturday)
    assert know(app, first.id, saturday).status == 409  # recorded once, never changed
    with app.app_context():
        entry = AuditLog.query.filter_by(action="auto_decision_service", entity_id=str(first.id)).one()
        assert entry.after["decision_known_on"] == saturday.isoformat()
    thursday = served + timedelta(days=10)
    second = file(app, case_id, thursday)
    assert (second.level, second.late, second.due_on) == (2, False, thursday)


def test_an_appeal_filed_before_the_ciencia_is_recorded_is_timely(app, client, demo):
    served = _served()
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=_ago(served))
    notify(app, case_id, "pessoal", served)
    first = file(app, case_id, served + timedelta(days=1))
    decide_appeal(app, first.id, "indeferido", served + timedelta(days=1))
    second = file(app, case_id, served + timedelta(days=15))
    assert (second.level, second.late, second.due_on) == (2, False, None)


def test_an_auto_signed_on_a_saturday_counts_from_monday_and_an_appeal_on_the_last_day_is_timely(app, client, demo):
    """Roadside autos are often signed on weekends. Signed (ciência on the spot) on a Saturday, the
    act counts as made on Monday and the count starts on Tuesday (CPC/2015 art. 224 §§ 1º and 3º,
    via art. 15; STF Súmula 310): Paranatinga's 3 days (art. 48) end on Thursday. An appeal filed
    that Thursday is timely; counted from the Saturday it would have been late (Tuesday)."""
    monday = _served()
    saturday = monday - timedelta(days=2)
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=(_today() - saturday).days, operator_signed=True)
    note = notify(app, case_id, "assinatura_local", None)
    assert note.served_on == saturday
    thursday = monday + timedelta(days=3)
    appeal = file(app, case_id, thursday)
    assert (appeal.level, appeal.late, appeal.due_on) == (1, False, thursday)
    assert refresh(app, case_id, thursday + timedelta(days=1))[0][1] == "pendente"  # awaiting the decision


def test_a_closure_recorded_on_the_last_day_moves_the_stored_due_date_and_the_filing_becomes_timely(app, client, demo):
    """The office was closed on what had been the last day of the 3 days (art. 48) and the closure
    is recorded afterwards: the filing's stored due date is counted again (CC art. 132 § 1º; Lei
    9.784/1999 art. 66 § 1º), the appeal filed the next day is timely, and the penalty applied
    meanwhile goes back to awaiting the decision. Audited."""
    from server.core.audit import AuditLog
    from server.modules.calendar.operations import add_closure
    from server.extensions import db
    from server.modules.registry.models import Municipality
    served = _served()
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=_ago(served))
    notify(app, case_id, "pessoal", served)
    thursday, friday = served + timedelta(days=3), served + timedelta(days=4)
    appeal = file(app, case_id, friday)
    assert (appeal.late, appeal.due_on) == (True, thursday)
    assert refresh(app, case_id, _today())[0][1] == "aplicada"
    with app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        add_closure(muni, {"day": thursday, "kind": "fechamento", "name_pt": "Repartição fechada",
                           "act": "Decreto 12/2026"})
        from server.modules.autos.process_models import AutoAppeal
        row = db_get(AutoAppeal, appeal.id)
        assert (row.late, row.due_on) == (False, friday)
        assert AuditLog.query.filter_by(action="auto_appeal_due_moved", entity_id=str(appeal.id)).count() == 1
        db.session.commit()
    assert penalties(app, case_id)[0][1] == "pendente"


def db_get(model, ident):
    from server.extensions import db
    return db.session.get(model, ident)
