"""Field sync URL table. Routes are attached by views.py (imported below), so views never
import this module back at import time of the app: no import circle."""
from flask import Blueprint

bp = Blueprint("fieldsync", __name__, template_folder="templates")


@bp.record_once
def _track_changes(_state):
    # Field-data versions follow every ORM write to the registry (registry/changes.py), CLI
    # included, and to the applied penalties phones count recidivism from.
    from ..registry.changes import init_tracking, track
    from .models import AppliedPenalty
    track(AppliedPenalty, "penalty")
    init_tracking()

from . import views  # noqa: E402,F401  (routes attach to bp)
from . import photo_settings_views  # noqa: E402,F401
