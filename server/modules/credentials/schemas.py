"""Response shapes of the public key endpoints (GET /api/v1/keys, /api/v1/keys/<ref>). The
handlers dump through these schemas, so the documented shape is the served one."""
from marshmallow import Schema, fields, validate

from .models import KEY_STATUSES


class MunicipalityRefSchema(Schema):
    ibge_code = fields.Integer(required=True, metadata={"description": "IBGE code, 7 digits (payload bytes 2-4)"})
    slug = fields.String(required=True)
    name = fields.String(required=True)
    uf = fields.String(required=True)


class KeyIndexEntrySchema(MunicipalityRefSchema):
    keys_url = fields.String(required=True, metadata={"description": "address of this municipality's keys"})


class KeyIndexSchema(Schema):
    municipalities = fields.List(fields.Nested(KeyIndexEntrySchema), required=True)


class PublicKeySchema(Schema):
    kid = fields.Integer(required=True, validate=validate.Range(1, 255),
                         metadata={"description": "key id, payload byte 1"})
    public_key = fields.String(required=True, metadata={
        "description": "raw 32-byte Ed25519 public key, base64url without padding"})
    status = fields.String(required=True, validate=validate.OneOf(KEY_STATUSES))
    valid_from = fields.String(required=True, metadata={"description": "ISO 8601 UTC: created"})
    valid_until = fields.String(required=True, allow_none=True, metadata={
        "description": "ISO 8601 UTC: retired or revoked (signs nothing after); null while active"})


class PublicKeysSchema(Schema):
    municipality = fields.Nested(MunicipalityRefSchema, required=True)
    algorithm = fields.String(required=True, validate=validate.OneOf(["Ed25519"]))
    keys = fields.List(fields.Nested(PublicKeySchema), required=True)
