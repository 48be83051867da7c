"""The record bodies a phone signs (components.schemas "<Kind>RecordBody" of the OpenAPI document),
built of the strict field types beside them (strict_fields.py).

A record signed on a phone cannot be fixed by the fiscal once it exists, so only what the server
needs to file it is required (id, kind, device, seq, chain, clock and, for autos, the number and
link token). But whatever a body carries has the shape the pages, the documents and the
operator's copy read (issue 39, "strict at the door"): JSON types as given, never coerced
(strict_fields.py), text lengths, the auto's infractions field by field, free-form parts bounded
in depth and length. What other fields a body carries is kept as sent, within MAX_BODY_DEPTH.
The push item that carries a body as JSON text, and every other request and response of the sync
API, are schemas.py's.
"""
import re

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from ...core import validation  # pt-BR messages before any field is built
from ...core.openapi import COMPONENT_SCHEMAS
from .strict_fields import JsonObject, JsonValue, StrictBoolean, StrictNumber

SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{32,128}$")
# Regexp rather than a function where the contract must show it: the OpenAPI document states the
# pattern (lower case included) exactly as it is enforced (issue 20).
UUID_MESSAGE = "Identificador inválido (UUID em minúsculas)."
SHA256_MESSAGE = "Hash inválido (64 dígitos hexadecimais em minúsculas)."
MAX_INT32 = 2**31 - 1  # ids and counters go into INTEGER columns


AwareDateTime = fields.AwareDateTime
AwareDateTime.default_error_messages = {
    **AwareDateTime.default_error_messages,
    "invalid_awareness": "Informe data e hora com fuso (ex.: 2026-05-10T14:03:00-04:00).",
}


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
