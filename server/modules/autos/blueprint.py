"""Back-office pages of an auto's process and the public check of a notification.

The route table of the package: views.py records its routes (core/routes.py) and never imports
this module back."""
from flask import Blueprint

from . import views

bp = Blueprint("autos", __name__)
views.routes.register(bp)
