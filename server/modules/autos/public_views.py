"""The auto as its operator sees it, read from the case and its process (public_auto.py):

  GET  /api/v1/operator/autos                the operator's autos held by the server
  GET  /a/<public_token>                     public page of an auto (pt-BR, minimal data)
  GET  /api/v1/public/autos/<public_token>   the auto as the server holds it (for the signed copy)

Autos' routes over fieldsync's records (autos sits above fieldsync); the signed copy page (/a/)
and the device keys it verifies with stay fieldsync's (fieldsync/views.py). Endpoints autos.*.
"""
from flask import current_app, g, render_template

from ...core.auth import api_auth
from ...core.errors import ApiError
from ...core.http import public_json
from ...core.openapi import ERROR, api_doc
from ...core.routes import RouteTable
from ...core.tenancy import crosses_municipalities
from ...extensions import limiter
from ..fieldsync.schemas import OperatorAutosResponseSchema, PublicAutoStatusSchema, PublicTokenPathSchema
from .public_auto import operator_autos, public_auto, public_auto_json

routes = RouteTable()


@routes.get("/api/v1/operator/autos")
@api_auth("operator")
@api_doc(summary="Autos de infração do operador recebidos pelo servidor", tags=["operator"],
         responses={200: OperatorAutosResponseSchema})
def my_autos():
    return {"autos": operator_autos(g.user)}


@routes.get("/a/<token>")
@limiter.limit("60 per minute")
@crosses_municipalities("public look-up: the auto's unguessable token names its municipality")
def public_page(token):
    auto = public_auto(token)
    response = current_app.make_response((render_template("autos/public_auto.html", auto=auto),
                                          200 if auto else 404))
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex"
    response.headers["Referrer-Policy"] = "no-referrer"  # the token is in the URL
    return response


@routes.get("/api/v1/public/autos/<token>")
@limiter.limit("60 per minute")
@api_doc(summary="Auto recebido pelo servidor, para a cópia do autuado", tags=["public"],
         path=PublicTokenPathSchema, responses={200: PublicAutoStatusSchema, 404: ERROR, 429: ERROR},
         description="Pelo token público do auto (o mesmo do endereço /a/<token>); 404 enquanto não recebido.")
@crosses_municipalities("public look-up: the auto's unguessable token names its municipality")
def public_auto_status(token):
    data = public_auto_json(token)
    if data is None:
        raise ApiError(404, "not_received", "Auto ainda não recebido pelo servidor.")
    return public_json(data, "no-store")
