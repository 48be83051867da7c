"""Daily task of the notices: the optional reminders of deadlines about to end. (Sending is
`flask notices send`, every minute: a notice waits minutes, not a day.)"""
from ..jobs.registry import daily_task
from .operations import deadline_reminders


# A reminder is for the days ahead: one for a past day is stale, so a missed day is not replayed.
@daily_task("notices.deadlines", "Avisos de prazo de defesa ou recurso terminando (opcionais)", catch_up=False)
def remind(today):
    return deadline_reminders(today)
