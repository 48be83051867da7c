"""Issuer keys, issued credentials and the status list devices sync incrementally."""
from datetime import datetime, timezone

from ...extensions import db

KEY_STATUSES = ("active", "retired", "revoked")
CREDENTIAL_STATUSES = ("active", "revoked", "superseded")
ENTRY_KINDS = ("permit", "credential", "key")
TRUST_FORMATS = ("entries", "grouped")  # GET /api/v1/trust: one object per entry, or refs grouped by status


def utcnow():
    return datetime.now(timezone.utc)


class IssuerKey(db.Model):
    """One Ed25519 key pair of a municipality. The private half is an encrypted PEM (keys.py),
    erased when the key is revoked. At most one active key per municipality: the partial unique
    index holds that even when two servers rotate at once (credentials.operations)."""
    __tablename__ = "issuer_key"
    __table_args__ = (db.UniqueConstraint("municipality_id", "kid"),
                      db.Index("uq_issuer_key_one_active", "municipality_id", unique=True,
                               sqlite_where=db.text("status = 'active'"),
                               postgresql_where=db.text("status = 'active'")))
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    kid = db.Column(db.Integer, nullable=False)  # 1..255, carried in every payload it signs
    public_key = db.Column(db.String(64), nullable=False)  # raw 32 bytes, unpadded base64url
    private_key_pem = db.Column(db.Text)  # PKCS#8, encrypted with the passphrase; NULL once revoked
    # active: signs new credentials (one per municipality); retired: verifies only, kept until
    # every credential it signed has expired; revoked: everything it signed verifies as INVÁLIDO.
    status = db.Column(db.String(10), nullable=False, default="active")
    revoked_reason = db.Column(db.Text)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    retired_at = db.Column(db.DateTime(timezone=True))
    revoked_at = db.Column(db.DateTime(timezone=True))

    municipality = db.relationship("Municipality")


class Credential(db.Model):
    """One printed crachá (and its vest stickers) for a permit and its driver."""
    __tablename__ = "credential"
    __table_args__ = (db.UniqueConstraint("municipality_id", "serial"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    serial = db.Column(db.BigInteger, nullable=False)  # 1..2^32-1, per municipality, in the payload
    permit_id = db.Column(db.Integer, db.ForeignKey("permit.id"), nullable=False, index=True)
    operator_id = db.Column(db.Integer, db.ForeignKey("operator.id"), nullable=True, index=True)
    issuer_key_id = db.Column(db.Integer, db.ForeignKey("issuer_key.id"), nullable=False, index=True)
    permit_number = db.Column(db.String(20), nullable=False)  # as signed (the permit may be renumbered)
    issued_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    expires_on = db.Column(db.Date, nullable=False)  # last valid day; never after the permit's
    payload = db.Column(db.Text, nullable=False)  # the QR text; not secret, kept for reprints
    status = db.Column(db.String(12), nullable=False, default="active", index=True)
    revoked_reason = db.Column(db.Text)
    revoked_at = db.Column(db.DateTime(timezone=True))
    superseded_by_id = db.Column(db.Integer, db.ForeignKey("credential.id"), nullable=True)

    permit = db.relationship("Permit")
    operator = db.relationship("Operator")
    issuer_key = db.relationship("IssuerKey")


class StatusListEntry(db.Model):
    """Append-only log of permit, credential and key status changes. The id is the cursor that
    devices pass back to fetch only what changed since their last sync."""
    __tablename__ = "status_list_entry"
    # Server-side lookups of one permit's or credential's latest entry (public page, CLI).
    __table_args__ = (db.Index("ix_status_list_entry_lookup", "municipality_id", "kind", "ref"),)
    id = db.Column(db.Integer, primary_key=True)  # cursor: strictly increasing
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    kind = db.Column(db.String(10), nullable=False)  # permit | credential | key
    ref = db.Column(db.String(40), nullable=False)  # permit number | credential serial | kid
    status = db.Column(db.String(12), nullable=False)
    reason = db.Column(db.Text)
    changed_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
