"""Request schemas of the operator API (responses are built in operations.badge_for)."""
from marshmallow import Schema, fields, validate


class ActivateSchema(Schema):
    municipality = fields.String(required=True, validate=validate.Length(min=1, max=40))
    code = fields.String(required=True, validate=validate.Length(min=4, max=40))
