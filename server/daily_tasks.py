"""Every daily task of the laws, in run order (issue 39: registration by import, not by string).

Each feature declares its tasks with `@daily_task` (jobs/registry.py) in its own module; importing
that module here registers them, and the import is a dependency import-linter sees. The order of
TASK_MODULES is the order `flask jobs run-daily` runs them: the permit's own dates first
(expiry, suspension), then what depends on them.
"""
from .modules.autos import jobs as autos
from .modules.collection import jobs as collection
from .modules.issuance import jobs as issuance
from .modules.jobs.registry import use_task_modules
from .modules.lgpd import jobs as lgpd
from .modules.notices import jobs as notices
from .modules.permits import jobs as permits
from .modules.registry_import import daily as registry_import
from .modules.selection import jobs as selection
from .modules.tariffs import jobs as tariffs

TASK_MODULES = (permits, selection, tariffs, autos, issuance, lgpd, collection, notices, registry_import)


def register_daily_tasks():
    use_task_modules(TASK_MODULES)
