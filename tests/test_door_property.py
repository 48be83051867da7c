"""Issue 39, strict at the door: records generated from the schema the OpenAPI document publishes
(components.schemas.<Kind>RecordBody), valid and near-valid (one field swapped for a hostile
value), pushed through the real sync API; then every page that shows them is opened — the review
page and its answers CSV, the queue and its CSV, the quarantine list and page, and for an auto,
once homologated, the public copy /a/<token>, its JSON and the operator's list — and none may
answer 5xx. What the push stores is what the pages can read.

Bounded (a fixed number of examples, derandomized): part of the normal suite.
"""
import json
import uuid
from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fieldsync_device import FakeDevice, b64url, sha256_hex
from helpers import login

MAX_EXAMPLES = 25
KINDS = {"inspection": "InspectionRecordBody", "auto": "AutoRecordBody", "cancel_request": "CancelRequestRecordBody",
         "vistoria": "VistoriaRecordBody"}
# Values that once broke a page somewhere (issue 39: an infraction id that is an object; lone
# surrogates, NUL and deep nesting in refused records), swapped in for one field of a valid body.
HOSTILE = [{"a": {"b": 1}}, [1, [2]], None, True, -1, 2**63, 1e308, "", "\ud800", "a\x00b", "x" * 5000,
           json.loads("[" * 40 + "]" * 40), {"id": {"x": 1}}, [{"id": {"x": 1}}], [None], "2026-13-45", {"": ""}]
TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=30)
FREE = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | TEXT,
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3), max_leaves=8)


def _strategy(schema, components, depth=0):
    """A Hypothesis strategy for the subset of JSON Schema apispec writes for these bodies."""
    if "$ref" in schema:
        return _strategy(components[schema["$ref"].rsplit("/", 1)[1]], components, depth)
    if "anyOf" in schema:
        return st.one_of([_strategy(s, components, depth) for s in schema["anyOf"]])
    strategy = _typed(schema, components, depth)
    return (st.none() | strategy) if schema.get("nullable") else strategy


def _typed(schema, components, depth):
    kind = schema.get("type")
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if kind == "object" and "properties" in schema:
        required = set(schema.get("required", []))
        props = schema["properties"]
        return st.fixed_dictionaries(
            {k: _strategy(v, components, depth + 1) for k, v in props.items() if k in required},
            optional={k: _strategy(v, components, depth + 1) for k, v in props.items() if k not in required})
    if kind == "object":
        values = _strategy(schema["additionalProperties"], components, depth + 1) \
            if isinstance(schema.get("additionalProperties"), dict) and schema["additionalProperties"] else FREE
        return st.dictionaries(TEXT.filter(bool), values, max_size=3)
    if kind == "array":
        return st.lists(_strategy(schema.get("items", {}), components, depth + 1),
                        max_size=min(schema.get("maxItems", 3), 3))
    if kind == "string":
        if schema.get("format") == "date-time":
            return st.datetimes(datetime(1971, 1, 1), datetime(2098, 1, 1), timezones=st.sampled_from(
                [timezone.utc, timezone(timedelta(hours=-4))])).map(lambda d: d.isoformat())
        if schema.get("format") == "date":
            return st.dates(date(2000, 1, 1), date(2099, 12, 31)).map(date.isoformat)
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True).filter(
                lambda s: schema.get("minLength", 0) <= len(s) <= schema.get("maxLength", 10**6))
        return st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"),
                       min_size=schema.get("minLength", 0), max_size=min(schema.get("maxLength", 40), 40))
    if kind == "integer":
        return st.integers(schema.get("minimum", -2**31), schema.get("maximum", 2**31 - 1))
    if kind == "number":
        return st.floats(schema.get("minimum", -1e6), schema.get("maximum", 1e6), allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    return FREE  # free-form (strict_fields.JsonValue): any JSON, bounded


@pytest.fixture
def door(app, client, demo):
    """The phone, the clerk, the published body schemas and the real ids they must carry."""
    from server.core.openapi import build_spec
    from server.modules.registry.models import Municipality, Permit
    with app.app_context():
        components = build_spec(app)["components"]["schemas"]
        sapezal = Municipality.query.filter_by(slug="sapezal").one()
        permit = Permit.query.filter_by(municipality_id=sapezal.id, status="ativo").order_by(Permit.id).first()
        operator_id, vehicle_id, permit_number = permit.main_driver.id, permit.vehicle_id, permit.number
    phone = FakeDevice(client, "fiscal.sapezal")
    clerk = app.test_client()
    login(clerk, "backoffice.sapezal")
    strategies = {kind: _strategy({"$ref": f"#/components/schemas/{name}"}, components) for kind, name in KINDS.items()}
    return {"phone": phone, "clerk": clerk, "strategies": strategies, "operator_id": operator_id,
            "vehicle_id": vehicle_id, "permit_number": permit_number, "autos": []}


def _valid(door, kind, body):
    """A generated body made this phone's next record (its chain fields) and naming real ids."""
    phone = door["phone"]
    base = phone.body(kind)
    body = {**body, **{k: base[k] for k in ("id", "kind", "device_id", "seq", "prev_hash")}}
    if body.get("operator_id") is not None or kind == "auto":
        body["operator_id"] = door["operator_id"]
    if kind == "vistoria":
        body.update(vehicle_id=door["vehicle_id"], permit_id=None, result="aprovada", return_on=None)
    if kind == "cancel_request" and door["autos"]:
        body["auto_id"] = door["autos"][-1]
    if kind == "auto":
        body["permit_number"] = door["permit_number"]
    return body


def _push(door, body):
    phone = door["phone"]
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: escaped in the body text, as JSON.stringify does
        text = json.dumps(body, separators=(",", ":"))
    phone.last_hash = sha256_hex(text)
    item = {"id": body["id"], "body": text, "signature": b64url(phone.key.sign(text.encode("utf-8")))}
    response = phone.client.post("/api/v1/sync/push", headers=phone.headers, json={"records": [item]})
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return response.json["results"][0]


def _no_5xx(client, path, **kwargs):
    response = client.get(path, **kwargs)
    assert response.status_code < 500, (path, response.status_code, response.get_data(as_text=True)[-800:])
    return response


def _homologate(app, record_id):
    """The clerk's decision, as the review page makes it (autos.operations.decide)."""
    from server.extensions import db
    from server.modules.accounts.models import User
    from server.modules.autos.models import AutoCase
    from server.modules.autos.operations import decide
    from server.core.errors import ApiError
    with app.test_request_context():
        case = AutoCase.query.filter_by(record_id=record_id).first()
        if case is None:
            return
        try:
            decide(case, "auto_homologate", "Fatos confirmados pelas fotos.",
                   actor=User.query.filter_by(username="backoffice.sapezal").one())
            db.session.commit()
        except ApiError:
            db.session.rollback()


def _operator_token(app, client, door):
    from server.extensions import db
    from server.modules.operator_portal.operations import create_operator_access
    from server.modules.registry.models import Operator
    with app.app_context():
        code = create_operator_access(db.session.get(Operator, door["operator_id"]))
        db.session.commit()
    response = client.post("/api/v1/operator/activate", json={"municipality": "sapezal", "code": code})
    assert response.status_code == 200, response.json
    return response.json["token"]


def _open_pages(app, door, body, result):
    from server.modules.fieldsync.models import RejectedRecord
    clerk = door["clerk"]
    if result["status"] == "accepted":
        _no_5xx(clerk, f"/bo/revisao/registros/{body['id']}")
        _no_5xx(clerk, f"/bo/revisao/registros/{body['id']}/respostas.csv")
        if body["kind"] == "auto":
            door["autos"].append(body["id"])
            _homologate(app, body["id"])
            _no_5xx(clerk, f"/bo/revisao/registros/{body['id']}")
            token = body["public_token"]
            _no_5xx(clerk, f"/a/{token}")
            _no_5xx(clerk, f"/api/v1/public/autos/{token}")
    else:
        with app.app_context():
            kept = RejectedRecord.query.order_by(RejectedRecord.id.desc()).first()
            kept_id = kept.id if kept else None
        if kept_id:
            _no_5xx(clerk, f"/bo/revisao/recusados/{kept_id}")


@pytest.mark.unswept("generated records: about their shape, not dates")
@pytest.mark.db
def test_generated_records_never_break_a_page(app, client, door):
    seen = {"accepted": 0, "refused": 0}

    @settings(max_examples=MAX_EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(kind=st.sampled_from(list(KINDS)), data=st.data(), hostile=st.none() | st.sampled_from(HOSTILE),
           which=st.integers(0, 100))
    def push_and_open(kind, data, hostile, which):
        body = _valid(door, kind, data.draw(door["strategies"][kind]))
        if hostile is not None:  # near-valid: one field, chosen among those it carries, swapped
            keys = sorted(body)
            body[keys[which % len(keys)]] = hostile
            if isinstance(body.get("infractions"), list) and body["infractions"] and which % 2:
                body["infractions"][0] = {**body["infractions"][0], "id": hostile} \
                    if isinstance(body["infractions"][0], dict) else hostile
        result = _push(door, body)
        seen["accepted" if result["status"] == "accepted" else "refused"] += 1
        _open_pages(app, door, body, result)

    push_and_open()
    clerk = door["clerk"]
    # The lists and exports that show every record pushed above.
    for path in ("/bo/revisao/", "/bo/revisao/?formato=csv", "/bo/revisao/recusados", "/bo/revisao/?cancelamento=1"):
        assert _no_5xx(clerk, path).status_code == 200
    operator = _operator_token(app, client, door)
    assert _no_5xx(client, "/api/v1/operator/autos", headers={"Authorization": f"Bearer {operator}"}).status_code == 200
    # Both sides were exercised: records stored and records refused.
    assert seen["accepted"] >= 3 and seen["refused"] >= 3, seen


def test_an_infraction_id_that_is_an_object_is_refused_at_the_door(client, demo):
    phone = FakeDevice(client, "fiscal.sapezal")
    number = phone.reserve(1)[0]
    bad = phone.auto(number, infractions=[{"id": {"x": 1}, "decision": "confirmed"}])
    deep = phone.record(phone.body("inspection", answers={"q": json.loads("[" * 20 + "]" * 20)}))
    stringly = phone.auto(number, infractions=[{"id": "sap.inf.um_passageiro", "amount_brl": "123.45"}])
    results = phone.push([bad, deep, stringly, phone.inspection()]).json["results"]
    assert [r["status"] for r in results] == ["rejected", "rejected", "rejected", "accepted"]
    assert list(results[0]["errors"]) == ["body.infractions.0.id"]
    assert list(results[1]["errors"]) == ["body"]
    assert list(results[2]["errors"]) == ["body.infractions.0.amount_brl"]


def test_a_null_item_is_judged_alone(client, demo):
    phone = FakeDevice(client, "fiscal.sapezal")
    response = phone.push([None, phone.inspection(), 7, "x"])
    assert response.status_code == 200, response.json
    results = response.json["results"]
    assert [r["status"] for r in results] == ["rejected", "accepted", "rejected", "rejected"]
    assert results[0]["id"] is None and results[0]["errors"]


def test_an_id_with_nul_is_echoed_as_sent(client, demo):
    phone = FakeDevice(client, "fiscal.sapezal")
    odd = "abc\x00" + str(uuid.uuid4())[4:]
    response = phone.push([{"id": odd, "body": "{}", "signature": "A" * 86}, phone.inspection()])
    assert response.status_code == 200, response.json
    assert [r["id"] for r in response.json["results"]][0] == odd
    assert [r["status"] for r in response.json["results"]] == ["rejected", "accepted"]


@pytest.mark.parametrize("text", ["surrogate", "deep"])
def test_a_quarantine_page_shows_any_refused_body(app, client, demo, text):
    """A refused body whose JSON decodes to a lone surrogate, or nests past the parser, is
    shown as stored: the page never fails on what it keeps."""
    from server.modules.fieldsync.models import RejectedRecord
    phone = FakeDevice(client, "fiscal.sapezal")
    body = phone.body("inspection")
    if text == "deep":
        raw = json.dumps(body)[:-1] + ',"x":' + "[" * 5000 + "]" * 5000 + "}"
    else:
        raw = json.dumps(body)[:-1] + ',"plate":"\\ud800","\\ud800":1}'
    phone.push([{"id": body["id"], "body": raw, "signature": "A" * 86}])
    clerk = app.test_client()
    login(clerk, "backoffice.sapezal")
    with app.app_context():
        kept = RejectedRecord.query.one()
    page = clerk.get(f"/bo/revisao/recusados/{kept.id}")
    assert page.status_code == 200
    assert body["id"] in page.get_data(as_text=True)
    assert clerk.get("/bo/revisao/recusados").status_code == 200



@pytest.mark.db
def test_a_cancellation_of_another_municipalitys_auto_is_refused_like_a_foreign_id(app, client, demo):
    from server.modules.fieldsync.models import FieldRecord, RejectedRecord
    theirs = FakeDevice(client, "fiscal.paranatinga")
    auto = theirs.auto(theirs.reserve(1)[0])
    assert theirs.push([auto]).json["results"][0]["status"] == "accepted"
    phone = FakeDevice(client, "fiscal.sapezal")
    foreign = phone.record(phone.body("cancel_request", auto_id=auto["id"], reason="Auto de outro município."))
    unknown = phone.record(phone.body("cancel_request", auto_id=str(uuid.uuid4()), reason="Auto que não existe."))
    own_auto = phone.auto(phone.reserve(1)[0])  # its cancellation in the same batch is this municipality's
    own = phone.record(phone.body("cancel_request", auto_id=own_auto["id"], reason="Placa anotada errada."))
    results = phone.push([foreign, unknown, own_auto, own]).json["results"]
    assert [r["status"] for r in results] == ["foreign", "foreign", "accepted", "accepted"]
    assert results[0] == {**results[0], "errors": {"body.auto_id": [results[0]["errors"]["body.auto_id"][0]]},
                          "received_at": None}
    assert "município" in results[0]["errors"]["body.auto_id"][0]
    later = phone.record(phone.body("cancel_request", auto_id=own_auto["id"], reason="Outro motivo, depois."))
    assert phone.push([later]).json["results"][0]["status"] == "accepted"
    with app.app_context():
        stored = {r.id for r in FieldRecord.query.filter_by(kind="cancel_request")}
        assert stored == {own["id"], later["id"]}
        kept = RejectedRecord.query.filter_by(record_id=foreign["id"]).one()
        assert kept.municipality_id == phone_municipality(app, "sapezal") and "body.auto_id" in kept.errors


def phone_municipality(app, slug):
    from server.modules.registry.models import Municipality
    return Municipality.query.filter_by(slug=slug).one().id


def test_a_null_or_nul_filing_is_judged_alone(app, client, demo):
    """The operator's filings push reads its items like the sync push: a null item or one holding
    a NUL is its own refusal, never the batch's 422 or 400."""
    from server.extensions import db
    from server.modules.operator_portal.operations import create_operator_access
    from server.modules.registry.models import Municipality, Permit
    with app.app_context():
        sapezal = Municipality.query.filter_by(slug="sapezal").one()
        code = create_operator_access(Permit.query.filter_by(municipality_id=sapezal.id, status="ativo")
                                      .order_by(Permit.id).first().main_driver)
        db.session.commit()
    token = client.post("/api/v1/operator/activate", json={"municipality": "sapezal", "code": code}).json["token"]
    response = client.post("/api/v1/operator/filings", headers={"Authorization": f"Bearer {token}"},
                           json={"records": [None, {"id": "a\x00b", "text": "x"}]})
    assert response.status_code == 200, response.json
    results = response.json["results"]
    assert [r["status"] for r in results] == ["rejected", "rejected"]
    assert results[1]["id"] == "a\x00b"
