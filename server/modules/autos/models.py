"""One AutoCase per auto de infração the server received. The signed record itself
(fieldsync.FieldRecord) never changes; what the municipality decides about it lives here."""
from datetime import datetime, timezone

from ...extensions import db


def utcnow():
    return datetime.now(timezone.utc)


# recebido: synced, waiting for review; homologado: confirmed by a reviewer (only then can it be
# notified); insubsistente: cancelled with a justification (never deleted).
CASE_STATES = ("recebido", "homologado", "insubsistente")


class AutoCase(db.Model):
    __tablename__ = "auto_case"
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    # The auto as the device signed it (kind "auto"); one case per received auto.
    record_id = db.Column(db.String(36), db.ForeignKey("field_record.id"), nullable=False, unique=True)
    number = db.Column(db.String(40), index=True)  # copied from the record for lists and search
    state = db.Column(db.String(16), nullable=False, default="recebido", index=True)
    decided_at = db.Column(db.DateTime(timezone=True))  # last review decision
    decided_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    decision_reason = db.Column(db.Text)  # the reviewer's justification (required)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, index=True)

    # Scoped by construction (core/tenancy.py): the case's record is read only in its municipality.
    record = db.relationship("FieldRecord", viewonly=True, primaryjoin=(
        "and_(foreign(AutoCase.record_id) == FieldRecord.id, "
        "AutoCase.municipality_id == FieldRecord.municipality_id)"))
    decided_by = db.relationship("User", foreign_keys=[decided_by_id])


class AutoCaseVersion(db.Model):
    """One correction of an auto's data (version n = 1, 2, …; the signed body is version 0).
    `data` holds every correctable field as corrected (versions.CORRECTABLE), so a version reads
    alone and diffs against the previous one without replaying the chain. Written by the review
    (review/operations.py), read by everything that reads the auto (versions.current_data)."""
    __tablename__ = "auto_case_version"
    __table_args__ = (db.UniqueConstraint("case_id", "n"),)
    id = db.Column(db.Integer, primary_key=True)
    case_id = db.Column(db.Integer, db.ForeignKey("auto_case.id"), nullable=False, index=True)
    n = db.Column(db.Integer, nullable=False)
    data = db.Column(db.JSON, nullable=False)
    reason = db.Column(db.Text, nullable=False)
    # "correction" (typed by a clerk) or "conflict" (a divergent body adopted on review)
    source = db.Column(db.String(16), nullable=False, default="correction")
    conflict_id = db.Column(db.Integer, db.ForeignKey("field_record_conflict.id"), nullable=True)
    author_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    author = db.relationship("User", foreign_keys=[author_id])
