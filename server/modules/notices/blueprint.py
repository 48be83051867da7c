"""The notices package's blueprint, built from the route tables its views modules record
(core/routes.py); they never import this module back."""
from flask import Blueprint

from . import views

bp = Blueprint("notices", __name__)
views.routes.register(bp)
