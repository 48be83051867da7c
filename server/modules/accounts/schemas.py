"""Account forms (pt-BR messages come from core.validation)."""
from marshmallow import Schema, ValidationError, fields, validate, validates

from ...core.schemas import UtcDateTime

MIN_PASSWORD = 10


class UserCreateSchema(Schema):
    username = fields.String(required=True, validate=validate.Regexp(
        r"^[a-z0-9][a-z0-9._-]{2,59}$", error="Use 3 a 60 letras minúsculas, números, '.', '_' ou '-'."))
    name = fields.String(required=True, validate=validate.Length(min=3, max=120, error="Informe o nome completo."))
    role = fields.String(required=True, validate=validate.OneOf(
        ["admin", "backoffice", "fiscal"], error="Perfil inválido."))
    registration = fields.String(load_default=None, validate=validate.Length(max=30))
    password = fields.String(required=True)

    @validates("password")
    def _password(self, value, **_):
        if len(value) < MIN_PASSWORD:
            raise ValidationError(f"A senha deve ter ao menos {MIN_PASSWORD} caracteres.")


class PasswordSchema(Schema):
    password = fields.String(required=True)

    @validates("password")
    def _password(self, value, **_):
        if len(value) < MIN_PASSWORD:
            raise ValidationError(f"A senha deve ter ao menos {MIN_PASSWORD} caracteres.")


# --- API (/api/v1/auth): the views load and dump with these; core.openapi documents them -------

class LoginSchema(Schema):
    username = fields.String(required=True, validate=validate.Length(min=1, max=60))
    password = fields.String(required=True, validate=validate.Length(min=1, max=200))
    device_name = fields.String(load_default=None, validate=validate.Length(max=80))


class TokenUserSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    role = fields.String(required=True, validate=validate.OneOf(["admin", "backoffice", "fiscal", "operator"]))
    municipality = fields.String(required=True, allow_none=True, metadata={"description": "Slug; null for the platform admin."})
    registration = fields.String(allow_none=True, metadata={"description": "Matrícula (agents): printed on the autos the fiscal draws up."})


class TokenSchema(Schema):
    token = fields.String(required=True, metadata={"description": "Bearer token (shown once)."})
    expires_at = UtcDateTime(required=True)
    device_id = fields.Integer(required=True, allow_none=True)
    user = fields.Nested(TokenUserSchema, required=True)


class RevokedSchema(Schema):
    revoked = fields.Boolean(required=True)
