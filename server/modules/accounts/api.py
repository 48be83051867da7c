"""API authentication: username/password (staff, fiscais) → bearer token; token revocation."""
from flask import Blueprint, g
from marshmallow import Schema, fields, validate

from ...core.audit import record
from ...core.auth import api_auth, issue_api_token, utcnow
from ...core.clock import isoformat_utc
from ...core.errors import ApiError
from ...core.http import json_body
from ...core.ratelimit import login_limits
from ...extensions import db
from .models import Device, User

bp = Blueprint("accounts_api", __name__, url_prefix="/api/v1/auth")


class LoginSchema(Schema):
    username = fields.String(required=True, validate=validate.Length(min=1, max=60))
    password = fields.String(required=True, validate=validate.Length(min=1, max=200))
    device_name = fields.String(load_default=None, validate=validate.Length(max=80))


@bp.post("/token")
@login_limits("username", "user")
def token():
    data = LoginSchema().load(json_body())
    user = User.query.filter_by(username=data["username"].strip().lower()).first()
    if user is None or not user.active or not user.check_password(data["password"]):
        raise ApiError(401, "bad_credentials", "Usuário ou senha incorretos.")
    device = None
    if data.get("device_name") and user.municipality_id is not None:
        # A phone enrolls itself at login: the admin sees it and can revoke it if it is lost.
        device = Device(municipality_id=user.municipality_id, user_id=user.id, name=data["device_name"],
                        last_seen_at=utcnow())
        db.session.add(device)
        db.session.flush()
        record("enroll", "device", device.id, None, {"name": device.name, "user": user.username},
               actor=user, municipality_id=user.municipality_id)
    text, row = issue_api_token(user, device=device)
    user.last_login_at = utcnow()
    record("token_issued", "user", user.id, actor=user, municipality_id=user.municipality_id)
    db.session.commit()
    return {
        "token": text,
        "expires_at": isoformat_utc(row.expires_at),
        "device_id": device.id if device else None,
        "user": {"id": user.id, "name": user.name, "role": user.role,
                 "municipality": user.municipality.slug if user.municipality else None},
    }


@bp.delete("/token")
@api_auth()
def revoke():
    g.api_token.revoked_at = utcnow()
    record("token_revoked", "user", g.user.id, municipality_id=g.user.municipality_id)
    db.session.commit()
    return {"revoked": True}
