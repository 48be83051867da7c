"""The list of daily tasks and the runner.

A task is a function `task(today) -> int` (how many things it changed) registered with
`@daily_task(name, label)` in its feature's `jobs.py`, listed in server/daily_tasks.py. Every task must
be idempotent: it looks at the state of the records on `today`, not at whether it ran before,
so running the command twice changes nothing more.

A missed day is decided, not skipped (issue 35): each task keeps the last date it decided
(`DailyTaskRun`), and a run decides every date after it up to today, in order, each as of its
own date, one transaction per date — so an outage cannot change a legal outcome (e.g. Paranatinga
art. 44: a record whose quiet year ended on a missed day is cancelled as of that day, whatever is
committed after it). A task decides "as of D" only from facts dated on or before D. A task whose
only effect concerns the present (`catch_up=False`: a reminder, a notice to the phones) decides
today only. The first run of a task (no record) decides its own date; a run for a date not after
the last decided one decides that date again and leaves the record as it is.
"""
from dataclasses import dataclass
from datetime import timedelta

from ...core.tenancy import crosses_municipalities
from ...core.transaction import unit_of_work
from ...extensions import db
from .models import DailyTaskRun

# The modules that declare tasks, in run order: set by the app's assembly (server/daily_tasks.py,
# called by create_app), which imports them, so no feature is loaded here by name.
_TASK_MODULES: tuple[str, ...] = ()


@dataclass(frozen=True)
class DailyTask:
    name: str
    label: str  # pt-BR, printed by the command
    run: callable
    catch_up: bool = True  # decide each missed date (False: today only, see the module's docstring)


_TASKS: dict[str, DailyTask] = {}


class MissedDayFailed(Exception):
    """A task failed on one of the dates it was deciding; later dates wait for the next run."""


def daily_task(name, label, catch_up=True):
    def register(func):
        _TASKS[name] = DailyTask(name, label, func, catch_up)
        return func
    return register


def dates_to_decide(task, today):
    """The dates `task` decides in a run for `today`, oldest first."""
    row = db.session.get(DailyTaskRun, task.name)
    if not task.catch_up or row is None or today <= row.last_decided_on:
        return [today]
    first = row.last_decided_on + timedelta(days=1)
    return [first + timedelta(days=n) for n in range((today - first).days + 1)]


def _mark_decided(task, day):
    row = db.session.get(DailyTaskRun, task.name)
    if row is None:
        db.session.add(DailyTaskRun(task=task.name, last_decided_on=day))
    elif day > row.last_decided_on:
        row.last_decided_on = day


def use_task_modules(modules):
    """The modules whose `@daily_task`s run, in this order (their import registered them)."""
    global _TASK_MODULES
    _TASK_MODULES = tuple(m.__name__ for m in modules)


def tasks():
    """The registered tasks, in the order of their modules; a task declared in a module the
    assembly did not list is an error, not a task that silently never runs."""
    order = {name: i for i, name in enumerate(_TASK_MODULES)}
    stray = [t.name for t in _TASKS.values() if t.run.__module__ not in order]
    if stray:
        raise RuntimeError(f"daily tasks outside server/daily_tasks.py's TASK_MODULES: {stray}")
    return sorted(_TASKS.values(), key=lambda t: order[t.run.__module__])


@crosses_municipalities("daily jobs: the laws' dates, for every municipality")
def run_daily(today, only=None):
    """Run every task for each date it has to decide up to `today` (`dates_to_decide`), each date
    one unit of work (core/transaction.py): a failing date is rolled back and reported, the
    task's later dates wait for the next run, and the other tasks go on. Returns
    [(task, count | exception)], the count summed over the dates decided."""
    results = []
    for task in tasks():
        if only and task.name not in only:
            continue
        count = 0
        for day in dates_to_decide(task, today):
            try:
                with unit_of_work():  # the date's decisions and its mark, committed together
                    decided = task.run(day)
                    _mark_decided(task, day)
                count += decided
            except Exception as exc:  # the unit rolled it back; the command reports it and exits non-zero
                count = MissedDayFailed(f"em {day:%d/%m/%Y}: {exc}")
                count.__cause__ = exc
                break
        results.append((task, count))
    return results
