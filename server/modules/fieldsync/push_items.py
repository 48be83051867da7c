"""One item of a sync push read and checked for content: what it is, or why it is refused.

Refusal here is about the item alone (its shape, its JSON, what no column can hold); whose
record it is and how it sits in the device's chain are decided later, by the push (push.py).
"""
import json
from dataclasses import dataclass

from marshmallow import ValidationError

from ...core.errors import flatten_fields
from . import fastparse, quarantine
from .schemas import BODY_SCHEMAS, BodySchema, PushRecordSchema

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
        body = json.loads(item["body"])
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        raise Rejected({"body": ["JSON inválido."]}) from None
    if not isinstance(body, dict):
        raise Rejected({"body": ["O corpo deve ser um objeto JSON."]})
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
    unstorable = quarantine.unstorable_field(item["body"], body)
    if unstorable:
        raise Rejected({unstorable: [quarantine.UNSTORABLE]})
    return Item(index, item["id"], item["body"], item["signature"], parsed, body)


def rejected_answer(raw, fields):
    """The answer to a refused item: its id when it sent a readable one (as the database could
    hold it), the reasons per field."""
    rid = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
    return {"id": quarantine._storable(rid, 100) if rid else None, "status": "rejected",
            "errors": fields, "flags": [], "missing_photos": [], "received_at": None}
