"""Schemathesis over every operation of GET /api/v1/openapi.json, against the app in-process
(WSGI, no network), once per kind of caller: admin, back office, fiscal with a device token,
operator, anonymous. Every answer: no 5xx, a documented status code and content type, a body
that matches its schema (error envelope included), invalid input refused with a 4xx.

Bounded and reproducible: a fixed number of examples per operation and Hypothesis derandomized,
so a CI run repeats what ran here (runtime in docs/architecture/api-contract.md).
"""
import io

import pytest
import schemathesis
from PIL import Image
from hypothesis import HealthCheck, assume, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from server.core.auth import utcnow
from server.modules.accounts.identity import issue_api_token
from server.extensions import db

from conftest import PG_URL
from helpers import DEMO_PASSWORD

ROLES = ["admin", "backoffice", "fiscal", "operator", "anonymous"]
# Every role on PostgreSQL (production's database, the stricter one: see tests/test_no_500.py); on
# SQLite the phone's, the operator's and the public API again, not the two back-office roles'
# (issue 23: expensive fuzzing scoped, not dropped).
FUZZED_ROLES = ROLES if PG_URL else ["fiscal", "operator", "anonymous"]
MAX_EXAMPLES = 30
# The positive-data check ("no schema-valid request rejected", issue 39) runs on every operation
# but these, whose acceptance depends on data no schema can state: a photo or attachment is
# addressed by the SHA-256 of its bytes (random bytes are refused 422), a rule evaluation names
# facts and infractions of the chosen municipality's packs, an activation a live first-access
# code. Everything else the document allows, the server accepts (2xx, or 404/409 by the data).
DATA_DEPENDENT = {("PUT", "/api/v1/sync/photos/{sha256}"), ("PUT", "/api/v1/operator/attachments/{sha256}"),
                  ("POST", "/api/v1/rules/evaluate"), ("POST", "/api/v1/operator/activate")}


def _jpeg():
    out = io.BytesIO()
    Image.new("RGB", (300, 400), (120, 90, 60)).save(out, "JPEG")
    return out.getvalue()


def _tokens(app):
    """A bearer token per role; the fiscal's is bound to an enrolled device, as on a phone."""
    from server.modules.accounts.models import Device, User
    from server.modules.operator_portal.operations import ensure_operator_user
    from server.modules.registry.models import Municipality, Permit
    from server.modules.registry.photos import store_operator_photo

    with app.app_context():
        sapezal = Municipality.query.filter_by(slug="sapezal").one()
        fiscal = User.query.filter_by(username="fiscal.sapezal").one()
        device = Device(municipality_id=sapezal.id, user_id=fiscal.id, name="Celular de teste", last_seen_at=utcnow())
        db.session.add(device)
        permit = Permit.query.filter_by(municipality_id=sapezal.id, status="ativo").order_by(Permit.id).first()
        store_operator_photo(permit.main_driver, _jpeg())  # so /operator/photo answers a JPEG
        users = {"admin": User.query.filter_by(username="admin").one(),
                 "backoffice": User.query.filter_by(username="backoffice.sapezal").one(),
                 "fiscal": fiscal, "operator": ensure_operator_user(permit.main_driver)}
        texts = {}
        for role, user in users.items():
            texts[role], _ = issue_api_token(user, device=device if role == "fiscal" else None)
        db.session.commit()
        return texts


@pytest.fixture
def api(app, demo):
    """The schema as the app serves it, plus a token per role."""
    app.config["OPENAPI_FUZZ_TOKENS"] = _tokens(app)
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api")


@pytest.fixture(params=FUZZED_ROLES)
def role(request):
    return request.param


def _fresh_token(app, role):
    from server.modules.accounts.models import User
    with app.app_context():
        token = issue_api_token(User.query.filter_by(
            username={"admin": "admin", "backoffice": "backoffice.sapezal", "fiscal": "fiscal.sapezal"}[role]).one()
            if role != "operator" else User.query.filter_by(role="operator").first())[0]
        db.session.commit()
        return token


@pytest.mark.usefixtures("role")  # parametrizes the whole run by caller (schemathesis hides the argument)
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_its_contract(case, role, app):
    # The in-process WSGI transport offers gzip like a browser but does not decode it; the
    # compressed answers are checked by tests/test_fieldsync_field_data.py (field data) and
    # tests/test_rules_api.py (rules).
    headers = {"Accept-Encoding": "identity"}
    if role != "anonymous":
        token = app.config["OPENAPI_FUZZ_TOKENS"][role]
        if case.method == "DELETE" and case.path == "/api/v1/auth/token":
            token = _fresh_token(app, role)  # logging out must not end the role's token for the rest of the run
        headers["Authorization"] = f"Bearer {token}"
    # schemathesis may add an extra query key whose value serializes to nothing (an empty list):
    # the request it sends is then valid, yet judged as a violation. Not an example of anything.
    assume(not any(value in ([], None) for value in (case.query or {}).values()))
    # Schema-valid is acceptable except where the data decides (DATA_DEPENDENT above; those
    # refusals are 4xx with the envelope, which the other checks still validate).
    excluded = [positive_data_acceptance] if (case.method.upper(), case.path) in DATA_DEPENDENT else []
    case.call_and_validate(headers=headers, excluded_checks=excluded)


@pytest.fixture
def full_demo(app):
    """The demo with issuer keys and crachás, so the trust data carries keys and entries."""
    from server.modules.demo.dataset import load_demo
    with app.app_context():
        load_demo(credentials=True)
        db.session.commit()  # as `flask demo load`'s command does


def test_success_answers_match_their_schemas(app, full_demo):
    """Fuzzing rarely guesses a password or a first-access code: walk each operation's happy path
    with real data and validate those answers against the document too (status asserted, so the
    test cannot pass on 4xx alone)."""
    from server.modules.operator_portal.operations import create_operator_access
    from server.modules.registry.models import Municipality, Permit

    api = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    tokens = _tokens(app)
    with app.app_context():
        sapezal = Municipality.query.filter_by(slug="sapezal").one()
        permit = Permit.query.filter_by(municipality_id=sapezal.id, status="ativo").order_by(Permit.id).first()
        code = create_operator_access(permit.main_driver)
        db.session.commit()

    def call(path, method, role=None, status=200, **kwargs):
        # The WSGI transport offers gzip and br but does not decode them (see above); the
        # compressed answers (field data, rules) are checked by their own tests.
        headers = {"Accept-Encoding": "identity"}
        if role:
            headers["Authorization"] = f"Bearer {tokens[role]}"
        headers.update(kwargs.pop("headers", {}))
        response = api[path][method].Case(headers=headers, **kwargs).call_and_validate()
        assert response.status_code == status, (path, method, response.status_code, response.text[:300])
        return response

    login = call("/api/v1/auth/token", "POST", body={"username": "fiscal.sapezal", "password": DEMO_PASSWORD,
                                                      "device_name": "Celular da fiscalização"})
    assert login.json()["device_id"] is not None and login.json()["expires_at"].endswith("+00:00")
    activated = call("/api/v1/operator/activate", "POST", body={"municipality": "sapezal", "code": code})
    tokens["operator"] = activated.json()["token"]
    assert call("/api/v1/operator/me", "GET", "operator").json()["credential_payload"]
    assert call("/api/v1/operator/photo", "GET", "operator").headers["content-type"] == ["image/jpeg"]
    assert {"sapezal", "paranatinga", "nortelandia"} <= {
        m["slug"] for m in call("/api/v1/operator/municipalities", "GET").json()}

    rules = call("/api/v1/rules/{slug}", "GET", "fiscal", path_parameters={"slug": "sapezal"})
    call("/api/v1/rules/{slug}", "GET", "fiscal", status=304, path_parameters={"slug": "sapezal"},
         headers={"If-None-Match": rules.headers["etag"][0]})
    infraction = next(i["id"] for p in rules.json()["packs"] for i in p.get("infractions", []))
    evaluation = call("/api/v1/rules/evaluate", "POST", "backoffice", body={
        "municipality": "sapezal", "date": "2024-05-10", "facts": {},
        "history": [{"infraction": infraction, "date": "2024-01-15"}]})
    assert evaluation.json()["municipality"] == "sapezal"
    call("/api/v1/rules/evaluate", "POST", "fiscal", status=400, body={
        "municipality": "sapezal", "date": "2024-05-10", "facts": {"no.such_fact": True}})

    trust = call("/api/v1/trust/{slug}", "GET", "fiscal", path_parameters={"slug": "sapezal"}, query={"cursor": 0})
    assert trust.json()["keys"] and trust.json()["entries"]
    call("/api/v1/trust/{slug}", "GET", "admin", status=304, path_parameters={"slug": "sapezal"},
         query={"cursor": 0}, headers={"If-None-Match": trust.headers["etag"][0]})
    call("/api/v1/trust/{slug}", "GET", "fiscal", status=422, path_parameters={"slug": "sapezal"},
         query={"cursor": 2**63})

    document = call("/api/v1/openapi.json", "GET")
    call("/api/v1/openapi.json", "GET", status=304, headers={"If-None-Match": document.headers["etag"][0]})
    assert call("/api/v1/auth/token", "DELETE", "backoffice").json() == {"revoked": True}
    call("/api/v1/auth/token", "DELETE", "backoffice", status=401)
