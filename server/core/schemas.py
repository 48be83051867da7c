"""Marshmallow schemas shared by every API module: the error envelope.

core.errors renders every /api/ error by dumping ErrorSchema, and core.openapi documents the
4xx answers with the same class, so the document cannot drift from what clients receive.
"""
from marshmallow import Schema, fields, validate

from . import validation  # noqa: F401  (pt-BR marshmallow messages before any field is built)
from .clock import isoformat_utc


class ErrorDetailSchema(Schema):
    code = fields.String(required=True, metadata={"description": "Stable machine-readable code."})
    message = fields.String(required=True, metadata={"description": "Message for the user (pt-BR)."})
    # Declared last: from here on `fields` in this class body names the field, not the module.
    fields = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True,
                         metadata={"description": "Reasons per field (dotted names for nested fields)."})


class ErrorSchema(Schema):
    """The envelope of every 4xx answer under /api/: {"error": {"code", "message", "fields"}}."""
    error = fields.Nested(ErrorDetailSchema, required=True)


class UtcDateTime(fields.DateTime):
    """A timestamp stored in UTC, always sent with its offset (SQLite hands back naive values)."""

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else isoformat_utc(value)


class MunicipalitySlugPathSchema(Schema):
    """Path of the URLs that name a municipality (/api/v1/…/<slug>)."""
    slug = fields.String(required=True, validate=validate.Length(min=1, max=40),
                         metadata={"description": "Município (slug), p.ex. sapezal.", "example": "sapezal"})
