"""`flask jobs run-daily`: every task runs, and a second run on the same day changes nothing."""
from server.core.audit import AuditLog
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
