"""Schemas of the operator's notice API (the views load and dump with them; core.openapi documents them)."""
from marshmallow import Schema, fields, validate

from ...core import validation  # noqa: F401 — pt-BR messages before any field is built


class JsonBoolean(fields.Boolean):
    """true or false as JSON writes them: 0, 1 and "yes" are refused, as the document says."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class PreferencesSchema(Schema):
    optional_opt_out = JsonBoolean(required=True, metadata={
        "description": "true: não enviar avisos opcionais (prazo terminando, pagamento recebido)."})


class ContactViewSchema(Schema):
    email = fields.String(required=True, allow_none=True, metadata={"description": "Mascarado."})
    mobile = fields.String(required=True, allow_none=True, metadata={"description": "Mascarado."})
    channels = fields.List(fields.String(), required=True)
    optional_opt_out = fields.Boolean(required=True)
    intimacao = fields.String(required=True, allow_none=True,
                              metadata={"description": "O ato que admite a intimação eletrônica, quando vale para você."})
    lgpd_pt = fields.String(required=True)
    retention_pt = fields.String(required=True)


class NoticeViewSchema(Schema):
    id = fields.Integer(required=True)
    kind = fields.String(required=True)
    kind_pt = fields.String(required=True)
    nature = fields.String(required=True, validate=validate.OneOf(["aviso", "intimacao"]))
    nature_pt = fields.String(required=True)
    channel = fields.String(required=True)
    channel_pt = fields.String(required=True)
    state = fields.String(required=True)
    state_pt = fields.String(required=True)
    subject = fields.String(required=True)
    body = fields.String(required=True)
    created_at = fields.String(required=True, allow_none=True)
    sent_at = fields.String(required=True, allow_none=True)
    read_at = fields.String(required=True, allow_none=True)
    acknowledge = fields.Boolean(required=True)


class NoticePathSchema(Schema):
    notice_id = fields.Integer(required=True, validate=validate.Range(1, 2**31 - 1), metadata={"example": 1})
