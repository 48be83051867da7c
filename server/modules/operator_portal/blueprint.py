"""Operator API: /api/v1/operator (first access, own crachá, own photo)."""
from flask import Blueprint

bp = Blueprint("operator_portal", __name__, url_prefix="/api/v1/operator")

from . import views  # noqa: E402,F401  (routes attach to bp)
