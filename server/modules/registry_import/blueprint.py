"""The registry_import package's blueprint, built from the route tables its views modules record
(core/routes.py); they never import this module back."""
from flask import Blueprint

from . import views

bp = Blueprint("registry_import", __name__, url_prefix="/bo/importacao")
views.routes.register(bp)
