"""What the review adds to a received auto: decisions on the cancellation requests fiscais send
from the field (its corrections are the auto's versions, autos.models.AutoCaseVersion). The
signed record (fieldsync.FieldRecord) never changes; everything here points at it."""
from datetime import datetime, timezone

from ...extensions import db


def utcnow():
    return datetime.now(timezone.utc)


class CancelRequestDecision(db.Model):
    """The reviewer's answer to a cancellation request sent from the field (one per request):
    accepted (the auto becomes insubsistente quoting the request) or refused with a reason."""
    __tablename__ = "cancel_request_decision"
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    request_id = db.Column(db.String(36), db.ForeignKey("field_record.id"), nullable=False, unique=True)
    decision = db.Column(db.String(10), nullable=False)  # accepted | refused
    reason = db.Column(db.Text, nullable=False)
    decided_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    decided_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    decided_by = db.relationship("User", foreign_keys=[decided_by_id])


# The review queue lists a municipality's records newest first and filters by period (received
# or device time): composite indexes on field_record serve both (bench/review_queue.py). Declared
# here, with the feature that needs them; the table belongs to fieldsync.
from ..fieldsync.models import FieldRecord  # noqa: E402

# kind is the last key column so the queue's kind filter and a deep page's offset are answered
# from the index alone (no heap visit per skipped row).
db.Index("ix_field_record_queue", FieldRecord.municipality_id, FieldRecord.received_at, FieldRecord.id,
         FieldRecord.kind)
db.Index("ix_field_record_device_time", FieldRecord.municipality_id, FieldRecord.device_at)
