"""Accounts. Passwords, tokens and first-access codes are stored only as hashes."""
from datetime import datetime, timezone

from flask import current_app, has_app_context
from werkzeug.security import check_password_hash, generate_password_hash

from ...extensions import db


def utcnow():
    return datetime.now(timezone.utc)


class User(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    # Null only for the platform administrator, who may act on every municipality.
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=True, index=True)
    username = db.Column(db.String(60), nullable=False, unique=True)
    name = db.Column(db.String(120), nullable=False)
    password_hash = db.Column(db.String(255))  # null for operators until first access
    role = db.Column(db.String(12), nullable=False)  # admin | backoffice | fiscal | operator
    operator_id = db.Column(db.Integer, db.ForeignKey("operator.id"), nullable=True, unique=True)
    # Agent registration shown on autos (matrícula), for fiscais.
    registration = db.Column(db.String(30))
    active = db.Column(db.Boolean, nullable=False, default=True)
    # Bumped on password change / deactivation so existing sessions stop working.
    session_epoch = db.Column(db.Integer, nullable=False, default=0)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    last_login_at = db.Column(db.DateTime(timezone=True))

    municipality = db.relationship("Municipality")
    operator = db.relationship("Operator")

    def set_password(self, password):
        # scrypt by default; the test suite sets a cheap method to keep fixtures fast.
        method = current_app.config.get("PASSWORD_HASH_METHOD", "scrypt") if has_app_context() else "scrypt"
        self.password_hash = generate_password_hash(password, method=method)
        self.session_epoch = (self.session_epoch or 0) + 1

    def check_password(self, password):
        return bool(self.password_hash) and check_password_hash(self.password_hash, password)


class Device(db.Model):
    """A phone enrolled for a fiscal; revoking it kills its tokens (and wipes it on next contact)."""
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True, index=True)
    name = db.Column(db.String(80), nullable=False)
    status = db.Column(db.String(10), nullable=False, default="active")  # active | revoked
    public_key = db.Column(db.Text)  # device signing key (autos), registered by the device
    registered_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    last_seen_at = db.Column(db.DateTime(timezone=True))

    user = db.relationship("User")


class ApiToken(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=False, index=True)
    device_id = db.Column(db.Integer, db.ForeignKey("device.id"), nullable=True, index=True)
    token_hash = db.Column(db.String(64), nullable=False, unique=True)  # sha256 of the token
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    expires_at = db.Column(db.DateTime(timezone=True), nullable=False)
    revoked_at = db.Column(db.DateTime(timezone=True))

    user = db.relationship("User")
    device = db.relationship("Device")


class FirstAccessCode(db.Model):
    """Single-use code the back office hands an operator to open the field app in operator mode."""
    id = db.Column(db.Integer, primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=False, index=True)
    code_hash = db.Column(db.String(64), nullable=False, unique=True)  # sha256 of the code
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    expires_at = db.Column(db.DateTime(timezone=True), nullable=False)
    used_at = db.Column(db.DateTime(timezone=True))

    user = db.relationship("User")


class UserSession(db.Model):
    """A back-office login, held on the server: the cookie carries only a random id, and this row
    (its SHA-256) must exist, be open and be recent on every request. Logout, a password change or
    a deactivation closes it, so a copied cookie stops working at once (accounts/sessions.py)."""
    id = db.Column(db.Integer, primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=False, index=True)
    token_hash = db.Column(db.String(64), nullable=False, unique=True)  # sha256 of the cookie's id
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    last_seen_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    ended_at = db.Column(db.DateTime(timezone=True))
    # logout | idle | expired | password | deactivated
    end_reason = db.Column(db.String(12))

    user = db.relationship("User")
