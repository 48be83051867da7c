"""One item of a sync push read and checked for content: what it is, or why it is refused.

Refusal here is about the item alone (its shape, its JSON, what no column can hold); whose
record it is and how it sits in the device's chain are decided later, by the push (push.py).
"""
import json
from dataclasses import dataclass

from marshmallow import ValidationError

from ...core.errors import flatten_fields
from . import fastparse, quarantine
from .record_bodies import BODY_SCHEMAS, BodySchema
from .schemas import PushRecordSchema
from .strict_fields import MAX_BODY_DEPTH, depth

# Schema instances are reused: building one per record cost a third of the push time
# (marshmallow deep-copies its fields); load() keeps no state on the instance.
_ITEM_SCHEMA = PushRecordSchema()
_BODY_SCHEMAS = {kind: schema() for kind, schema in BODY_SCHEMAS.items()}
_BASE_BODY_SCHEMA = BodySchema()


@dataclass(slots=True)
class Item:
    """A pushed item that passed parsing."""
    index: int      # its place in the batch as sent: its answer goes there
    id: str         # the client UUID, the record's primary key
    body: str       # the body text exactly as signed (hashed, verified, stored)
    signature: str
    parsed: dict    # the body as its schema loaded it (typed: datetimes, ints)
    sent: dict      # the body as sent (plain JSON), what the kinds' handlers and the dashboard read


class Rejected(Exception):
    """The item is refused for its content: {field: [reasons]} for its answer and the quarantine."""

    def __init__(self, fields):
        super().__init__("rejected")
        self.fields = fields


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")  # NaN, Infinity: Python reads them, JSON has none


def parse_item(index, raw):
    """raw push item → Item. Raises Rejected."""
    item = fastparse.item(raw)
    if item is None:
        try:
            item = _ITEM_SCHEMA.load(raw)
        except ValidationError as err:
            raise Rejected(flatten_fields(err.messages)) from None
    if quarantine._bad_text(item["body"]):
        raise Rejected({"body": [quarantine.UNSTORABLE]})
    try:
        body = json.loads(item["body"], parse_constant=_no_constant)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        raise Rejected({"body": ["JSON inválido."]}) from None
    if not isinstance(body, dict):
        raise Rejected({"body": ["O corpo deve ser um objeto JSON."]})
    if depth(body, MAX_BODY_DEPTH) > MAX_BODY_DEPTH:
        raise Rejected({"body": [f"Corpo aninhado além de {MAX_BODY_DEPTH} níveis."]})
    # Before the schema: its messages name the body's own keys, which must be storable text.
    unstorable = quarantine.unstorable_field(item["body"], body)
    if unstorable:
        raise Rejected({unstorable: [quarantine.UNSTORABLE]})
    parsed = fastparse.body(body)  # the common valid body; None → the schema decides and words the errors
    if parsed is None:
        kind = body.get("kind")
        schema = _BODY_SCHEMAS.get(kind, _BASE_BODY_SCHEMA) if isinstance(kind, str) else _BASE_BODY_SCHEMA
        try:
            parsed = schema.load(body)
        except ValidationError as err:
            raise Rejected({f"body.{k}": v for k, v in flatten_fields(err.messages).items()}) from None
    if parsed["id"] != item["id"]:
        raise Rejected({"body.id": ["Diferente do id do registro."]})
    return Item(index, item["id"], item["body"], item["signature"], parsed, body)


# An id longer than any the phone makes is answered null: nobody's outbox holds it.
MAX_ECHOED_ID = 100


def rejected_answer(raw, fields):
    """The answer to a refused item: its id exactly as sent (a NUL or a lone surrogate included:
    the answer is JSON, which escapes them, and the phone matches its record by that id) when it
    sent a text id, the reasons per field."""
    rid = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
    return {"id": rid if rid and len(rid) <= MAX_ECHOED_ID else None, "status": "rejected",
            "errors": fields, "flags": [], "missing_photos": [], "received_at": None}
