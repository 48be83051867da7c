"""The OpenAPI document: complete (every /api/v1 route), public and cacheable, and generated from
the schemas the views use (a view loads its body with the schema the document shows)."""
import re

from flask import Blueprint
from marshmallow import Schema, fields
from openapi_spec_validator import validate

from server import create_app
from server.core.openapi import ERROR, api_doc, api_rules, build_spec
from server.core.schemas import ErrorSchema


def _bare_app(tmp_path):
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "t",
                       "INSTANCE_DIR": str(tmp_path)})


def undocumented(app, spec):
    """(method, rule) of every /api/v1 route that the document does not describe."""
    missing = []
    for rule in api_rules(app):
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)  # /x/<int:id> → /x/{id}
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if method.lower() not in spec["paths"].get(path, {}):
                missing.append((method, rule.rule))
    return missing


def test_every_api_route_is_in_the_document(app, client):
    spec = client.get("/api/v1/openapi.json").json
    assert undocumented(app, spec) == []
    # And nothing else: the document describes routes that exist.
    assert len([(p, m) for p, item in spec["paths"].items() for m in item]) == sum(
        len(r.methods - {"HEAD", "OPTIONS"}) for r in api_rules(app))


def test_a_route_without_api_doc_is_reported(tmp_path):
    app = _bare_app(tmp_path)
    bp = Blueprint("stray", __name__, url_prefix="/api/v1/stray")

    @bp.post("/<int:item_id>/things")
    def things(item_id):
        return {}

    app.register_blueprint(bp)
    with app.app_context():
        assert undocumented(app, build_spec(app)) == [("POST", "/api/v1/stray/<int:item_id>/things")]


def test_document_is_valid_openapi_3(client):
    validate(client.get("/api/v1/openapi.json").json)  # raises on any violation of the OpenAPI 3 schema


def test_document_is_public_and_cacheable(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "public" in response.headers["Cache-Control"]
    assert response.json["openapi"].startswith("3.")
    again = client.get("/api/v1/openapi.json", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_document_shows_roles_errors_and_request_schemas(client):
    spec = client.get("/api/v1/openapi.json").json
    trust = spec["paths"]["/api/v1/trust/{slug}"]["get"]
    assert trust["security"] == [{"bearerAuth": []}]
    assert {"200", "304", "400", "401", "403", "404", "422"} <= set(trust["responses"])
    assert {p["name"]: p["in"] for p in trust["parameters"]} == {"slug": "path", "cursor": "query", "format": "query"}
    login = spec["paths"]["/api/v1/auth/token"]["post"]
    assert login["security"] == []
    assert login["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Login"}
    assert login["responses"]["401"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    error = spec["components"]["schemas"]["ErrorDetail"]
    assert set(error["required"]) == {"code", "message", "fields"}


def test_the_view_loads_with_the_documented_schema(tmp_path):
    """api_doc applies the contract it documents: the body schema refuses what it declares."""
    app = _bare_app(tmp_path)
    bp = Blueprint("probe", __name__, url_prefix="/api/v1/probe")

    class ProbeSchema(Schema):
        count = fields.Integer(required=True)

    class ProbeOutSchema(Schema):
        doubled = fields.Integer(required=True)

    @bp.post("")
    @api_doc(summary="probe", body=ProbeSchema, responses={200: ProbeOutSchema, 409: ERROR})
    def probe(body):
        return {"doubled": body["count"] * 2, "not_in_schema": "dropped"}

    app.register_blueprint(bp)
    client = app.test_client()
    assert client.post("/api/v1/probe", json={"count": 4}).json == {"doubled": 8}
    refused = client.post("/api/v1/probe", json={"count": "x", "extra": 1})
    assert refused.status_code == 422
    assert ErrorSchema().validate(refused.json) == {}
    assert set(refused.json["error"]["fields"]) == {"count", "extra"}
    with app.app_context():
        body = build_spec(app)["paths"]["/api/v1/probe"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Probe"}
