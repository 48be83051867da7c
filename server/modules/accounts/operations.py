"""Account changes: create staff users, reset passwords, (de)activate, revoke devices. Audited.

Like every operation, they stage and flush and never commit: the request or command that calls
them commits (core/transaction.py). The flush at their end is where the database judges the rows
(constraints, and row-level security under the caller's scope, which may be a crossing that
ends before the boundary commits)."""
from ...core.audit import record
from ...core.auth import utcnow
from ...core.errors import ApiError
from .sessions import end_user_sessions
from ...extensions import db
from .models import ApiToken, User


def _public(user):
    return {"username": user.username, "name": user.name, "role": user.role, "active": user.active,
            "registration": user.registration}


def create_user(municipality_id, data):
    if User.query.filter_by(username=data["username"]).first() is not None:
        raise ApiError(409, "validation_error", "Dados inválidos.", {"username": ["Nome de usuário já existe."]})
    user = User(municipality_id=municipality_id, username=data["username"], name=data["name"],
                role=data["role"], registration=data.get("registration"))
    user.set_password(data["password"])
    db.session.add(user)
    db.session.flush()
    record("create", "user", user.id, None, _public(user), municipality_id=municipality_id)
    db.session.flush()
    return user


def revoke_tokens(user_id=None, device_id=None):
    """Revoke every live token of the user, or of the device. Returns how many."""
    query = ApiToken.query.filter(ApiToken.revoked_at.is_(None))
    query = query.filter(ApiToken.user_id == user_id) if user_id else query.filter(ApiToken.device_id == device_id)
    tokens = query.all()
    for token in tokens:
        token.revoked_at = utcnow()
    return len(tokens)


def set_password(user, password):
    user.set_password(password)  # bumps session_epoch
    end_user_sessions(user.id, "password")
    revoke_tokens(user_id=user.id)
    record("reset_password", "user", user.id, municipality_id=user.municipality_id)
    db.session.flush()


def set_active(user, active, reason):
    before = _public(user)
    user.active = active
    user.session_epoch = (user.session_epoch or 0) + 1
    if not active:
        end_user_sessions(user.id, "deactivated")
        revoke_tokens(user_id=user.id)
    record("activate" if active else "deactivate", "user", user.id, before, _public(user), reason=reason,
           municipality_id=user.municipality_id)
    db.session.flush()


def revoke_device(device, reason):
    """A lost or stolen phone: every token that can act for it stops working at once, and it is
    wiped on next contact. That is the device's own tokens *and every other token of its user*:
    a token issued without a device (or to another phone) carries the same powers, so leaving
    it alive would be a way around the revocation (docs/ARCHITECTURE.md, "Devices"). The
    fiscal signs in again on the phones they still hold."""
    if device.status == "revoked":
        raise ApiError(409, "already_revoked", "Este dispositivo já está revogado.")
    device.status = "revoked"
    ended = revoke_tokens(device_id=device.id)
    if device.user_id is not None:
        ended += revoke_tokens(user_id=device.user_id)
    record("revoke", "device", device.id, {"status": "active"}, {"status": "revoked", "tokens_revoked": ended},
           reason=reason, municipality_id=device.municipality_id)
    db.session.flush()
