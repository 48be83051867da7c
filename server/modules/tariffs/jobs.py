"""Daily task of the tariffs: phones learn of a table that came into force (or lapsed) today."""
from ..jobs.registry import daily_task
from .operations import refresh_tariffs_in_force


@daily_task("tariffs.in_force", "Tabelas de tarifas que entraram em vigor avisadas aos celulares")
def in_force(today):
    return refresh_tariffs_in_force(today)
