"""Back-office pages: the package's route table.

Each screen module records its routes (core/routes.py) and never imports this module back; the
tables are registered here in a fixed order, which is the order of the app's URL map.
"""
from flask import Blueprint

from . import users_admin

from . import (calendar_views, home_views, issuance_views, life_views, permit_views, photo_views,
               registry_views, settings_views, templating)

bp = Blueprint("backoffice", __name__)

for _screens in (templating, home_views, calendar_views, registry_views, permit_views, photo_views,
                 settings_views, life_views, issuance_views):
    _screens.routes.register(bp)

users_admin_bp = Blueprint("accounts_admin", __name__, url_prefix="/bo/usuarios")
users_admin.routes.register(users_admin_bp)
