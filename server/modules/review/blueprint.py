"""Back-office review screens under /bo/revisao: the package's route table. views.py and
quarantine.py (the refused records) record their routes (core/routes.py) and never import this
module back."""
from flask import Blueprint

from . import quarantine, views

bp = Blueprint("review", __name__, url_prefix="/bo/revisao")
views.routes.register(bp)
quarantine.routes.register(bp)
