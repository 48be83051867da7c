"""Back-office pages of an auto's process, the public check of a notification, and the auto as its
operator sees it (the operator's list, the public page /a/<token>).

The route table of the package: views.py and public_views.py record their routes
(core/routes.py) and never import this module back."""
from flask import Blueprint

from . import operator_views, public_views, views

bp = Blueprint("autos", __name__)
views.routes.register(bp)
public_views.routes.register(bp)
operator_views.routes.register(bp)
