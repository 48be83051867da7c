"""Daily tasks of the registry."""
from ..jobs.registry import daily_task
from .operations import expire_due_permits


@daily_task("registry.expire", "Permissões vencidas marcadas como vencidas")
def expire(today):
    return expire_due_permits(today)
