"""Imports every model module so that SQLAlchemy and Alembic see the whole schema.

Add one line per feature package that defines models.
"""
from .core import audit  # noqa: F401
from .modules.accounts import models as accounts_models  # noqa: F401
from .modules.registry import models as registry_models  # noqa: F401
from .modules.registry import change_models as registry_change_models  # noqa: F401
from .modules.registry import transition_models as registry_transition_models  # noqa: F401
from .modules.credentials import models as credentials_models  # noqa: F401
from .modules.fieldsync import models as fieldsync_models  # noqa: F401
from .modules.autos import models as autos_models  # noqa: F401
from .modules.review import models as review_models  # noqa: F401
from .modules.selection import models as selection_models  # noqa: F401
from .modules.registry import life_models as registry_life_models  # noqa: F401
from .modules.tariffs import models as tariffs_models  # noqa: F401
from .modules.autos import process_models as autos_process_models  # noqa: F401
from .modules.dashboard import models as dashboard_models  # noqa: F401
from .modules.issuance import models as issuance_models  # noqa: F401
from .modules.calendar import models as calendar_models  # noqa: F401
from .modules.collection import models as collection_models  # noqa: F401
from .modules.notices import models as notices_models  # noqa: F401
from .modules.traffic import models as traffic_models  # noqa: F401
from .modules.jobs import models as jobs_models  # noqa: F401
from .modules.registry_import import models as registry_import_models  # noqa: F401
