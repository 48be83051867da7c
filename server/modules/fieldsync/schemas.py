"""Marshmallow schemas of the field sync API: every request body and every response.

Record bodies: a record signed on a phone cannot be fixed by the fiscal once it exists, so only
what the server needs to file it is required (id, kind, device, seq, chain, clock and, for autos,
the number and link token). But whatever a body carries has the shape the pages, the documents and
the operator's copy read (issue 39, "strict at the door"): JSON types as given, never coerced
(strict_fields.py), text lengths, the auto's infractions field by field, free-form parts bounded in
depth and length. What other fields a body carries is kept as sent, within MAX_BODY_DEPTH.
"""
import re

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from ...core import validation  # pt-BR messages before any field is built
from ...core.auth import MAX_ID
from ...core.openapi import COMPONENT_SCHEMAS
from .strict_fields import MAX_BODY_DEPTH, JsonObject, JsonValue, StrictBoolean, StrictNumber

SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
B64URL_RE = re.compile(r"^[A-Za-z0-9_-]+$")
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{32,128}$")

MAX_BATCH = 100
MAX_BODY_CHARS = 256 * 1024
# field_record.signature is VARCHAR(100); an Ed25519 signature in base64url is 86 characters.
MAX_SIGNATURE_CHARS = 100
MAX_INT32 = 2**31 - 1  # ids and counters go into INTEGER columns


AwareDateTime = fields.AwareDateTime
AwareDateTime.default_error_messages = {
    **AwareDateTime.default_error_messages,
    "invalid_awareness": "Informe data e hora com fuso (ex.: 2026-05-10T14:03:00-04:00).",
}


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


# Regexp rather than a function where the contract must show it: the OpenAPI document states the
# pattern (lower case included) exactly as it is enforced (issue 20).
UUID_MESSAGE = "Identificador inválido (UUID em minúsculas)."
SHA256_MESSAGE = "Hash inválido (64 dígitos hexadecimais em minúsculas)."


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


class ClockSchema(Schema):
    class Meta:
        unknown = INCLUDE
    device_at = AwareDateTime(required=True, validate=validation.validate_instant_range)
    gps_at = AwareDateTime(load_default=None, allow_none=True, validate=validation.validate_instant_range)


class GpsSchema(Schema):
    class Meta:
        unknown = INCLUDE
    lat = StrictNumber(required=True, validate=validate.Range(-90, 90))
    lon = StrictNumber(required=True, validate=validate.Range(-180, 180))
    accuracy_m = StrictNumber(load_default=None, allow_none=True, validate=validate.Range(0))


MAX_PHOTOS = 500
MAX_FACTS = 1000


def _uuid_field(**kwargs):
    return fields.String(validate=validate.Regexp(UUID_RE, error=UUID_MESSAGE), **kwargs)


def _sha_field(**kwargs):
    return fields.String(validate=validate.Regexp(SHA256_RE, error=SHA256_MESSAGE), **kwargs)


def _text(maximum, **kwargs):
    return fields.String(validate=validate.Length(max=maximum), **kwargs)


def _optional_text(maximum):
    return _text(maximum, load_default=None, allow_none=True)


def _photo_list():
    return fields.List(_sha_field(), load_default=list, validate=validate.Length(max=MAX_PHOTOS))


def _photos_by_fact():
    return fields.Dict(keys=fields.String(validate=validate.Length(1, 200)),
                       values=fields.List(_sha_field(), validate=validate.Length(max=MAX_PHOTOS)),
                       load_default=dict, validate=validate.Length(max=MAX_FACTS))


def _answers():
    return fields.Dict(keys=fields.String(validate=validate.Length(1, 200)),
                       values=JsonValue(description="a resposta do item"), load_default=dict,
                       validate=validate.Length(max=MAX_FACTS))


class BodySchema(Schema):
    """Fields common to every record body."""
    class Meta:
        unknown = INCLUDE
    id = _uuid_field(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(
        ["inspection", "auto", "cancel_request", "vistoria"], error="Tipo de registro desconhecido."))
    device_id = fields.Integer(required=True, strict=True, validate=validate.Range(1, MAX_INT32))
    seq = fields.Integer(required=True, strict=True, validate=validate.Range(1, MAX_INT32))
    prev_hash = _sha_field(required=True, allow_none=True)
    clock = fields.Nested(ClockSchema, required=True)
    gps = fields.Nested(GpsSchema, load_default=None, allow_none=True)
    no_gps_reason = _optional_text(2000)  # typed by the fiscal: generous bounds, the page prints any
    data_age_s = fields.Integer(load_default=None, allow_none=True, strict=True,
                                validate=validate.Range(-MAX_INT32, MAX_INT32))
    photos = _photo_list()
    operator_id = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(1, MAX_INT32))

    @validates_schema
    def _first_has_no_prev(self, data, **_kwargs):
        if data.get("seq") == 1 and data.get("prev_hash") is not None:
            raise ValidationError("O primeiro registro (seq 1) não tem registro anterior.", "prev_hash")


# How each answer was given (issue 34, docs/sync-api.md): described here, kept as sent and read
# leniently (fieldsync/provenance.py) — a record of an earlier app has none of them.
_HOW_DOC = {"description": "{fact: {how: item|group|registry, at?, quick?, declaration?}} for every answer"}
_DECLARATIONS_DOC = {"description": "[{group, label_pt, kind: compliant|none, at, shown: [fact], answered: [fact]}]"}
_NA_DOC = {"description": "{fact: {because: {fact: answer}}}: not asked, ruled out by those answers"}
_GROUNDS_DOC = "{fact, value, how, at?}: an answer the infraction rests on"


class InspectionBodySchema(BodySchema):
    permit_number = _optional_text(40)
    plate = _optional_text(20)
    answers = _answers()
    item_photos = _photos_by_fact()
    answer_how = JsonValue(description=_HOW_DOC["description"])
    group_declarations = JsonValue(description=_DECLARATIONS_DOC["description"])
    not_applicable = JsonValue(description=_NA_DOC["description"])
    # What the review page and the traffic communication read (the phone's evaluation, the fiscal's
    # decision per proposed infraction, the crachá read at the stop).
    evaluation = JsonObject(allow_none=True, description="the phone's evaluation {failed, infractions}")
    decisions = JsonObject(allow_none=True, description="{infraction id: {decision, reason}}")
    credential = JsonObject(allow_none=True, description="{verdict, reason, payload_text}")
    answer_sources = JsonObject(allow_none=True, description="{fact: registry|fiscal} (earlier apps)")


class SignaturesSchema(Schema):
    class Meta:
        unknown = INCLUDE
    fiscal = _sha_field(required=True)
    operator = _sha_field(load_default=None, allow_none=True)
    operator_refused = StrictBoolean(load_default=False)


class CitationSchema(Schema):
    """An article as the packs cite it (rules/citations.py prints it)."""
    class Meta:
        unknown = INCLUDE
    law = fields.String(required=True, validate=validate.Length(1, 100))  # a citation names its law
    art = _text(40, allow_none=True)
    paragrafo = _text(40, allow_none=True)
    inciso = _text(40, allow_none=True)
    alinea = _text(40, allow_none=True)


INFRACTION_DECISIONS = ("confirmed", "removed", "communicate")
# R$ 10 trillion: no fine is near it, and the dashboard's sums (BIGINT cents) stay far from overflow.
MAX_AMOUNT_BRL = 10**13


class AutoInfractionSchema(Schema):
    """One infraction of an auto as the phone signs it (pwa/js/ui/fiscal-auto.js): what the review
    page, the notificação, the public copy and its JSON read. No load_default here: an entry loads
    exactly as sent (fastparse.py compares)."""
    class Meta:
        unknown = INCLUDE
    id = fields.String(required=True, validate=validate.Length(1, 100))
    label_pt = _text(1000, allow_none=True)
    citation = fields.Nested(CitationSchema, allow_none=True)
    amount = JsonObject(allow_none=True, description="{value, unit} in the law's unit")
    amount_brl = StrictNumber(allow_none=True, validate=validate.Range(0, MAX_AMOUNT_BRL))
    decision = fields.String(validate=validate.OneOf(INFRACTION_DECISIONS))
    removal_reason = _text(2000, allow_none=True)
    grounds = fields.List(JsonObject(description=_GROUNDS_DOC), validate=validate.Length(max=MAX_FACTS))
    triggered_by = fields.List(_text(200), validate=validate.Length(max=MAX_FACTS))
    jurisdiction = _text(40, allow_none=True)


class AutoBodySchema(BodySchema):
    inspection_id = _uuid_field(load_default=None, allow_none=True)
    number = fields.String(required=True, validate=validate.Length(1, 40))
    place = _text(2000, allow_none=True)
    permit_number = _text(40, allow_none=True)
    plate = _text(20, allow_none=True)
    infractions = fields.List(fields.Nested(AutoInfractionSchema), load_default=list,
                              validate=validate.Length(max=100))
    signatures = fields.Nested(SignaturesSchema, required=True)
    public_token = fields.String(required=True, validate=validate.Regexp(
        TOKEN_RE, error="Token público: 32 a 128 caracteres [A-Za-z0-9_-]."))
    checklist_how = JsonObject(allow_none=True, description="counts of the inspection's answers by how they were "
                                                            "given: item, quick, group, declarations, registry, "
                                                            "not_checked, not_applicable (each infraction: grounds)")
    defence = JsonObject(allow_none=True, description="{deadline_days, instance, due, kind}")
    auto_fields = JsonObject(allow_none=True, description="{field id of the packs: text}")
    auto_sources = JsonObject(allow_none=True, description="the texts the fields were joined from")
    observations = _text(10000, allow_none=True)


class CancelBodySchema(BodySchema):
    auto_id = _uuid_field(required=True)
    reason = fields.String(required=True, validate=validate.Length(3, 2000))


class VistoriaBodySchema(BodySchema):
    """A vehicle's vistoria run on the field app (issuance/vistoria_sync.py files it)."""
    vehicle_id = fields.Integer(required=True, strict=True, validate=validate.Range(1, MAX_INT32))
    permit_id = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(1, MAX_INT32))
    permit_number = _optional_text(40)
    plate = _optional_text(20)
    vistoria_kind = fields.String(required=True, validate=validate.OneOf(
        ["inicial", "periodica", "retorno", "substituicao"], error="Tipo de vistoria inválido."))
    inspected_on = fields.Date(required=True, validate=validation.validate_date_range)
    answers = _answers()
    item_photos = _photos_by_fact()
    result = fields.String(required=True, validate=validate.OneOf(["aprovada", "reprovada"],
                                                                  error="Use aprovada ou reprovada."))
    items_to_fix = fields.List(JsonObject(description="{requirement, fact, label_pt, citation}"), load_default=list,
                               validate=validate.Length(max=MAX_FACTS))
    return_on = fields.Date(load_default=None, allow_none=True, validate=validation.validate_date_range)
    notes = fields.String(load_default=None, allow_none=True, validate=validate.Length(0, 2000))

    @validates_schema
    def _rejection_says_what_and_when(self, data, **_kwargs):
        if data.get("result") != "reprovada":
            return
        if not data.get("items_to_fix"):
            raise ValidationError("Vistoria reprovada: informe os itens a corrigir.", "items_to_fix")
        if data.get("return_on") is None:
            raise ValidationError("Vistoria reprovada: informe a data de retorno.", "return_on")
        if data.get("inspected_on") and data["return_on"] < data["inspected_on"]:
            raise ValidationError("O retorno deve ser depois da vistoria.", "return_on")


BODY_SCHEMAS = {"inspection": InspectionBodySchema, "auto": AutoBodySchema, "cancel_request": CancelBodySchema,
                "vistoria": VistoriaBodySchema}
# The bodies in the OpenAPI document (components.schemas "<Kind>RecordBody"): the push carries
# them as JSON text, so no operation can refer to them.
COMPONENT_SCHEMAS.update({f"{''.join(p.title() for p in kind.split('_'))}RecordBody": schema
                          for kind, schema in BODY_SCHEMAS.items()})
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
