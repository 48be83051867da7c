"""A tariff table: the act that set it, its validity and its lines (what the passenger pays)."""
from ...extensions import db
from ..registry.models import utcnow


class TariffTable(db.Model):
    __table_args__ = (db.UniqueConstraint("municipality_id", "valid_from"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    act = db.Column(db.String(200), nullable=False)  # e.g. "Decreto nº 45/2026"
    valid_from = db.Column(db.Date, nullable=False)
    valid_until = db.Column(db.Date)  # None: until replaced (Paranatinga renews yearly, art. 35)
    # [{"description": "Corrida na área urbana", "amount": "8.00"}] — amounts as decimal strings.
    items = db.Column(db.JSON, nullable=False, default=list)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
