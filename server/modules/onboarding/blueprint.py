"""The onboarding package's blueprint, built from the route tables its views modules record
(core/routes.py); they never import this module back."""
from flask import Blueprint

from . import first_day_views, views

bp = Blueprint("onboarding", __name__, url_prefix="/bo/plataforma")
views.routes.register(bp)

first_day_bp = Blueprint("first_day", __name__)
first_day_views.routes.register(first_day_bp)
