"""OpenAPI 3 for /api/v1, generated from the marshmallow schemas the views really use.

A view states its contract once, with @api_doc. The decorator *applies* that contract: it loads
the JSON body, the query string and the path arguments with the declared schemas (a failure is
the usual 422 envelope) and dumps a dict or list returned by the view with the schema declared
for its status. The generator (build_spec) walks the URL map, so the document served at
GET /api/v1/openapi.json is exactly what the views accept and answer. How to document an
endpoint: docs/ARCHITECTURE.md ("API contract").

    @bp.post("/token")
    @api_doc(body=LoginSchema, responses={200: TokenSchema, 401: ERROR, 429: ERROR})
    def token(body): ...            # body is LoginSchema().load(request JSON)

Statuses every operation can answer are added by the generator (each with ErrorSchema):
400 always (malformed JSON, NUL characters), 401/403 for views behind core.auth.api_auth,
404 when the path has arguments, 413, 415 (a Content-Encoding other than gzip: core/request_encoding.py)
and 422 when there is a body, 422 for a query or path schema.
"""
import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from http import HTTPStatus

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, current_app, request
from marshmallow import INCLUDE, Schema, fields
from werkzeug.routing import IntegerConverter

from .http import json_body
from .schemas import ErrorSchema

API_PREFIX = "/api/v1"
ERROR = ErrorSchema
BEARER = "bearerAuth"


# Schemas the document lists under components.schemas though no operation refers to them
# directly (e.g. the signed record bodies, sent as JSON text inside POST /sync/push):
# {component name: Schema class}, filled by the module that owns them.
COMPONENT_SCHEMAS = {}


@dataclass(frozen=True)
class Binary:
    """A non-JSON response body, e.g. responses={200: Binary("image/jpeg")}."""
    media_type: str


class NoContent:
    """A response without a body (304, 204)."""


@dataclass
class ApiDoc:
    summary: str
    responses: dict
    body: object = None
    query: object = None
    path: object = None
    description: str = ""
    tags: tuple = ()
    extra_responses: dict = field(default_factory=dict)
    raw_body: tuple = ()  # media types of a non-JSON body the view reads itself (a photo's bytes)


def _instance(schema):
    return schema() if isinstance(schema, type) else schema


def _query_args(schema):
    """request.args as the schema expects it: lists for List fields, single values otherwise."""
    out = {}
    for key in request.args:
        declared = schema.fields.get(key)
        out[key] = request.args.getlist(key) if isinstance(declared, fields.List) else request.args[key]
    return out


def api_doc(*, summary, responses, body=None, query=None, path=None, description="", tags=(), raw_body=()):
    """Declare and apply an /api/v1 view's contract (see the module docstring).

    body/query/path: a marshmallow Schema class (or instance); the view receives the loaded data
    as the keyword arguments `body` and `query`, and path arguments already loaded by `path`.
    Unknown body fields and query keys are refused (422 naming them), as the document says.
    responses: {status: Schema class/instance | Schema(many=True) | ERROR | Binary(..) | NoContent}.
    raw_body: the media types of a body the view reads as bytes (documented as binary, not loaded).
    A view may still return a flask Response (files, 304, precomputed JSON): it is sent as is.
    """
    doc = ApiDoc(summary=summary, responses=dict(responses), body=body, query=query, path=path,
                 description=description, tags=tuple(tags), raw_body=tuple(raw_body))

    def decorator(view):
        @functools.wraps(view)
        def wrapped(*args, **kwargs):
            if path is not None:
                kwargs.update(_instance(path).load(kwargs))
            if query is not None:
                schema = _instance(query)
                kwargs["query"] = schema.load(_query_args(schema))
            if body is not None:
                kwargs["body"] = _instance(body).load(json_body())
            return _dump(doc, view(*args, **kwargs))

        wrapped.api_doc = doc
        return wrapped
    return decorator


def _dump(doc, rv):
    """Serialize a dict/list answer with the schema declared for its status."""
    status, headers = 200, None
    if isinstance(rv, tuple):
        rv, status, *rest = rv
        headers = rest[0] if rest else None
    if not isinstance(rv, (dict, list)):
        return rv if status == 200 and headers is None else (rv, status, headers or {})
    schema = doc.responses.get(status)
    if schema is None or schema in (NoContent,) or isinstance(schema, Binary):
        raise RuntimeError(f"{status} answered but not documented with a schema")
    body = _instance(schema).dump(rv)
    if isinstance(body, list):  # Flask turns only dicts into JSON by itself
        body = current_app.json.response(body)
    return (body, status, headers) if headers else (body, status)


# --- the document -------------------------------------------------------------------------------

def _openapi_path(rule):
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)


def _default_path_parameters(rule, doc):
    """Path arguments without a path schema: typed from their URL converters."""
    if doc.path is not None:
        return [{"in": "path", "schema": doc.path}]
    params = []
    for name, converter in rule._converters.items():
        kind = {"type": "integer"} if isinstance(converter, IntegerConverter) else {"type": "string"}
        params.append({"in": "path", "name": name, "required": True, "schema": kind})
    return params


def _response(status, schema):
    description = HTTPStatus(status).phrase
    if schema is NoContent:
        return {"description": description}
    if isinstance(schema, Binary):
        return {"description": description,
                "content": {schema.media_type: {"schema": {"type": "string", "format": "binary"}}}}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _operation(rule, view, doc, method, several):
    roles = getattr(view, "api_roles", None)  # set by core.auth.api_auth
    responses = {400: ERROR}
    if roles is not None:
        responses.update({401: ERROR, 403: ERROR})
    if rule.arguments:
        responses.update({404: ERROR})
    if doc.body is not None or doc.raw_body:
        responses.update({413: ERROR, 415: ERROR, 422: ERROR})  # 415: core/request_encoding.py
    if doc.query is not None or doc.path is not None:
        responses.update({422: ERROR})
    responses.update(doc.responses)
    operation = {
        "operationId": rule.endpoint.replace(".", "_") + (f"_{method.lower()}" if several else ""),
        "summary": doc.summary,
        "tags": list(doc.tags) or [rule.endpoint.split(".")[0]],
        "responses": {str(status): _response(status, schema) for status, schema in sorted(responses.items())},
        "security": [{BEARER: []}] if roles is not None else [],
    }
    description = doc.description
    if roles is not None:
        description = (description + "\n\n" if description else "") + (
            "Perfis: " + ", ".join(roles) if roles else "Qualquer perfil autenticado.")
    if description:
        operation["description"] = description
    parameters = _default_path_parameters(rule, doc) if rule.arguments else []
    if doc.query is not None:
        parameters.append({"in": "query", "schema": doc.query})
    if parameters:
        operation["parameters"] = parameters
    if doc.body is not None:
        operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": doc.body}}}
    elif doc.raw_body:
        operation["requestBody"] = {"required": True, "content": {
            media: {"schema": {"type": "string", "format": "binary"}} for media in doc.raw_body}}
    return operation


def api_rules(app):
    """Every URL rule under /api/v1 (what the document must describe)."""
    return [r for r in app.url_map.iter_rules() if r.rule.startswith(API_PREFIX + "/")]


def build_spec(app) -> dict:
    spec = APISpec(
        title="Motofiscal API", version="1", openapi_version="3.0.3",
        plugins=[MarshmallowPlugin()],
        info={"description": "API do Motofiscal para o aplicativo de campo e integrações. "
                             "Erros 4xx: {\"error\": {\"code\", \"message\", \"fields\"}}."},
    )
    spec.components.security_scheme(BEARER, {"type": "http", "scheme": "bearer"})
    for name, schema in sorted(COMPONENT_SCHEMAS.items()):
        spec.components.schema(name, schema=schema)
    for rule in sorted(api_rules(app), key=lambda r: (r.rule, r.endpoint)):
        view = app.view_functions[rule.endpoint]
        doc = getattr(view, "api_doc", None)
        if doc is None:
            continue  # tests/test_openapi.py fails on any undocumented /api/v1 route
        methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
        spec.path(path=_openapi_path(rule),
                  operations={m.lower(): _operation(rule, view, doc, m, len(methods) > 1) for m in methods})
    document = spec.to_dict()
    _no_nul_in_requests(document)
    return document


# A NUL is refused in any text of a request (core/security.py: PostgreSQL text cannot hold it): the
# document says so on every request string that has no pattern of its own (issue 39: a request
# the document allowed was refused 400).
NO_NUL = "^[^\\x00]*$"


def _no_nul_in_requests(document):
    components = document.get("components", {}).get("schemas", {})
    pending, seen = [], set()
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            pending.extend([body.get("schema")] + [p.get("schema") for p in operation.get("parameters", [])])
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending.extend(node)
            continue
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            pending.append(components.get(ref.rsplit("/", 1)[1]))
        if node.get("type") == "string" and not {"pattern", "enum", "format"} & node.keys():
            node["pattern"] = NO_NUL
        pending.extend(value for key, value in node.items() if key not in ("enum", "default", "example"))


# --- GET /api/v1/openapi.json -------------------------------------------------------------------

bp = Blueprint("openapi", __name__, url_prefix=API_PREFIX)


class OpenApiDocumentSchema(Schema):
    class Meta:
        unknown = INCLUDE

    openapi = fields.String(required=True)
    info = fields.Dict(required=True)
    paths = fields.Dict(required=True)
    components = fields.Dict(required=True)


def _document():
    """Built once per app (the URL map does not change after start-up); bytes and strong ETag."""
    cached = current_app.extensions.get("openapi_document")
    if cached is None:
        body = json.dumps(build_spec(current_app), ensure_ascii=False, sort_keys=True).encode()
        cached = (body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
        current_app.extensions["openapi_document"] = cached
    return cached


@bp.get("/openapi.json")
@api_doc(summary="Este documento (OpenAPI 3)", tags=["openapi"],
         responses={200: OpenApiDocumentSchema, 304: NoContent})
def openapi_json():
    body, etag = _document()
    response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(etag.strip('"'))
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response.make_conditional(request)
