"""Marshmallow schemas shared by every API module: the error envelope.

core.errors renders every /api/ error by dumping ErrorSchema, and core.openapi documents the
4xx answers with the same class, so the document cannot drift from what clients receive.
"""
from marshmallow import Schema, fields


class ErrorDetailSchema(Schema):
    code = fields.String(required=True, metadata={"description": "Stable machine-readable code."})
    message = fields.String(required=True, metadata={"description": "Message for the user (pt-BR)."})
    fields_ = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True,
                          data_key="fields", metadata={"description": "Reasons per field (dotted names for nested fields)."})


class ErrorSchema(Schema):
    """The envelope of every 4xx answer under /api/: {"error": {"code", "message", "fields"}}."""
    error = fields.Nested(ErrorDetailSchema, required=True)
