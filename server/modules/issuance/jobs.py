"""Daily tasks of issuance: ISSQN monthly charges (the caducidade after the law's grace period is
the permit's: permits/jobs.py)."""
from ..jobs.registry import daily_task
from .operations import create_issqn_charges


@daily_task("issuance.issqn_charges", "Cobranças mensais de ISSQN por moto em atividade (Nortelândia art. 14)")
def issqn_charges(today):
    return create_issqn_charges(today)
