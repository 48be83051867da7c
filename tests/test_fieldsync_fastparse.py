"""fieldsync/fastparse.py against the marshmallow schemas it stands in front of: whenever the fast
path answers, the schema accepts the same input and loads exactly the same value; whatever the
schema refuses, the fast path leaves to the schema (which words the error)."""
import copy
import math
import uuid
from types import SimpleNamespace

import pytest
from marshmallow import ValidationError

from fieldsync_device import FakeDevice, sha256_hex

SHA = sha256_hex("x")
ODD_VALUES = [None, True, False, 0, 1, -1, 2**31, 1.5, math.nan, math.inf, "", "1", "abc", SHA, SHA.upper(),
              str(uuid.uuid4()), "2026-05-10T14:03:00-04:00", "2026-05-10T14:03:00", "2026-05-10", [], [SHA], ["x"],
              {}, {"a": 1}, {"lat": 1, "lon": 2}, {"device_at": "2026-05-10T14:03:00Z"}, "a" * 41,
              # issue 20: clocks outside 1970..2099 (year 0001/9999 with an offset overflow UTC), ids no
              # INTEGER column holds, a signature longer than its column
              "0001-01-01T00:00:00+05:00", "9999-12-31T23:00:00-04:00", "1969-12-31T23:59:59Z",
              "2100-01-01T00:00:00Z", 2**31 - 1, 2**63, "A" * 101]


def _bodies():
    phone = SimpleNamespace(device_id=7, seq=0, last_hash=None)
    first = FakeDevice.body(phone, "inspection", permit_number="SAP-001")
    phone.last_hash = SHA
    second = FakeDevice.body(phone, "inspection", answers={"q1": {"answer": "sim"}}, photos=[SHA],
                             item_photos={"q1": [SHA]}, operator_id=3, clock={"device_at": "2026-05-10T14:03:00Z",
                                                                                  "gps_at": "2026-05-10T14:02:00+00:00",
                                                                                  "source": "gps"})
    no_gps = FakeDevice.body(phone, "inspection", gps=None, no_gps_reason="sem sinal", data_age_s=None)
    auto = FakeDevice.body(phone, "auto", inspection_id=second["id"], number="SAP-2026-0001",
                           infractions=[{"id": "sap.inf.um_passageiro", "amount": {"value": 50}}],
                           signatures={"fiscal": SHA, "operator": None, "operator_refused": True},
                           public_token="A" * 43, defence={"deadline_days": 30})
    bare_auto = FakeDevice.body(phone, "auto", number="7", signatures={"fiscal": SHA}, public_token="b" * 32)
    for body in (auto, bare_auto):
        for key in ("data_age_s", "photos", "gps"):
            body.pop(key, None)
    return [first, second, no_gps, auto, bare_auto]


def _schema_load(body):
    from server.modules.fieldsync.record_bodies import BODY_SCHEMAS, BodySchema
    kind = body.get("kind")
    schema = BODY_SCHEMAS.get(kind, BodySchema) if isinstance(kind, str) else BodySchema
    return schema().load(copy.deepcopy(body))


def _same_or_left_to_schema(body):
    from server.modules.fieldsync import fastparse
    fast = fastparse.body(copy.deepcopy(body))
    if fast is None:
        return False
    assert fast == _schema_load(body), body  # a schema refusal raises here: the fast path accepted too much
    return True


def _variants(body):
    """Every top-level and nested field of `body` replaced by each odd value, then removed."""
    for key in list(body):
        for value in ODD_VALUES:
            yield {**body, key: value}
        yield {k: v for k, v in body.items() if k != key}
    for key in ("clock", "gps", "signatures"):
        if isinstance(body.get(key), dict):
            for sub in list(body[key]) + ["extra"]:
                for value in ODD_VALUES:
                    yield {**body, key: {**body[key], sub: value}}
                yield {**body, key: {k: v for k, v in body[key].items() if k != sub}}
    for key in ("photos", "infractions"):
        for value in ODD_VALUES:
            yield {**body, key: [value]}
    yield {**body, "item_photos": {"q": ["x"]}}
    # An auto's infraction field by field (issue 39: record_bodies.AutoInfractionSchema), and its citation.
    full = {"id": "sap.inf.x", "label_pt": "Texto", "citation": {"law": "L125", "art": "13", "inciso": None},
            "amount": {"value": 50, "unit": "UFM"}, "amount_brl": 12.5, "decision": "confirmed",
            "removal_reason": None, "grounds": [{"fact": "a", "value": 1}], "triggered_by": ["r"], "jurisdiction": "snt"}
    if body.get("kind") == "auto":
        yield {**body, "infractions": [full]}
        for sub in list(full) + ["extra"]:
            for value in ODD_VALUES + [[{"a": [[[[[[[[[1]]]]]]]]]}], [None], ["x" * 201], 10**13 + 1, "removed"]:
                yield {**body, "infractions": [{**full, sub: value}]}
            yield {**body, "infractions": [{k: v for k, v in full.items() if k != sub}]}
        for sub in ("law", "art", "paragrafo", "extra"):
            for value in ODD_VALUES:
                yield {**body, "infractions": [{**full, "citation": {**full["citation"], sub: value}}]}
    yield {**body, "kind": "vistoria"}
    yield {**body, "seq": 1, "prev_hash": SHA}


def test_valid_field_bodies_take_the_fast_path_and_load_like_the_schema():
    for body in _bodies():
        assert _same_or_left_to_schema(body), body


@pytest.mark.parametrize("index", range(5))
def test_any_odd_field_is_loaded_like_the_schema_or_left_to_it(index):
    body = _bodies()[index]
    left, fast = 0, 0
    for variant in _variants(body):
        try:
            _schema_load(variant)
            accepted = True
        except ValidationError:
            accepted = False
        took_fast = _same_or_left_to_schema(variant)
        assert accepted or not took_fast, variant
        fast, left = fast + took_fast, left + (not took_fast)
    assert fast and left  # both paths were exercised


def test_push_items_fast_path_matches_the_item_schema():
    from server.modules.fieldsync import fastparse
    from server.modules.fieldsync.schemas import PushRecordSchema
    rid = str(uuid.uuid4())
    good = {"id": rid, "body": '{"a":1}', "signature": "abc_-"}
    assert fastparse.item(dict(good)) == PushRecordSchema().load(dict(good))
    for key in good:
        for value in ODD_VALUES + ["{", "a" * (256 * 1024 + 1), "sig=", rid.upper()]:
            variant = {**good, key: value}
            fast = fastparse.item(variant)
            try:
                loaded = PushRecordSchema().load(variant)
            except ValidationError:
                assert fast is None, variant
            else:
                assert fast in (None, loaded), variant
    assert fastparse.item({**good, "extra": 1}) is None
    assert fastparse.item([good]) is None
