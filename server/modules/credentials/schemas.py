"""Schemas of the trust API (GET /api/v1/trust/<slug>): the view loads and dumps with them,
core.openapi documents them. Format and verdict rules: docs/credentials.md."""
from marshmallow import Schema, fields, validate

from ...core.auth import MAX_ID
from .models import KEY_STATUSES


class TrustQuerySchema(Schema):
    cursor = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_ID, error="Cursor inválido."),
                            metadata={"description": "next_cursor da resposta anterior (0: desde o início)."})


class TrustMunicipalitySchema(Schema):
    ibge_code = fields.Integer(required=True)
    slug = fields.String(required=True)
    name = fields.String(required=True)
    utc_offset_minutes = fields.Integer(required=True)


class TrustKeySchema(Schema):
    kid = fields.Integer(required=True)
    public_key = fields.String(required=True, metadata={"description": "Ed25519 public key, base64url."})
    status = fields.String(required=True, validate=validate.OneOf(KEY_STATUSES))
    revoked_reason = fields.String(required=True, allow_none=True)


class StatusEntrySchema(Schema):
    cursor = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["permit", "credential", "key"]))
    ref = fields.String(required=True)
    status = fields.String(required=True)
    reason = fields.String(required=True, allow_none=True)
    changed_at = fields.String(required=True, metadata={"format": "date-time"})


class TrustDataSchema(Schema):
    municipality = fields.Nested(TrustMunicipalitySchema, required=True)
    generated_at = fields.String(required=True, metadata={"format": "date-time"})
    max_age_seconds = fields.Integer(required=True)
    keys = fields.List(fields.Nested(TrustKeySchema), required=True)
    entries = fields.List(fields.Nested(StatusEntrySchema), required=True)
    next_cursor = fields.Integer(required=True)
    more = fields.Boolean(required=True)
