"""Rules API: the composed packs for the field app (ETag) and server-side evaluation."""
import json

from flask import Blueprint, jsonify, request
from werkzeug.routing import BaseConverter

from ...core.auth import api_auth
from ...core.compressed import send_compressed
from ...core.errors import ApiError, api_error_response
from ...core.openapi import ERROR, NoContent, api_doc
from ...core.schemas import MunicipalitySlugPathSchema
from ...core.tenancy import crossing_municipalities
from ...rules import RulesError, evaluate
from ...rules.errors import FactError, expected_of
from ..calendar.service import calendar_of
from ..registry.models import Municipality
from ..registry.scope import check_municipality_slug
from . import views
from .schemas import ComposedRulesSchema, EvaluateSchema, EvaluationSchema, RulesErrorSchema
from .service import composed_for

bp = Blueprint("rules_api", __name__, url_prefix="/api/v1/rules")


class RulesSlugConverter(BaseConverter):
    """A municipality slug, never the word "evaluate": /rules/evaluate is the POST below only, so
    OPTIONS and a 405's Allow advertise exactly the verbs served there (issue 20)."""
    regex = r"(?!evaluate$)[^/]+"


# Before the routes: the blueprint's deferred functions run in order at registration.
bp.record_once(lambda state: state.app.url_map.converters.setdefault("rules_slug", RulesSlugConverter))


@bp.get("/<rules_slug:slug>")
@api_auth("admin", "backoffice", "fiscal")
@api_doc(summary="Regras compostas do município (pacotes + configuração), com ETag",
         path=MunicipalitySlugPathSchema, responses={200: ComposedRulesSchema, 304: NoContent})
def composed(slug):
    muni = check_municipality_slug(slug)
    rules = composed_for(muni)
    # Compressed (≈97 KB of JSON → ≈18 KB): the packs are public law and the municipality's
    # settings, with no secret and nothing of the request echoed, so BREACH has nothing to read
    # (core/compressed.py). Encoded once per process and rules version (memo keyed by the ETag).
    body = jsonify(ComposedRulesSchema().dump(rules.to_json())).get_data()
    response = send_compressed(body, "application/json", digest=rules.etag.strip('"'))
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/evaluate")
@api_auth("admin", "backoffice", "fiscal")
@api_doc(summary="Avalia fatos com as regras do município", body=EvaluateSchema,
         responses={200: EvaluationSchema, 400: RulesErrorSchema, 404: ERROR})
def evaluate_facts(body):
    muni = check_municipality_slug(body["municipality"])
    try:
        return evaluate(composed_for(muni), body["date"], body["facts"], body["history"], calendar_of(muni))
    except RulesError as exc:
        return _rules_error(exc)


def _rules_error(exc):
    payload = exc.to_json()
    payload["error"].setdefault("fields", {})
    if payload["error"].get("fact"):
        payload["error"]["fields"] = {f"facts.{payload['error']['fact']}": [payload["error"]["message"]]}
    return payload, 400


@bp.errorhandler(ApiError)
def _non_finite_fact(exc):
    """NaN, Infinity and 1e400 never reach the view: the JSON door (core.http) refuses them. For a
    fact, say what the engine says of any impossible number: the fact, its type and range."""
    facts = [f[len("facts."):] for f in (exc.fields or {}) if f.startswith("facts.")]
    if exc.code != "invalid_number" or len(facts) != 1:
        return api_error_response(exc)
    try:
        slug = str(json.loads(request.get_data(as_text=True)).get("municipality"))
    except (ValueError, AttributeError):
        return api_error_response(exc)
    # Before the view, so before api_auth: only the law's declaration of the fact is read (the
    # packs are public), nothing of the municipality's registry.
    with crossing_municipalities("look-up: the law a municipality's slug names (the packs are public)"):
        muni = Municipality.query.filter_by(slug=slug).first()
    decl = composed_for(muni).facts.get(facts[0]) if muni is not None else None
    if decl is None:
        return api_error_response(exc)
    return RulesErrorSchema().dump(_rules_error(FactError(facts[0], "not_finite", expected_of(decl)))[0]), 400

bo_bp = Blueprint("rules_bo", __name__, url_prefix="/bo/regras")
views.routes.register(bo_bp)
