"""Back-office pages of an auto's process and the public check of a notification."""
from flask import Blueprint

bp = Blueprint("autos", __name__)

from . import views  # noqa: E402,F401  (routes attach to bp)
