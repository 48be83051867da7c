"""Daily tasks of the permit's life: expiry, and caducidade after the law's grace period. The task
names keep the "registry." prefix they were first run under."""
from ..jobs.registry import daily_task
from .operations import expire_due_permits, lapse_unrenewed_permits


@daily_task("registry.expire", "Permissões vencidas marcadas como vencidas")
def expire(today):
    return expire_due_permits(today)


@daily_task("registry.lapse", "Alvarás não renovados no prazo da lei marcados como caducados")
def lapse(today):
    return lapse_unrenewed_permits(today)
