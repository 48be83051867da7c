"""URLs that name a municipality by its slug: it must be the caller's own (a global admin may name
any). Here, beside the Municipality model, so that core.auth needs no feature package."""
from flask import g

from ...core.auth import is_global_admin
from ...core.errors import ApiError
from .models import Municipality


def check_municipality_slug(slug):
    muni = Municipality.query.filter_by(slug=slug).first()
    user = g.get("user")
    if muni is None or user is None or (not is_global_admin(user) and user.municipality_id != muni.id):
        raise ApiError(404, "not_found")
    return muni
