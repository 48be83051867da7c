"""Fast path for the common, valid push item (schemas.py and record_bodies.py stay the single
source of truth).

The marshmallow schemas were 15–20 % of a batched push's CPU. `item` and `body` here accept only
a strict subset of what the schemas accept (exact JSON types, no coercion: an int where the
schema wants an int, a str where it wants a str) and return exactly what the schema's `load`
would return for it. Anything else, an error of any kind or merely an unusual type, returns
None and the caller runs the full schema, which reports every error with its field and pt-BR
reason as before. tests/test_fieldsync_fastparse.py compares both on valid and invalid bodies.
Only the field's two hot kinds have a fast path (inspection, auto); other kinds go to the schema.
"""
import math
from datetime import datetime

from ...core.validation import instant_in_range
from .record_bodies import INFRACTION_DECISIONS, MAX_AMOUNT_BRL, MAX_FACTS, MAX_PHOTOS, SHA256_RE, TOKEN_RE, UUID_RE
from .schemas import B64URL_RE, MAX_BODY_CHARS, MAX_SIGNATURE_CHARS
from .strict_fields import MAX_DEPTH, refusal

_ITEM_KEYS = frozenset(("id", "body", "signature"))
_MAX_INT32 = 2**31 - 1


class _Slow(Exception):
    """Not for the fast path: let the schema decide (and word the error)."""


def item(raw):
    """A push item {id, body, signature} → the same dict PushRecordSchema().load would give, or None."""
    if type(raw) is not dict or raw.keys() != _ITEM_KEYS:
        return None
    rid, body, signature = raw["id"], raw["body"], raw["signature"]
    if (type(rid) is not str or type(body) is not str or type(signature) is not str
            or not UUID_RE.match(rid) or not 2 <= len(body) <= MAX_BODY_CHARS or not B64URL_RE.match(signature)
            or len(signature) > MAX_SIGNATURE_CHARS):
        return None
    return {"id": rid, "body": body, "signature": signature}


def body(data):
    """A decoded record body (dict) → what the kind's body schema would load, or None."""
    kind = data.get("kind")
    handler = _KINDS.get(kind) if type(kind) is str else None
    if handler is None:
        return None
    try:
        out = dict(data)  # unknown keys are kept as sent (Meta.unknown = INCLUDE)
        _common(data, out)
        handler(data, out)
    except _Slow:
        return None
    return out


def _uuid(value):
    if type(value) is not str or not UUID_RE.match(value):
        raise _Slow
    return value


def _sha(value):
    if type(value) is not str or not SHA256_RE.match(value):
        raise _Slow
    return value


def _str_or_none(value, maximum):
    if value is not None and (type(value) is not str or len(value) > maximum):
        raise _Slow
    return value


def _free(data, key, nullable=True, kind=dict):
    """A free-form field (strict_fields.JsonValue/JsonObject): kept as sent when present and bounded."""
    if key not in data:
        return
    value = data[key]
    if value is None and nullable:
        return
    if (kind is not None and type(value) is not kind) or refusal(value, MAX_DEPTH):
        raise _Slow


def _int(value, low=None, high=None):
    if type(value) is not int or (low is not None and not low <= value <= high):
        raise _Slow
    return value


def _float(value, low, high):
    if type(value) not in (int, float) or not math.isfinite(value) or not low <= value <= high:
        raise _Slow
    return float(value)


def _aware(value):
    """AwareDateTime, format iso: datetime.fromisoformat, then it must carry an offset."""
    if type(value) is not str:
        raise _Slow
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise _Slow from None
    if parsed.tzinfo is None or parsed.utcoffset() is None or not instant_in_range(parsed):
        raise _Slow
    return parsed


def _sha_list(value):
    if type(value) is not list or len(value) > MAX_PHOTOS:
        raise _Slow
    return [_sha(h) for h in value]


def _by_fact(value, each):
    if type(value) is not dict or len(value) > MAX_FACTS:
        raise _Slow
    for key in value:
        if not 1 <= len(key) <= 200:
            raise _Slow
    return {key: each(item) for key, item in value.items()}


def _answer(value):
    if refusal(value, MAX_DEPTH):
        raise _Slow
    return value


def _common(data, out):
    """BodySchema: id, kind, device_id, seq, prev_hash, clock, gps, no_gps_reason, data_age_s, photos, operator_id."""
    if "id" not in data or "device_id" not in data or "seq" not in data or "prev_hash" not in data:
        raise _Slow
    _uuid(data["id"])
    _int(data["device_id"], 1, _MAX_INT32)
    seq = _int(data["seq"], 1, _MAX_INT32)
    prev = data["prev_hash"]
    if prev is not None:
        _sha(prev)
        if seq == 1:  # the schema's _first_has_no_prev error
            raise _Slow
    clock = data.get("clock")
    if type(clock) is not dict or "device_at" not in clock:
        raise _Slow
    out["clock"] = {**clock, "device_at": _aware(clock["device_at"]),
                    "gps_at": None if clock.get("gps_at") is None else _aware(clock["gps_at"])}
    gps = data.get("gps")
    if gps is not None:
        if type(gps) is not dict or "lat" not in gps or "lon" not in gps:
            raise _Slow
        accuracy = gps.get("accuracy_m")
        out["gps"] = {**gps, "lat": _float(gps["lat"], -90, 90), "lon": _float(gps["lon"], -180, 180),
                      "accuracy_m": None if accuracy is None else _float(accuracy, 0, math.inf)}
    else:
        out["gps"] = None
    out["no_gps_reason"] = _str_or_none(data.get("no_gps_reason"), 2000)
    age = data.get("data_age_s")
    out["data_age_s"] = None if age is None else _int(age, -_MAX_INT32, _MAX_INT32)
    out["photos"] = _sha_list(data["photos"]) if "photos" in data else []
    operator_id = data.get("operator_id")
    out["operator_id"] = None if operator_id is None else _int(operator_id, 1, _MAX_INT32)


def _inspection(data, out):
    out["permit_number"] = _str_or_none(data.get("permit_number"), 40)
    out["plate"] = _str_or_none(data.get("plate"), 20)
    out["answers"] = _by_fact(data["answers"], _answer) if "answers" in data else {}
    out["item_photos"] = _by_fact(data["item_photos"], _sha_list) if "item_photos" in data else {}
    for key in ("answer_how", "group_declarations", "not_applicable"):
        _free(data, key, kind=None)
    for key in ("evaluation", "decisions", "credential", "answer_sources"):
        _free(data, key)


def _auto(data, out):
    inspection_id = data.get("inspection_id")
    out["inspection_id"] = None if inspection_id is None else _uuid(inspection_id)
    number = data.get("number")
    if type(number) is not str or not 1 <= len(number) <= 40:
        raise _Slow
    for key, maximum in (("place", 2000), ("permit_number", 40), ("plate", 20), ("observations", 10000)):
        if key in data:
            _str_or_none(data[key], maximum)
    for key in ("checklist_how", "defence", "auto_fields", "auto_sources"):
        _free(data, key)
    if "infractions" in data:
        infractions = data["infractions"]
        if type(infractions) is not list or len(infractions) > 100:
            raise _Slow
        out["infractions"] = [_infraction(i) for i in infractions]
    else:
        out["infractions"] = []
    signatures = data.get("signatures")
    if type(signatures) is not dict or "fiscal" not in signatures:
        raise _Slow
    operator = signatures.get("operator")
    refused = signatures.get("operator_refused", False)
    if type(refused) is not bool:
        raise _Slow
    out["signatures"] = {**signatures, "fiscal": _sha(signatures["fiscal"]),
                         "operator": None if operator is None else _sha(operator), "operator_refused": refused}
    token = data.get("public_token")
    if type(token) is not str or not TOKEN_RE.match(token):
        raise _Slow


def _infraction(value):
    """record_bodies.AutoInfractionSchema, which loads a valid entry as sent (no defaults)."""
    if type(value) is not dict or type(value.get("id")) is not str or not 1 <= len(value["id"]) <= 100:
        raise _Slow
    for key, maximum in (("label_pt", 1000), ("removal_reason", 2000), ("jurisdiction", 40)):
        if key in value:
            _str_or_none(value[key], maximum)
    if "decision" in value and (type(value["decision"]) is not str or value["decision"] not in INFRACTION_DECISIONS):
        raise _Slow
    if "amount_brl" in value and value["amount_brl"] is not None:
        _float(value["amount_brl"], 0, MAX_AMOUNT_BRL)
    citation = value.get("citation")
    if citation is not None:
        if type(citation) is not dict or type(citation.get("law")) is not str or not 1 <= len(citation["law"]) <= 100:
            raise _Slow
        for key in ("art", "paragrafo", "inciso", "alinea"):
            if key in citation:
                _str_or_none(citation[key], 40)
    _free(value, "amount")
    for key, each in (("grounds", lambda g: type(g) is dict and not refusal(g, MAX_DEPTH)),
                      ("triggered_by", lambda t: type(t) is str and len(t) <= 200)):
        if key in value:
            items = value[key]
            if type(items) is not list or len(items) > MAX_FACTS or not all(each(i) for i in items):
                raise _Slow
    return value


_KINDS = {"inspection": _inspection, "auto": _auto}
