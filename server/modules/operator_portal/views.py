"""Thin handlers: parse → check access → operation → JSON."""
from flask import g, send_from_directory

from ...core.auth import api_auth
from ...core.clock import isoformat_utc
from ...core.errors import ApiError
from ...core.http import json_body
from ...core.ratelimit import login_limits
from ..registry.models import Municipality
from ..registry.photos import photos_root
from . import operations
from .blueprint import bp
from .schemas import ActivateSchema


@bp.get("/municipalities")
def municipalities():
    """Public list for the first-access form (names only)."""
    rows = Municipality.query.order_by(Municipality.name).all()
    return [{"slug": m.slug, "name": m.name, "uf": m.uf} for m in rows]


@bp.post("/activate")
@login_limits("municipality", "activation")
def activate():
    data = ActivateSchema().load(json_body())
    text, token = operations.activate(data["municipality"], data["code"])
    return {"token": text, "expires_at": isoformat_utc(token.expires_at)}


@bp.get("/me")
@api_auth("operator")
def me():
    return operations.badge_for(g.user)


@bp.get("/photo")
@api_auth("operator")
def photo():
    operator = g.user.operator
    if operator is None or not operator.photo_path:
        raise ApiError(404, "not_found")
    response = send_from_directory(photos_root(), operator.photo_path)
    response.headers["Cache-Control"] = "private, no-store"
    return response
