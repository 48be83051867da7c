"""Rules API: the composed packs for the field app (ETag) and server-side evaluation."""
from flask import Blueprint, jsonify, request

from ...core.auth import api_auth, check_municipality_slug
from ...core.errors import ApiError
from ...core.http import json_body
from ...rules import RulesError, evaluate
from .service import composed_for

bp = Blueprint("rules_api", __name__, url_prefix="/api/v1/rules")


@bp.get("/<slug>")
@api_auth("admin", "backoffice", "fiscal")
def composed(slug):
    muni = check_municipality_slug(slug)
    rules = composed_for(muni)
    etag = rules.etag
    if request.headers.get("If-None-Match") == etag:
        return "", 304, {"ETag": etag}
    response = jsonify(rules.to_json())
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/evaluate")
@api_auth("admin", "backoffice", "fiscal")
def evaluate_facts():
    body = json_body()
    fields = {}
    for key, kind in (("municipality", str), ("date", str), ("facts", dict)):
        if not isinstance(body.get(key), kind):
            fields[key] = ["Campo obrigatório." if key not in body else "Formato inválido."]
    history = body.get("history", [])
    if not isinstance(history, list):
        fields["history"] = ["Informe uma lista."]
    if fields:
        raise ApiError(422, "validation_error", "Dados inválidos.", fields)
    muni = check_municipality_slug(body["municipality"])
    try:
        return evaluate(composed_for(muni), body["date"], body["facts"], history)
    except RulesError as exc:
        payload = exc.to_json()
        payload["error"].setdefault("fields", {})
        if payload["error"].get("fact"):
            payload["error"]["fields"] = {f"facts.{payload['error']['fact']}": [payload["error"]["message"]]}
        return jsonify(payload), 400
