"""Daily tasks of issuance: caducidade after the law's grace period, ISSQN monthly charges."""
from ..jobs.registry import daily_task
from ..registry.operations import lapse_unrenewed_permits
from .operations import create_issqn_charges


@daily_task("registry.lapse", "Alvarás não renovados no prazo da lei marcados como caducados")
def lapse(today):
    return lapse_unrenewed_permits(today)


@daily_task("issuance.issqn_charges", "Cobranças mensais de ISSQN por moto em atividade (Nortelândia art. 14)")
def issqn_charges(today):
    return create_issqn_charges(today)
