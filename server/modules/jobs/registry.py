"""The list of daily tasks and the runner.

A task is a function `task(today) -> int` (how many things it changed) registered with
`@daily_task(name, label)` in its feature's `jobs.py`, listed in TASK_MODULES. Every task must
be idempotent: it looks at the state of the records on `today`, not at whether it ran before,
so running the command twice (or after a missed day) changes nothing more.
"""
import importlib
from dataclasses import dataclass

from ...core.tenancy import crosses_municipalities
from ...extensions import db

# Feature modules that register daily tasks. Add one line for yours; order is run order.
TASK_MODULES = [
    "server.modules.permits.jobs",
    "server.modules.selection.jobs",
    "server.modules.tariffs.jobs",
    "server.modules.autos.jobs",
    "server.modules.issuance.jobs",
    "server.modules.lgpd.jobs",
    "server.modules.collection.jobs",
    "server.modules.notices.jobs",
    "server.modules.registry_import.daily",
]


@dataclass(frozen=True)
class DailyTask:
    name: str
    label: str  # pt-BR, printed by the command
    run: callable


_TASKS: dict[str, DailyTask] = {}


def daily_task(name, label):
    def register(func):
        _TASKS[name] = DailyTask(name, label, func)
        return func
    return register


def tasks():
    for module in TASK_MODULES:
        importlib.import_module(module)
    return list(_TASKS.values())


@crosses_municipalities("daily jobs: the laws' dates, for every municipality")
def run_daily(today, only=None):
    """Run every task for `today`, each in its own transaction: a failing task is rolled back
    and reported without undoing what the others did. Returns [(task, count | exception)]."""
    results = []
    for task in tasks():
        if only and task.name not in only:
            continue
        try:
            count = task.run(today)
            db.session.commit()
            results.append((task, count))
        except Exception as exc:  # reported by the command, which then exits non-zero
            db.session.rollback()
            results.append((task, exc))
    return results
