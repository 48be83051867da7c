"""Daily task of the notices: the optional reminders of deadlines about to end. (Sending is
`flask notices send`, every minute: a notice waits minutes, not a day.)"""
from ..jobs.registry import daily_task
from .operations import deadline_reminders


@daily_task("notices.deadlines", "Avisos de prazo de defesa ou recurso terminando (opcionais)")
def remind(today):
    return deadline_reminders(today)
