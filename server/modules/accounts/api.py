"""API authentication: username/password (staff, fiscais) → bearer token; token revocation."""
from flask import g

from ...core.audit import record
from ...core.auth import api_auth, utcnow
from .identity import issue_api_token
from ...core.errors import ApiError
from ...core.openapi import ERROR, api_doc
from ...core.ratelimit import login_limits
from ...core.tenancy import crosses_municipalities
from ...core.routes import RouteTable
from ...extensions import db
from .models import Device, User
from .schemas import LoginSchema, RevokedSchema, TokenSchema

routes = RouteTable()


@routes.post("/token")
@login_limits("username", "user")
@api_doc(summary="Login: usuário e senha → token de acesso", body=LoginSchema,
         responses={200: TokenSchema, 401: ERROR, 429: ERROR},
         description="Com device_name, o aparelho é cadastrado e o token fica ligado a ele.")
@crosses_municipalities("login: the username names an account of any municipality")
def token(body):
    user = User.query.filter_by(username=body["username"].strip().lower()).first()
    if user is None or not user.active or not user.check_password(body["password"]):
        raise ApiError(401, "bad_credentials", "Usuário ou senha incorretos.")
    device = None
    if body.get("device_name") and user.municipality_id is not None:
        # A phone enrolls itself at login: the admin sees it and can revoke it if it is lost.
        device = Device(municipality_id=user.municipality_id, user_id=user.id, name=body["device_name"],
                        last_seen_at=utcnow())
        db.session.add(device)
        db.session.flush()
        record("enroll", "device", device.id, None, {"name": device.name, "user": user.username},
               actor=user, municipality_id=user.municipality_id)
    text, row = issue_api_token(user, device=device)
    user.last_login_at = utcnow()
    record("token_issued", "user", user.id, actor=user, municipality_id=user.municipality_id)
    db.session.flush()  # inside the crossing: row-level security judges the rows at the flush
    return {
        "token": text,
        "expires_at": row.expires_at,
        "device_id": device.id if device else None,
        "user": {"id": user.id, "name": user.name, "role": user.role, "registration": user.registration,
                 "municipality": user.municipality.slug if user.municipality else None},
    }


@routes.delete("/token")
@api_auth()
@api_doc(summary="Logout: revoga o token usado nesta requisição", responses={200: RevokedSchema})
def revoke():
    g.api_token.revoked_at = utcnow()
    record("token_revoked", "user", g.user.id, municipality_id=g.user.municipality_id)
    return {"revoked": True}
