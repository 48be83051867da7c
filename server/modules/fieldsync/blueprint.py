"""Field sync URL table: views.py and photo_settings_views.py record their routes
(core/routes.py) and never import this module back, so there is no import circle."""
from flask import Blueprint

from ..registry.changes import init_tracking, track
from . import photo_settings_views, views
from .models import AppliedPenalty

bp = Blueprint("fieldsync", __name__, template_folder="templates")


@bp.record_once
def _track_changes(_state):
    # Field-data versions follow every ORM write to the registry (registry/changes.py), CLI
    # included, and to the applied penalties phones count recidivism from.
    track(AppliedPenalty, "penalty")
    init_tracking()


views.routes.register(bp)
photo_settings_views.routes.register(bp)
