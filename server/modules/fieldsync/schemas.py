"""Marshmallow schemas of the field sync API: every request body and every response. The signed
record bodies the push carries as JSON text (components.schemas "<Kind>RecordBody") are
record_bodies.py's.
"""
import re

from marshmallow import Schema, ValidationError, fields, validate

from ...core.auth import MAX_ID
from ...core.openapi import COMPONENT_SCHEMAS
# The identifier patterns and their messages are the record bodies'; the requests here and the
# features above (autos) read them from this module too.
from .record_bodies import SHA256_MESSAGE, SHA256_RE, TOKEN_RE, UUID_MESSAGE, UUID_RE
from .strict_fields import MAX_BODY_DEPTH

B64URL_RE = re.compile(r"^[A-Za-z0-9_-]+$")

MAX_BATCH = 100
MAX_BODY_CHARS = 256 * 1024
# field_record.signature is VARCHAR(100); an Ed25519 signature in base64url is 86 characters.
MAX_SIGNATURE_CHARS = 100


# --- requests ---------------------------------------------------------------------------------

class DeviceKeySchema(Schema):
    algorithm = fields.String(required=True, validate=validate.OneOf(["Ed25519"], error="Use Ed25519."))
    # 32 raw bytes in base64url without padding are exactly 43 characters (issue 20: the contract
    # said any base64url text, the server took only these).
    public_key = fields.String(required=True, validate=[
        validate.Regexp(B64URL_RE, error="Chave em base64url sem preenchimento."),
        validate.Length(equal=43, error="Chave Ed25519: 43 caracteres base64url (32 bytes).")])


class NumberRequestSchema(Schema):
    count = fields.Integer(load_default=20, validate=validate.Range(1, 100, error="Entre 1 e 100."))


class VoidNumberSchema(Schema):
    number = fields.String(required=True, validate=validate.Length(1, 40))
    reason = fields.String(required=True, validate=validate.Length(3, 500, error="Informe o motivo (3 a 500 caracteres)."))


BODY_DOC = (f"O registro assinado, texto JSON de um objeto <Tipo>RecordBody (components.schemas): UTF-8 válido, "
            f"sem NUL, até {MAX_BODY_DEPTH} níveis de aninhamento.")


class PushRecordSchema(Schema):
    id = fields.String(required=True, validate=validate.Regexp(UUID_RE, error=UUID_MESSAGE))
    body = fields.String(required=True, validate=validate.Length(2, MAX_BODY_CHARS,
                                                                 error="Corpo vazio ou grande demais."),
                         metadata={"description": BODY_DOC, "contentMediaType": "application/json"})
    signature = fields.String(required=True, validate=[
        validate.Regexp(B64URL_RE, error="Assinatura em base64url sem preenchimento."),
        validate.Length(max=MAX_SIGNATURE_CHARS, error=f"Assinatura longa demais (até {MAX_SIGNATURE_CHARS} caracteres).")])


class PushSchema(Schema):
    # Any JSON per item, null included: each item is judged alone (push_items.py), never the batch.
    records = fields.List(fields.Raw(allow_none=True), required=True, validate=validate.Length(
        1, MAX_BATCH, error=f"Envie de 1 a {MAX_BATCH} registros."))


# What one item of a push must be to be stored (id, body and signature lengths and patterns). The
# push's `records` stays a list of anything on purpose: each item is judged alone and a bad one is
# answered `rejected` in its result while the rest of the batch is stored (issue 20).
COMPONENT_SCHEMAS["PushRecord"] = PushRecordSchema


class PhotoPathSchema(Schema):
    sha256 = fields.String(required=True, validate=validate.Regexp(SHA256_RE, error=SHA256_MESSAGE), metadata={
        "example": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"})


class OperatorPhotoPathSchema(Schema):
    operator_id = fields.Integer(required=True, metadata={"example": 1})


PHOTO_PACK_MAX = 200


def _ids_fit(text):
    """Every id a 32-bit integer, as every id of the database (core.auth.MAX_ID)."""
    if any(i.isdigit() and int(i) > MAX_ID for i in text.split(",")):
        raise ValidationError(f"Id de operador acima de {MAX_ID}.")


class PhotoPackQuerySchema(Schema):
    ids = fields.String(required=True, validate=[
        # At most PHOTO_PACK_MAX ids of at most 9 digits (every one an INTEGER id): the pattern says
        # all the view checks, so no request the document allows is refused (issue 39).
        validate.Regexp(rf"^[1-9][0-9]{{0,8}}(,[1-9][0-9]{{0,8}}){{0,{PHOTO_PACK_MAX - 1}}}$",
                        error=f"Até {PHOTO_PACK_MAX} ids de operador (até 9 dígitos) separados por vírgula."),
        validate.Length(max=PHOTO_PACK_MAX * 11, error=f"No máximo {PHOTO_PACK_MAX} ids."), _ids_fit],
        metadata={"description": f"Ids de operador separados por vírgula (no máximo {PHOTO_PACK_MAX}).",
                  "example": "1,2"})


class FieldDataQuerySchema(Schema):
    cursor = fields.Integer(load_default=0, validate=validate.Range(0, 2**62, error="Deve ser ≥ 0."))
    # packed: the field app's (docs/sync-api.md); columns: phones on an older shell; rows: readable.
    format = fields.String(load_default="rows", validate=validate.OneOf(
        ["rows", "columns", "packed", "packed2"], error="Use rows, columns, packed ou packed2."))


# --- responses --------------------------------------------------------------------------------

class DeviceKeyResponseSchema(Schema):
    device_id = fields.Integer()
    key_fingerprint = fields.String()


class NumberBlockResponseSchema(Schema):
    block_id = fields.Integer()
    numbers = fields.List(fields.String())


class VoidResponseSchema(Schema):
    number = fields.String(required=True)
    status = fields.String(required=True)
    void_reason = fields.String(allow_none=True)


class NumberStatusSchema(Schema):
    number = fields.String()
    status = fields.String()
    block_id = fields.Integer()
    record_id = fields.String(allow_none=True)
    void_reason = fields.String(allow_none=True)


class NumbersListResponseSchema(Schema):
    numbers = fields.List(fields.Nested(NumberStatusSchema))


class PushResultSchema(Schema):
    id = fields.String(allow_none=True)  # null when a rejected item had no usable id
    # accepted | duplicate | conflict | rejected | foreign (docs/sync-api.md)
    status = fields.String()
    errors = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))
    flags = fields.List(fields.String())
    missing_photos = fields.List(fields.String())
    received_at = fields.String(allow_none=True)


class PushResponseSchema(Schema):
    results = fields.List(fields.Nested(PushResultSchema))


class PhotoResponseSchema(Schema):
    sha256 = fields.String()
    size = fields.Integer()
    created = fields.Boolean()


class OperatorAutoSchema(Schema):
    id = fields.String()
    number = fields.String(allow_none=True)
    issued_at = fields.String(allow_none=True)
    received_at = fields.String()
    plate = fields.String(allow_none=True)
    permit_number = fields.String(allow_none=True)
    infractions = fields.List(fields.Dict())
    defence = fields.Dict(allow_none=True)
    public_url = fields.String(allow_none=True)
    cancel_requested = fields.Boolean()
    # {state, state_pt, notification: {number, issued_on, served_on} | null,
    #  deadlines: [{label_pt, days, text_pt, citation_pt, instance_pt, due_on}],
    #  filings: [{protocol, received_at, label_pt, timeliness_pt, decision…}], filing: {open, label_pt, due_on…}}
    process = fields.Dict()
    # Added by the features above autos (autos.signals.operator_auto_sections, issue 37): the PIX
    # slip of each fine (collection) and the notices sent about this auto (notices).
    payment = fields.Dict(allow_none=True)
    notices = fields.List(fields.Dict(), allow_none=True)


class OperatorAutosResponseSchema(Schema):
    autos = fields.List(fields.Nested(OperatorAutoSchema))


# The field data's rows, column by column (field_data.py *_rows: only what the phone reads).
_S, _I, _D = {"type": "string"}, {"type": "integer"}, {"type": "string", "format": "date"}
FIELD_ROWS = {
    "permits": {"id": _I, "number": _S, "status": _S, "issued_on": _D, "valid_until": _D, "holder_operator_id": _I,
                "holder_company": _S, "vehicle_id": _I, "ponto_id": _I, "driver_ids": {"type": "array", "items": _I},
                # Requirements the imported permit is recorded in transition for (registry.transition_models).
                "transitions": {"type": "array", "items": {
                    "type": "object", "properties": {"r": _S, "l": _S, "u": _D, "t": _S}, "required": ["r", "t"],
                    "additionalProperties": False}}},
    "operators": {"id": _I, "name": _S, "photo": {"type": "integer", "enum": [1]}, "cnh_category": _S,
                  "cnh_first_issue_date": _D, "birth_date": _D, "residence_since": _D, "disqualified_on": _D,
                  "disqualified_basis": _S, "rehabilitation_course_on": _D},
    "vehicles": {"id": _I, "plate": _S, "make": _S, "model": _S, "year_manufacture": _I, "engine_cc": _I,
                 "plate_category": _S, "vistoria_until": _D, "vistoria_on": _D,
                 "vistoria_result": {"type": "string", "enum": ["aprovada", "reprovada", "em_revisao"]},
                 "insurance_until": _D},
    "pontos": {"id": _I, "name": _S},
    "penalties": {"id": _I, "operator_id": _I, "permit_id": _I, "infraction_id": _S, "penalty": _S,
                  "committed_on": _D, "applied_on": _D, "cancelled": {"type": "boolean"}, "auto_record_id": _I},
}
_INTS = {"type": "array", "items": {"type": "integer", "nullable": True}}


def _closed(**properties):
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


# One column of format=columns or packed (field_codec.py): plain values, or one encoding.
_COLUMN = {"oneOf": [
    {"type": "array", "items": {}, "description": "plain: values, null where a row has none"},
    _closed(delta=_INTS),
    _closed(dict={"type": "array", "items": {}}, codes=_INTS),
    _closed(base=_I, width=_I, days={"type": "string", "pattern": "^[0-9-]*$"}),
    _closed(words={"type": "array", "items": _S},
            codes={"type": "array", "items": {"type": "array", "items": _I, "nullable": True}}),
    _closed(width=_I, text=_S),
    _closed(serial=_closed(delta=_INTS), width=_closed(dict={"type": "array", "items": _I}, codes=_INTS),
            suffix=_closed(dict={"type": "array", "items": _S}, codes=_INTS)),
    # packed2 only: dict codes as characters, plates split in letters and digits, base-62 days
    _closed(dict={"type": "array", "items": {}}, text={"type": "string", "pattern": "^[0-9A-Za-z-]*$"}),
    _closed(shape={"oneOf": [_closed(dict={"type": "array", "items": _S}, text=_S),
                             _closed(dict={"type": "array", "items": _S}, codes=_INTS)]},
            letters={"type": "string", "pattern": "^[A-Z]*$"}, digits={"type": "string", "pattern": "^[0-9]*$"}),
    _closed(base=_I, width=_I, b62={"type": "string", "pattern": "^[0-9A-Za-z-]*$"}),
]}


def _table(kind):
    return fields.Raw(metadata={"oneOf": [
        {"type": "array", "description": "format=rows (null values and empty lists left out)",
         "items": {"type": "object", "properties": FIELD_ROWS[kind], "required": ["id"], "additionalProperties": False}},
        {"type": "object", "description": "format=columns or packed: {column: column}",
         "properties": {name: _COLUMN for name in FIELD_ROWS[kind]}, "additionalProperties": False},
    ]})


class FieldDataResponseSchema(Schema):
    cursor = fields.Integer()
    snapshot = fields.Boolean()
    generated_at = fields.String(allow_none=True)
    municipality = fields.Dict()
    format = fields.String(validate=validate.OneOf(["rows", "columns", "packed", "packed2"]))
    permits = _table("permits")
    operators = _table("operators")
    vehicles = _table("vehicles")
    pontos = _table("pontos")
    penalties = _table("penalties")
    removed = fields.Dict(keys=fields.String(), values=fields.List(fields.Integer()))
    rules = fields.Dict(allow_none=True)  # always null with format=packed: GET /api/v1/rules/<slug>
    rules_etag = fields.String()
    photo_url = fields.String()  # "/api/v1/field/photos/{id}" for operators with photo: 1
    tariff = fields.Dict(allow_none=True)  # tariff table in force: act, validity, items, basis
    calendar = fields.Dict(allow_none=True)  # legal calendar: holidays (shared data), state, municipal closures
    photo_size = fields.Dict()  # evidence photos: {"long_edge": px, "quality": 0–1} (photo_size.py)
    # The act integrating the municipality into the SNT, null when none: then a CTB infraction is
    # communicated to the traffic authority, never confirmed into the municipal auto (autos).
    traffic_authority_act = fields.String(allow_none=True)


class DeviceKeyEntrySchema(Schema):
    device_id = fields.Integer()
    algorithm = fields.String()
    public_key = fields.String()  # base64url of the raw 32-byte Ed25519 key, as the device sent it
    status = fields.String()  # active | revoked


class PublicDeviceKeysSchema(Schema):
    municipality = fields.Dict()  # {ibge, name, uf}
    keys = fields.List(fields.Nested(DeviceKeyEntrySchema))


class PublicIbgePathSchema(Schema):
    ibge = fields.String(required=True, validate=validate.Regexp(r"^[0-9]{1,7}$", error="Código IBGE inválido."))


class PublicTokenPathSchema(Schema):
    token = fields.String(required=True, validate=validate.Regexp(TOKEN_RE, error="Endereço incompleto."))


class PublicAutoStatusSchema(Schema):
    number = fields.String(allow_none=True)
    received_at = fields.String(allow_none=True)
    issued_at = fields.String(allow_none=True)
    municipality = fields.Dict()
    infractions = fields.List(fields.Dict())  # {label_pt, citation_pt, amount_brl, amount_text}
    cancel_requested = fields.Boolean()
    process = fields.Dict()
