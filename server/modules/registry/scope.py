"""Which municipality a request works on, beside the Municipality model so that core.auth needs no
feature package: staff views always inside one municipality, and URLs that name one by slug (the
caller's own; a global admin may name any)."""
import functools

from flask import g, redirect, url_for

from ...core.auth import STAFF_ROLES, current_municipality_id, is_global_admin, login_required
from ...core.errors import ApiError
from ...core.tenancy import crossing_municipalities, use_municipality
from ...extensions import db
from .models import Municipality


def staff_view(view):
    """Back-office views. Anonymous → login; fiscal/operator → 403; platform admin without a
    municipality → chooser."""
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


def check_municipality_slug(slug):
    # The slug may name another municipality than the scope's (the check below answers 404 then);
    # a platform administrator reads the one it names.
    with crossing_municipalities("look-up: a slug names a municipality, checked against the user below"):
        muni = Municipality.query.filter_by(slug=slug).first()
    user = g.get("user")
    if muni is None or user is None or (not is_global_admin(user) and user.municipality_id != muni.id):
        raise ApiError(404, "not_found")
    if is_global_admin(user):
        use_municipality(muni.id, platform=True)  # the platform administrator reads the one named
    return muni
