"""Schemas of the credentials API: the trust data for devices (GET /api/v1/trust/<slug>) and the
public key endpoints (GET /api/v1/keys, /api/v1/keys/<ref>). The views load and dump with them,
core.openapi documents them, so the documented shape is the served one. Format and verdict rules:
docs/credentials.md."""
from marshmallow import Schema, fields, validate

from ...core.auth import MAX_ID
from .models import KEY_STATUSES, TRUST_FORMATS


class TrustQuerySchema(Schema):
    cursor = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_ID, error="Cursor inválido."),
                            metadata={"description": "next_cursor da resposta anterior (0: desde o início)."})
    format = fields.String(load_default="entries", validate=validate.OneOf(TRUST_FORMATS),
                           metadata={"description": "entries: um objeto por permissão, crachá ou chave; grouped: "
                                                    "os números agrupados por situação (o do aplicativo de campo)."})


class TrustMunicipalitySchema(Schema):
    ibge_code = fields.Integer(required=True)
    slug = fields.String(required=True)
    name = fields.String(required=True)
    utc_offset_minutes = fields.Integer(required=True)
    permit_noun = fields.String(metadata={"description": "The law's word for the permit: 'alvará de autorização', 'permissão', 'autorização'."})
    permit_feminine = fields.Boolean(metadata={"description": "Grammatical gender of permit_noun (agreement of the verdict texts)."})


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


class GroupedStatusSchema(Schema):
    permit = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True,
                         metadata={"description": "situação → números de permissão, em ordem"})
    credential = fields.Dict(keys=fields.String(), values=fields.List(fields.Integer()), required=True,
                             metadata={"description": "situação → séries dos crachás em ordem, cada uma como a "
                                                      "diferença para a anterior (a primeira desde 0)"})
    key = fields.Dict(keys=fields.String(), values=fields.List(fields.Integer()), required=True,
                      metadata={"description": "situação → kids em ordem, como diferenças (igual a credential)"})


class TrustDataSchema(Schema):
    municipality = fields.Nested(TrustMunicipalitySchema, required=True)
    generated_at = fields.String(required=True, metadata={"format": "date-time"})
    max_age_seconds = fields.Integer(required=True)
    keys = fields.List(fields.Nested(TrustKeySchema), required=True)
    entries = fields.List(fields.Nested(StatusEntrySchema), required=True,
                          metadata={"description": "format=entries: a última entrada de cada (kind, ref) após o "
                                                   "cursor; vazia em format=grouped"})
    status = fields.Nested(GroupedStatusSchema, metadata={"description": "format=grouped: o mesmo, agrupado"})
    next_cursor = fields.Integer(required=True)
    more = fields.Boolean(required=True, metadata={"description": "Sempre false: a resposta traz tudo após o "
                                                                  "cursor (mantido para aparelhos antigos)."})


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
