"""Schemas of the operator's online filings (defence, appeal) and their attachments (issue 37)."""
from marshmallow import Schema, fields, validate

from ...core import validation  # noqa: F401 — pt-BR messages before any field is built
from ...core.schemas import UtcDateTime
from ..fieldsync.schemas import SHA256_MESSAGE, SHA256_RE, UUID_MESSAGE, UUID_RE

MAX_FILINGS = 20
MAX_ATTACHMENTS = 6
TEXT_MIN, TEXT_MAX = 10, 20_000


class FilingSchema(Schema):
    """One filing as the phone's outbox sends it (the same id on every resend)."""
    id = fields.String(required=True, validate=validate.Regexp(UUID_RE, error=UUID_MESSAGE))
    auto_id = fields.String(required=True, validate=validate.Regexp(UUID_RE, error=UUID_MESSAGE),
                            metadata={"description": "O id do auto (o mesmo de GET /operator/autos)."})
    text = fields.String(required=True, validate=validate.Length(
        TEXT_MIN, TEXT_MAX, error=f"Escreva de {TEXT_MIN} a {TEXT_MAX} caracteres."))
    attachments = fields.List(fields.String(validate=validate.Regexp(SHA256_RE, error=SHA256_MESSAGE)),
                              load_default=list, validate=validate.Length(
                                  max=MAX_ATTACHMENTS, error=f"Até {MAX_ATTACHMENTS} anexos."))
    drafted_at = fields.AwareDateTime(load_default=None, allow_none=True,
                                      metadata={"description": "Relógio do aparelho ao salvar (só informativo: "
                                                               "o protocolo é o recebimento pelo servidor)."})


class FilingPushSchema(Schema):
    # Any JSON per item, null included: each is judged alone (operator_filings.push), never the batch.
    records = fields.List(fields.Raw(allow_none=True), required=True, validate=validate.Length(
        1, MAX_FILINGS, error=f"Envie de 1 a {MAX_FILINGS} pedidos."))


class ReceiptSchema(Schema):
    protocol = fields.String(required=True)
    received_at = UtcDateTime(required=True)
    auto_number = fields.String(required=True, allow_none=True)
    level = fields.Integer(required=True)
    label_pt = fields.String(required=True)
    instance_pt = fields.String(required=True)
    due_on = fields.Date(required=True, allow_none=True)
    late = fields.Boolean(required=True)
    timeliness_pt = fields.String(required=True)
    attachments = fields.Integer(required=True)
    content_hash = fields.String(required=True)


class FilingResultSchema(Schema):
    id = fields.String(required=True, allow_none=True, metadata={"description": "null: o item não trazia um id"})
    status = fields.String(required=True, validate=validate.OneOf(["accepted", "duplicate", "conflict", "rejected"]))
    errors = fields.Dict(required=True, allow_none=True, metadata={"description": "Por campo, quando rejected."})
    missing_photos = fields.List(fields.String(), required=True,
                                 metadata={"description": "Anexos citados que o servidor ainda não recebeu."})
    receipt = fields.Nested(ReceiptSchema, required=True, allow_none=True)


class FilingPushResponseSchema(Schema):
    results = fields.List(fields.Nested(FilingResultSchema), required=True)


class AttachmentPathSchema(Schema):
    sha256 = fields.String(required=True, validate=validate.Regexp(SHA256_RE, error=SHA256_MESSAGE),
                           metadata={"example": "0" * 64})


class AttachmentResponseSchema(Schema):
    sha256 = fields.String(required=True)
    size = fields.Integer(required=True)
    created = fields.Boolean(required=True)
