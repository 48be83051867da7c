"""Field sync: what phones send (signed records, evidence photos), what they reserve (auto
numbers) and the penalties applied (their recidivism history). What tells them what changed in
the field data (versions per entity) is the registry's change feed (registry/change_models.py).

Nothing here is ever deleted. A record's body is stored exactly as the device signed it; what
the server concludes about it (flags, operator, completeness) lives in other columns.
"""
from datetime import datetime, timezone

from ...extensions import db


def utcnow():
    return datetime.now(timezone.utc)


RECORD_KINDS = ("inspection", "auto", "cancel_request")
NUMBER_STATUSES = ("reserved", "used", "voided")


class FieldRecord(db.Model):
    """One record accepted from a device (inspection, auto de infração, cancellation request).
    The primary key is the device-generated UUID: a replay hits the unique key, never a copy."""
    __tablename__ = "field_record"
    __table_args__ = (db.Index("ix_field_record_device_seq", "device_id", "seq"),)
    id = db.Column(db.String(36), primary_key=True)  # client UUID (lower-case, hyphenated)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    device_id = db.Column(db.Integer, db.ForeignKey("device.id"), nullable=False, index=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=False, index=True)
    kind = db.Column(db.String(16), nullable=False)  # inspection | auto | cancel_request
    seq = db.Column(db.Integer, nullable=False)  # the device's counter, 1, 2, 3…
    prev_hash = db.Column(db.String(64))  # as claimed by the body (null for seq 1)
    body_hash = db.Column(db.String(64), nullable=False)  # hex sha256 of the body bytes
    body = db.Column(db.Text, nullable=False)  # the signed JSON text, byte for byte as received
    signature = db.Column(db.String(100), nullable=False)  # base64url Ed25519, as received
    # What the server found on receipt: bad_signature, chain_gap, broken_chain, number_unknown…
    flags = db.Column(db.JSON, nullable=False, default=list)
    received_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, index=True)
    device_at = db.Column(db.DateTime(timezone=True))  # the phone's clock (may be wrong: see flags)
    gps_at = db.Column(db.DateTime(timezone=True))  # GPS fix time, when the phone had one
    # Autos: the number used and the operator it was issued to (resolved on receipt when the
    # inspection or the permit names them; null while unknown).
    auto_number = db.Column(db.String(40), index=True)
    operator_id = db.Column(db.Integer, db.ForeignKey("operator.id"), nullable=True, index=True)
    inspection_id = db.Column(db.String(36), index=True)  # autos: the inspection they come from
    target_id = db.Column(db.String(36), index=True)  # cancel requests: the auto they cancel
    # sha256 of the auto's public link token: /a/<token> looks it up by hash, never by the token.
    public_token_hash = db.Column(db.String(64), index=True)


class FieldRecordConflict(db.Model):
    """A record that came back under a known id with another body: kept for review, one row per
    distinct body, the accepted original untouched."""
    __tablename__ = "field_record_conflict"
    __table_args__ = (db.UniqueConstraint("record_id", "body_hash"),)
    id = db.Column(db.Integer, primary_key=True)
    record_id = db.Column(db.String(36), db.ForeignKey("field_record.id"), nullable=False, index=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    device_id = db.Column(db.Integer, db.ForeignKey("device.id"), nullable=False, index=True)
    body_hash = db.Column(db.String(64), nullable=False)
    body = db.Column(db.Text, nullable=False)
    signature = db.Column(db.String(100), nullable=False)
    received_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    reviewed_at = db.Column(db.DateTime(timezone=True))  # set by the back office after review
    review_note = db.Column(db.Text)


class RejectedRecord(db.Model):
    """A pushed record the server refused for its content (a clock the arithmetic cannot hold, a
    field longer than its column…): the phone sets it aside and the back office sees it here
    with the reasons, because a signed auto is evidence even when it cannot be filed. Kept as
    sent (text the database cannot hold, NUL or a lone surrogate, escaped; at most the size a
    record may have), once per device and item (a resend after a lost answer adds nothing)."""
    __tablename__ = "field_record_rejected"
    __table_args__ = (db.UniqueConstraint("device_id", "item_hash"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    device_id = db.Column(db.Integer, db.ForeignKey("device.id"), nullable=False, index=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=False)
    item_hash = db.Column(db.String(64), nullable=False)  # sha256 of id, body and signature as stored
    record_id = db.Column(db.String(36))  # the item's id when it is a UUID
    kind = db.Column(db.String(16))  # the body's kind when it names a known one
    auto_number = db.Column(db.String(40))  # autos: the number the body names, when it fits
    body = db.Column(db.Text, nullable=False)
    signature = db.Column(db.Text, nullable=False)
    errors = db.Column(db.JSON, nullable=False)  # {field: [pt-BR reason]} as answered to the phone
    received_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, index=True)


class RecordPhoto(db.Model):
    """A photo a record references (evidence, item photos, signatures). The record is complete
    when an EvidencePhoto with each hash exists in its municipality."""
    __tablename__ = "record_photo"
    record_id = db.Column(db.String(36), db.ForeignKey("field_record.id"), primary_key=True)
    sha256 = db.Column(db.String(64), primary_key=True, index=True)


class EvidencePhoto(db.Model):
    """A photo uploaded by a device, addressed by the SHA-256 of its bytes. The bytes live in
    the photo storage (storage.py) under that hash; this row says which municipality has it."""
    __tablename__ = "evidence_photo"
    __table_args__ = (db.UniqueConstraint("municipality_id", "sha256"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    sha256 = db.Column(db.String(64), nullable=False)
    content_type = db.Column(db.String(20), nullable=False)  # image/jpeg | image/png
    size = db.Column(db.Integer, nullable=False)
    width = db.Column(db.Integer, nullable=False)
    height = db.Column(db.Integer, nullable=False)
    device_id = db.Column(db.Integer, db.ForeignKey("device.id"), nullable=True, index=True)
    uploaded_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class AutoNumberSeries(db.Model):
    """Counter of the auto series of a municipality and year (SAP-2026-000001…). Incremented
    under a row lock, so two devices reserving at once never get the same numbers."""
    __tablename__ = "auto_number_series"
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), primary_key=True)
    year = db.Column(db.Integer, primary_key=True, autoincrement=False)
    last_seq = db.Column(db.Integer, nullable=False, default=0)


class AutoNumberBlock(db.Model):
    """Numbers reserved for one device while online, like a paper talonário."""
    __tablename__ = "auto_number_block"
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    device_id = db.Column(db.Integer, db.ForeignKey("device.id"), nullable=False, index=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=False)
    year = db.Column(db.Integer, nullable=False)
    first_seq = db.Column(db.Integer, nullable=False)
    count = db.Column(db.Integer, nullable=False)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class AutoNumber(db.Model):
    """One auto number: reserved for a device, then used once by an auto or voided."""
    __tablename__ = "auto_number"
    __table_args__ = (db.UniqueConstraint("municipality_id", "number"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    block_id = db.Column(db.Integer, db.ForeignKey("auto_number_block.id"), nullable=False, index=True)
    device_id = db.Column(db.Integer, db.ForeignKey("device.id"), nullable=False, index=True)
    number = db.Column(db.String(40), nullable=False)
    status = db.Column(db.String(10), nullable=False, default="reserved")  # reserved | used | voided
    record_id = db.Column(db.String(36), db.ForeignKey("field_record.id"), nullable=True)  # the auto
    void_reason = db.Column(db.Text)
    voided_at = db.Column(db.DateTime(timezone=True))


class AppliedPenalty(db.Model):
    """A penalty the municipality applied after due process (filled by the back office). Phones
    receive this history to count recidivism (SPEC §7 history entries)."""
    __tablename__ = "applied_penalty"
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    operator_id = db.Column(db.Integer, db.ForeignKey("operator.id"), nullable=True, index=True)
    permit_id = db.Column(db.Integer, db.ForeignKey("permit.id"), nullable=True, index=True)
    infraction_id = db.Column(db.String(80), nullable=False)  # id in the composed rules
    penalty = db.Column(db.String(30))  # penalty kind when not the infraction's default
    # When the infraction was committed (the auto's date): recidivism and escalation windows count
    # from it (Paranatinga art. 49 "tenha cometido"; SPEC §5 history `date`).
    committed_on = db.Column(db.Date, nullable=False)
    # When the penalty became applied (no appeal pending, or the appeal lost): decides whether
    # the entry counts on a given day, never where it falls in a window.
    applied_on = db.Column(db.Date, nullable=False)
    auto_record_id = db.Column(db.String(36), db.ForeignKey("field_record.id"), nullable=True)
    decision_ref = db.Column(db.String(120))  # the act or process number behind it
    cancelled = db.Column(db.Boolean, nullable=False, default=False)  # annulled on appeal
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
