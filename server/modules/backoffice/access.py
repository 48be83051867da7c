"""Access for back-office views: staff roles only, always inside one municipality."""
import functools

from flask import redirect, url_for

from ...core.auth import STAFF_ROLES, current_municipality_id, login_required
from ...extensions import db
from ..registry.models import Municipality


def staff_view(view):
    """Anonymous → login; fiscal/operator → 403; platform admin without a municipality → chooser."""
    @login_required(*STAFF_ROLES)
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if current_municipality_id() is None:
            return redirect(url_for("backoffice.choose_municipality"))
        return view(*args, **kwargs)
    return wrapped


def municipality():
    """The Municipality row the current staff user works on."""
    return db.session.get(Municipality, current_municipality_id())
