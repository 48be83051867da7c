"""Audit log: every state change records who, when, what, before and after."""
from datetime import datetime, timezone

from flask import g, has_request_context, request

from ..extensions import db


class AuditLog(db.Model):
    __tablename__ = "audit_log"
    id = db.Column(db.Integer, primary_key=True)
    at = db.Column(db.DateTime(timezone=True), nullable=False, index=True)
    # Null for actions run from the CLI or by the system (e.g. nightly expiry).
    actor_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True, index=True)
    actor_label = db.Column(db.String(120), nullable=False)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=True, index=True)
    action = db.Column(db.String(60), nullable=False)
    entity = db.Column(db.String(40), nullable=False)
    entity_id = db.Column(db.String(40), nullable=True)
    before = db.Column(db.JSON, nullable=True)
    after = db.Column(db.JSON, nullable=True)
    reason = db.Column(db.Text, nullable=True)
    ip = db.Column(db.String(64), nullable=True)


def _jsonable(value):
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return str(value)


def snapshot(obj, exclude=("created_at", "updated_at")):
    """Column values of a row, for the audit log's before/after."""
    return {c.key: getattr(obj, c.key) for c in obj.__table__.columns if c.key not in exclude}


def current_actor():
    return getattr(g, "user", None) if has_request_context() else None


def record(action, entity, entity_id=None, before=None, after=None, reason=None,
           municipality_id=None, actor=None):
    """Add an audit entry to the current session; it commits with the change it describes."""
    actor = actor or current_actor()
    entry = AuditLog(
        at=datetime.now(timezone.utc),
        actor_id=getattr(actor, "id", None),
        actor_label=getattr(actor, "username", None) or "sistema",
        municipality_id=municipality_id,
        action=action,
        entity=entity,
        entity_id=None if entity_id is None else str(entity_id),
        before=_jsonable(before),
        after=_jsonable(after),
        reason=reason,
        ip=request.remote_addr if has_request_context() else None,
    )
    db.session.add(entry)
    return entry
