"""Schemas of the operator API: the views load and dump with them, core.openapi documents them."""
from marshmallow import Schema, fields, validate

from ...core.schemas import UtcDateTime


class ActivateSchema(Schema):
    municipality = fields.String(required=True, validate=validate.Length(min=1, max=40))
    code = fields.String(required=True, validate=validate.Length(min=4, max=40))


class ActivatedSchema(Schema):
    token = fields.String(required=True, metadata={"description": "Bearer token (shown once)."})
    expires_at = UtcDateTime(required=True)


class MunicipalityPublicSchema(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)
    uf = fields.String(required=True)
    ibge = fields.String(metadata={"description": "Código IBGE (no crachá do operador): o celular guarda as chaves "
                                                 "dos aparelhos do município para conferir sem internet a cópia do auto."})


class AlertSchema(Schema):
    code = fields.String(required=True, metadata={"description": "permit_validity, insurance_missing, "
                                                  "insurance_expiring, vistoria_rejected, vistoria_expiring"})
    message = fields.String(required=True)
    due_on = fields.Date(required=True, allow_none=True)


class BadgeSchema(Schema):
    """The operator's digital crachá (LGPD: no CPF, CNH, address, birth date or blood type)."""
    name = fields.String(required=True)
    photo_url = fields.String(required=True, allow_none=True)
    municipality = fields.Nested(MunicipalityPublicSchema, required=True)
    holder_company = fields.String(required=True, allow_none=True)
    permit_number = fields.String(required=True, allow_none=True)
    permit_kind = fields.String(required=True, allow_none=True)
    permit_kind_label = fields.String(required=True, allow_none=True)
    plate = fields.String(required=True, allow_none=True)
    status = fields.String(required=True, allow_none=True)
    status_label = fields.String(required=True, allow_none=True)
    valid_until = fields.Date(required=True, allow_none=True)
    credential_payload = fields.String(required=True, allow_none=True,
                                       metadata={"description": "Signed crachá QR payload, only while the permit is ativo."})
    credential_serial = fields.Integer(required=True, allow_none=True)
    autos = fields.List(fields.Dict(), required=True)
    alerts = fields.List(fields.Nested(AlertSchema), required=True,
                         metadata={"description": "What lapses soon (validity, insurance, vistoria)."})
