"""The notices' jobs: the sender (`flask notices send`, every minute: a notice waits minutes, not
a day) and the daily task of the optional reminders of deadlines about to end.

The sender's units of work (core/transaction.py): each notice is claimed in a unit of its own,
committed before anything is sent (another sender then sees it taken), and its sending with the
record of the try and the provider's answer is the next unit: a failure loses only that notice's
try, whose stale claim is taken again later (operations.STALE_CLAIM)."""
from flask import current_app

from ...core.tenancy import crosses_municipalities
from ...core.transaction import unit_of_work
from ..autos.models import utcnow
from ..jobs.registry import daily_task
from .channels import configured_channels
from .operations import claim, deadline_reminders, due_notices, send_claimed


@crosses_municipalities("notice sender: the queue of every municipality")
def send_due(now=None, limit=100):
    """Send what is due; returns {"sent", "failed", "gave_up"}. Two senders (two servers' cron)
    never send one notice twice: the claim is a conditional UPDATE (operations.claim)."""
    now = now or utcnow()
    channels = configured_channels(current_app.config)
    with unit_of_work():
        due = due_notices(now, limit)
    counts = {"sent": 0, "failed": 0, "gave_up": 0}
    for notice_id, state in due:
        with unit_of_work():
            won = claim(notice_id, state, now)
        if not won:
            continue  # another sender took it
        with unit_of_work():
            counts[send_claimed(notice_id, channels, now)] += 1
    return counts


# A reminder is for the days ahead: one for a past day is stale, so a missed day is not replayed.
@daily_task("notices.deadlines", "Avisos de prazo de defesa ou recurso terminando (opcionais)", catch_up=False)
def remind(today):
    return deadline_reminders(today)
