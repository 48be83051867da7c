"""The collection package's blueprint, built from the route tables its views modules record
(core/routes.py); they never import this module back."""
from flask import Blueprint

from . import views

bp = Blueprint("collection_bo", __name__, url_prefix="/bo/arrecadacao")
views.routes.register(bp)
