"""Daily task of the tariffs: phones learn of a table that came into force (or lapsed) today."""
from ..jobs.registry import daily_task
from .operations import refresh_tariffs_in_force


# Tells the phones which table is in force now: a past day's notice is superseded by today's.
@daily_task("tariffs.in_force", "Tabelas de tarifas que entraram em vigor avisadas aos celulares", catch_up=False)
def in_force(today):
    return refresh_tariffs_in_force(today)
