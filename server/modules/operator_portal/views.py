"""Thin handlers: parse → check access → operation → JSON."""
from flask import g

from ...core.auth import api_auth
from ...core.errors import ApiError
from ...core.openapi import ERROR, Binary, api_doc
from ...core.ratelimit import login_limits, refused_code
from ...core.tenancy import crosses_municipalities
from ...core.routes import RouteTable
from ..registry.models import Municipality
from ..registry.photos import operator_photo_response
from . import operations
from .schemas import ActivatedSchema, ActivateSchema, BadgeSchema, MunicipalityPublicSchema

routes = RouteTable()


@routes.get("/municipalities")
@api_doc(summary="Municípios atendidos (lista pública para o primeiro acesso)",
         responses={200: MunicipalityPublicSchema(many=True)})
@crosses_municipalities("public look-up: the names of the municipalities served (public by design)")
def municipalities():
    """Public list for the first-access form (names only)."""
    rows = Municipality.query.order_by(Municipality.name).all()
    return [{"slug": m.slug, "name": m.name, "uf": m.uf} for m in rows]


@routes.post("/activate")
# Per address and per (municipality, code), never per municipality: random codes sent by someone
# else must not lock an operator out of a first access with a valid one (operations.CODE_LENGTH:
# 76 bits), nor can someone who knows the code (issue 39: only a refused code counts on its pair).
@login_limits("code", "activation", normalize=operations.normalize_code, qualifier="municipality",
              account_failed=refused_code)
@api_doc(summary="Primeiro acesso do operador: código → token", body=ActivateSchema,
         responses={200: ActivatedSchema, 429: ERROR})
@crosses_municipalities("operator first access: the code names an account of the municipality chosen")
def activate(body):
    text, token = operations.activate(body["municipality"], body["code"])
    return {"token": text, "expires_at": token.expires_at}


@routes.get("/me")
@api_auth("operator")
@api_doc(summary="O crachá digital do operador", responses={200: BadgeSchema})
def me():
    return operations.badge_for(g.user)


@routes.get("/photo")
@api_auth("operator")
@api_doc(summary="A foto do operador (JPEG)", responses={200: Binary("image/jpeg"), 404: ERROR})
def photo():
    operator = g.user.operator
    response = operator_photo_response(operator, "private, no-store")
    if response is None:
        raise ApiError(404, "not_found")
    return response
