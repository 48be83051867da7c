"""Daily tasks are registered by import (server/daily_tasks.py), not by module-name strings: the
app runs every task of the listed modules in their order, and a task declared anywhere else is
refused rather than silently never run (issue 39)."""
import pytest

from server import daily_tasks
from server.modules.jobs import registry


def test_tasks_run_in_the_order_of_their_modules(app):
    with app.app_context():
        found = registry.tasks()
    modules = [task.run.__module__ for task in found]
    order = [m.__name__ for m in daily_tasks.TASK_MODULES]
    assert modules == sorted(modules, key=order.index)
    # every listed module declares at least one task, so none is listed for nothing
    assert set(modules) == set(order)


def test_a_task_outside_the_listed_modules_is_refused(app, monkeypatch):
    def stray(day):
        return 0
    stray.__module__ = "server.modules.somewhere.jobs"
    monkeypatch.setitem(registry._TASKS, "test.stray", registry.DailyTask("test.stray", "Tarefa perdida", stray))
    with app.app_context(), pytest.raises(RuntimeError, match="test.stray"):
        registry.tasks()
