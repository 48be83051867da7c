"""The traffic package's blueprint, built from the route tables its views modules record
(core/routes.py); they never import this module back."""
from flask import Blueprint

from . import views

bp = Blueprint("traffic", __name__, url_prefix="/bo/transito")
views.routes.register(bp)
