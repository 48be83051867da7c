"""Operator API: /api/v1/operator (first access, own crachá, own photo).

The route table of the package: views.py records its routes (core/routes.py) and never imports
this module back."""
from flask import Blueprint

from . import views

bp = Blueprint("operator_portal", __name__, url_prefix="/api/v1/operator")
views.routes.register(bp)
