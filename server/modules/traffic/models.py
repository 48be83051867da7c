"""A communication to the traffic authority per roadside stop that observed CTB/SNT infractions,
and the yearly series its numbers come from. Never deleted; its state only moves forward:
a_comunicar → comunicada (the clerk recorded the sending) → recebida (the acknowledgement)."""
from datetime import datetime, timezone

from ...extensions import db

STATES = ("a_comunicar", "comunicada", "recebida")


def utcnow():
    return datetime.now(timezone.utc)


class TrafficReportSeries(db.Model):
    """Counter of a municipality's communications of a year (0001/2026…), incremented under the
    row lock of an UPDATE, so two pushes at once never take the same number."""
    __tablename__ = "traffic_report_series"
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), primary_key=True)
    year = db.Column(db.Integer, primary_key=True, autoincrement=False)
    last_seq = db.Column(db.Integer, nullable=False, default=0)


class TrafficReport(db.Model):
    """What one stop's fiscal observed for the traffic authority. `stop_id` is the inspection's id
    (the auto's own id when an older phone's auto came without its inspection): one per stop."""
    __tablename__ = "traffic_report"
    __table_args__ = (db.UniqueConstraint("municipality_id", "stop_id", name="uq_traffic_report_stop"),
                      db.UniqueConstraint("municipality_id", "year", "seq", name="uq_traffic_report_number"),
                      db.Index("ix_traffic_report_period", "municipality_id", "observed_at"))
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    year = db.Column(db.Integer, nullable=False)
    seq = db.Column(db.Integer, nullable=False)
    stop_id = db.Column(db.String(36), nullable=False)
    record_id = db.Column(db.String(36), db.ForeignKey("field_record.id"), nullable=False, index=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)  # the fiscal
    operator_id = db.Column(db.Integer, db.ForeignKey("operator.id"), nullable=True, index=True)
    observed_at = db.Column(db.DateTime(timezone=True), nullable=False)  # device clock, else receipt
    plate = db.Column(db.String(10))
    permit_number = db.Column(db.String(40))
    gps_lat = db.Column(db.Float)
    gps_lon = db.Column(db.Float)
    # [{"id", "label_pt", "citation", "observed": [requirement labels]}] as the phone recorded them.
    items = db.Column(db.JSON, nullable=False, default=list)
    state = db.Column(db.String(12), nullable=False, default="a_comunicar")
    sent_on = db.Column(db.Date)
    sent_reference = db.Column(db.String(200))  # ofício, protocol, e-mail: how it was sent
    sent_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    acknowledged_on = db.Column(db.Date)
    acknowledged_reference = db.Column(db.String(200))
    acknowledged_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    @property
    def number(self):
        return f"{self.seq:04d}/{self.year}"
