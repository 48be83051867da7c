"""Daily tasks that cannot change the law by missing a day (issue 35, item 3): the runner keeps the
last date each task decided and replays every missed date, in order, as of that date
(server/modules/jobs/registry.py). Paranatinga art. 44: the record of penalties is cancelled when,
in one year from the last application, the operator commits no new infraction — an infraction
committed after that year must not block the cancellation the law already made, whether the job
ran on the day or replays it after an outage."""
from datetime import date, timedelta

import pytest

from autos_process_helpers import art48_due, homologated_case, plain_monday
from test_autos_process import _ago, _today, notify

TASKS = ["autos.penalties", "autos.quiet_period"]


def _run(app, day, only=TASKS):
    from server.modules.jobs.registry import run_daily
    with app.app_context():
        out = {task.name: count for task, count in run_daily(day, only=only)}
    assert not any(isinstance(v, Exception) for v in out.values()), out
    return out


def _state(app, case_id):
    from server.core.audit import AuditLog
    from server.modules.autos.process_models import AutoPenalty
    from server.modules.jobs.models import DailyTaskRun
    with app.app_context():
        rows = [(p.infraction_id, p.state, p.applied_on, p.state_reason)
                for p in AutoPenalty.query.filter_by(case_id=case_id).order_by(AutoPenalty.id)]
        audits = AuditLog.query.filter_by(action="penalty_record_cancel").count()
        decided = {r.task: r.last_decided_on for r in DailyTaskRun.query.order_by(DailyTaskRun.task)}
        return rows, audits, decided


def _quiet_end(applied_on):
    from server.rules import dates
    return date.fromordinal(dates.period_end(applied_on.toordinal(), {"years": 1}))


def _applied_a_year_and_a_bit_ago(app, client):
    """(case id, phone, applied_on, quiet end) of a Paranatinga fine applied a little over a year
    ago; the daily tasks have decided every date up to a few days before its quiet year ends (the
    runner's first run decides its own date only, so earlier dates cost nothing here)."""
    today = _today()
    served = plain_monday(today, at_least=385)
    case_id, phone = homologated_case(app, client, "paranatinga", days_ago=_ago(served))
    notify(app, case_id, "pessoal", served)
    applied_on = art48_due(app, served) + timedelta(days=1)
    quiet_end = _quiet_end(applied_on)
    _run(app, quiet_end - timedelta(days=3))
    assert _state(app, case_id)[0][0][1:3] == ("aplicada", applied_on)
    return case_id, phone, applied_on, quiet_end


@pytest.mark.parametrize("schedule", ["every_day", "skipping_the_quiet_years_end"])
def test_a_missed_day_is_decided_as_daily_runs_decide_it(app, client, demo, schedule):
    today = _today()
    case_id, phone, applied_on, quiet_end = _applied_a_year_and_a_bit_ago(app, client)
    second_committed = quiet_end + timedelta(days=3)  # after the year: no bearing on art. 44
    assert second_committed < today
    if schedule == "every_day":
        day = quiet_end - timedelta(days=3)
        while day <= quiet_end:
            day += timedelta(days=1)
            _run(app, day)
        assert _state(app, case_id)[0][0][1] == "registro_cancelado"  # on quiet_end + 1, as the law says
    # The new auto reaches the server (synced) only now, dated three days after the year ended.
    homologated_case(app, client, "paranatinga", days_ago=(today - second_committed).days, phone=phone)
    _run(app, today)
    rows, audits, decided = _state(app, case_id)
    assert rows == [("par.inf.g1_c", "registro_cancelado", applied_on,
                     rows[0][3])] and f"a {quiet_end:%d/%m/%Y}" in rows[0][3]
    assert audits == 1
    assert decided == {"autos.penalties": today, "autos.quiet_period": today}


def test_an_infraction_within_the_quiet_year_still_blocks_the_cancellation(app, client, demo):
    """The replay decides as of each date from the facts of that date: a new infraction committed
    inside the year keeps the record (art. 44), skipped days or not."""
    today = _today()
    case_id, phone, _, quiet_end = _applied_a_year_and_a_bit_ago(app, client)
    inside = quiet_end - timedelta(days=1)  # synced after the runner's last date, committed inside the year
    homologated_case(app, client, "paranatinga", days_ago=(today - inside).days, phone=phone)
    _run(app, today)
    assert _state(app, case_id)[0][0][1] == "aplicada"


def test_a_failed_date_stops_the_task_there_and_the_next_run_resumes_from_it(app, demo, monkeypatch):
    from server.modules.jobs import registry
    seen = []

    def flaky(day):
        seen.append(day)
        if day == date(2030, 1, 3) and seen.count(day) == 1:
            raise RuntimeError("banco indisponível")
        return 0

    task = registry.DailyTask("test.flaky", "Tarefa de teste", flaky)
    monkeypatch.setitem(registry._TASKS, task.name, task)
    monkeypatch.setattr(registry, "tasks", lambda: [task])
    with app.app_context():
        [(_, first)] = registry.run_daily(date(2030, 1, 1))
        [(_, failed)] = registry.run_daily(date(2030, 1, 5))
        assert isinstance(failed, registry.MissedDayFailed) and "03/01/2030" in str(failed)
        [(_, resumed)] = registry.run_daily(date(2030, 1, 5))
    assert first == 0 and resumed == 0
    assert seen == [date(2030, 1, 1), date(2030, 1, 2), date(2030, 1, 3), date(2030, 1, 3), date(2030, 1, 4),
                    date(2030, 1, 5)]
