"""`flask jobs run-daily`: every task runs, and a second run on the same day changes nothing."""
import pytest
from sqlalchemy import text

from server.core.audit import AuditLog
from server.extensions import db
from server.modules.jobs.lock import DAILY_RUN_LOCK
from server.modules.registry.models import Permit


def _state(app):
    with app.app_context():
        return (sorted((p.id, p.status) for p in Permit.query.all()), AuditLog.query.count())


def test_run_daily_twice_changes_nothing_the_second_time(app, runner, demo):
    before, _ = _state(app)
    active = [pid for pid, status in before if status == "ativo"]
    assert active, "the demo holds active permits"
    first = runner.invoke(args=["jobs", "run-daily", "--date", "2099-01-01"])
    assert first.exit_code == 0, first.output
    assert f"vencidas: {len(active)}" in first.output
    after_first, audits_first = _state(app)
    assert all(status != "ativo" for _pid, status in after_first)
    second = runner.invoke(args=["jobs", "run-daily", "--date", "2099-01-01"])
    assert second.exit_code == 0, second.output
    assert "vencidas: 0" in second.output
    assert _state(app) == (after_first, audits_first)


def test_run_daily_on_today_leaves_valid_permits_alone(app, runner, demo):
    before, _ = _state(app)
    result = runner.invoke(args=["jobs", "run-daily"])
    assert result.exit_code == 0, result.output
    assert [s for _i, s in _state(app)[0]].count("ativo") == [s for _i, s in before].count("ativo")


def test_unknown_task_is_refused_with_the_known_ones(app, runner):
    result = runner.invoke(args=["jobs", "run-daily", "--task", "nada"])
    assert result.exit_code != 0
    assert "tarefa desconhecida: nada" in result.output
    assert "registry.expire" in result.output


def test_a_second_run_while_one_holds_the_lock_does_nothing(app, runner, demo):
    # Two app servers' cron lines firing at once: the second run finds the lock taken and stops.
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("SQLite is one machine's file: one cron, nothing to coordinate")
        before = _state(app)
        with db.engine.connect() as other_run:
            other_run.execute(text("SELECT pg_advisory_lock(:key)"), {"key": DAILY_RUN_LOCK})
            blocked = runner.invoke(args=["jobs", "run-daily", "--date", "2099-01-01"])
            other_run.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": DAILY_RUN_LOCK})
            other_run.commit()
    assert blocked.exit_code == 0, blocked.output
    assert "em andamento" in blocked.output and "vencidas" not in blocked.output
    assert _state(app) == before
    after = runner.invoke(args=["jobs", "run-daily", "--date", "2099-01-01"])  # the lock is free again
    assert after.exit_code == 0 and "vencidas:" in after.output and "vencidas: 0" not in after.output
