"""Rules API: the composed packs for the field app (ETag) and server-side evaluation."""
from flask import Blueprint, jsonify, request

from ...core.auth import api_auth, check_municipality_slug
from ...core.openapi import ERROR, NoContent, api_doc
from ...core.schemas import MunicipalitySlugPathSchema
from ...rules import RulesError, evaluate
from .schemas import ComposedRulesSchema, EvaluateSchema, EvaluationSchema, RulesErrorSchema
from .service import composed_for

bp = Blueprint("rules_api", __name__, url_prefix="/api/v1/rules")


@bp.get("/<slug>")
@api_auth("admin", "backoffice", "fiscal")
@api_doc(summary="Regras compostas do município (pacotes + configuração), com ETag",
         path=MunicipalitySlugPathSchema, responses={200: ComposedRulesSchema, 304: NoContent})
def composed(slug):
    muni = check_municipality_slug(slug)
    rules = composed_for(muni)
    etag = rules.etag
    if request.headers.get("If-None-Match") == etag:
        return "", 304, {"ETag": etag}
    response = jsonify(ComposedRulesSchema().dump(rules.to_json()))
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/evaluate")
@api_auth("admin", "backoffice", "fiscal")
@api_doc(summary="Avalia fatos com as regras do município", body=EvaluateSchema,
         responses={200: EvaluationSchema, 400: RulesErrorSchema, 404: ERROR})
def evaluate_facts(body):
    muni = check_municipality_slug(body["municipality"])
    try:
        return evaluate(composed_for(muni), body["date"], body["facts"], body["history"])
    except RulesError as exc:
        payload = exc.to_json()
        payload["error"].setdefault("fields", {})
        if payload["error"].get("fact"):
            payload["error"]["fields"] = {f"facts.{payload['error']['fact']}": [payload["error"]["message"]]}
        return payload, 400
