"""What the dashboard counts, derived once from each signed record when the push accepts it.

The record bodies are JSON text stored byte for byte (fieldsync.FieldRecord); counting
infractions or failed checklist items out of 100,000 bodies on every page view would parse them
all. These two narrow tables hold the few values the dashboard groups by, filled set-based in
the push transaction (operations.record_stats) and backfilled by migration 0010_dash.
"""
from ...extensions import db

STAT_KINDS = ("inspection", "auto")
ITEM_KINDS = ("infraction", "nonconformity")


class FieldStat(db.Model):
    """One row per inspection or auto: when (the municipality's calendar day of the device
    clock), who, where (the permit's ponto) and, for autos, the confirmed amount in centavos."""
    __tablename__ = "field_stat"
    __table_args__ = (db.Index("ix_field_stat_municipality_day", "municipality_id", "day"),)
    record_id = db.Column(db.String(36), db.ForeignKey("field_record.id"), primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False)
    kind = db.Column(db.String(16), nullable=False)  # inspection | auto
    day = db.Column(db.Date, nullable=False)
    month = db.Column(db.String(7), nullable=False)  # "2026-11": grouping without dialect functions
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=False)
    ponto_id = db.Column(db.Integer, db.ForeignKey("ponto.id"), nullable=True)
    amount_cents = db.Column(db.BigInteger)  # autos: sum of confirmed infractions with an amount
    # Autos: municipal fines among them whose amount is not configured (derive.item_amount):
    # while any is counted, no total is shown (issue 18, item 5).
    unpriced = db.Column(db.Integer, nullable=False, default=0, server_default="0")
    # The auto was declared insubsistente (AutoCase): counted, its amount no longer charged.
    # Kept here by the auto_case_changed signal so the aggregates need no join.
    void = db.Column(db.Boolean, nullable=False, default=False)


class FieldStatItem(db.Model):
    """One confirmed infraction of an auto, or one failed checklist requirement of an
    inspection (a nonconformity), with its label as the record carried it."""
    __tablename__ = "field_stat_item"
    __table_args__ = (db.Index("ix_field_stat_item_municipality_kind_day", "municipality_id", "kind", "day"),)
    record_id = db.Column(db.String(36), db.ForeignKey("field_record.id"), primary_key=True)
    position = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False)
    kind = db.Column(db.String(16), nullable=False)  # infraction | nonconformity
    day = db.Column(db.Date, nullable=False)
    code = db.Column(db.String(120), nullable=False)  # infraction or requirement id of the pack
    label = db.Column(db.String(300))
    amount_cents = db.Column(db.BigInteger)
    unpriced = db.Column(db.Integer, nullable=False, default=0, server_default="0")  # 1: fine not configured
    void = db.Column(db.Boolean, nullable=False, default=False)  # as FieldStat.void


class FieldStatDay(db.Model):
    """field_stat summed per calendar day, fiscal and ponto: what the page reads, so a year is
    a few thousand rows instead of every inspection and auto. Kept by record_stats and the
    void listener with additive upserts (operations._roll); equal to a GROUP BY of field_stat."""
    __tablename__ = "field_stat_day"
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), primary_key=True)
    day = db.Column(db.Date, primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), primary_key=True)
    # 0 = no ponto identified: NULL cannot be part of the key ON CONFLICT matches on.
    ponto_key = db.Column(db.Integer, primary_key=True, autoincrement=False)
    month = db.Column(db.String(7), nullable=False)
    inspections = db.Column(db.Integer, nullable=False)
    autos = db.Column(db.Integer, nullable=False)
    amount_cents = db.Column(db.BigInteger, nullable=False)  # autos not void only
    unpriced = db.Column(db.Integer, nullable=False, default=0, server_default="0")  # autos not void only
    void = db.Column(db.Integer, nullable=False)  # autos declared insubsistente


class FieldStatItemDay(db.Model):
    """field_stat_item summed per calendar day and infraction / requirement code."""
    __tablename__ = "field_stat_item_day"
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), primary_key=True)
    day = db.Column(db.Date, primary_key=True)
    kind = db.Column(db.String(16), primary_key=True)
    code = db.Column(db.String(120), primary_key=True)
    label = db.Column(db.String(300))  # the greatest label seen, as max(label) over the items
    count = db.Column(db.Integer, nullable=False)
    amount_cents = db.Column(db.BigInteger, nullable=False)  # items of autos not void only
    unpriced = db.Column(db.Integer, nullable=False, default=0, server_default="0")  # items of autos not void only


class FieldStatMonth(db.Model):
    """field_stat summed per month, fiscal and ponto: a period of whole months reads one row per
    month × fiscal × ponto (24 months: ≤ 14,400 rows with 30 fiscals and 20 pontos) instead of one
    per day (≤ 438,000 at a million autos: docs/benchmarks/dashboard.md). Kept with the daily
    rollup by the same upserts (operations._roll); equal to a GROUP BY month of field_stat_day."""
    __tablename__ = "field_stat_month"
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), primary_key=True)
    month = db.Column(db.String(7), primary_key=True)  # "2026-11"
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), primary_key=True)
    ponto_key = db.Column(db.Integer, primary_key=True, autoincrement=False)  # 0: no ponto identified
    inspections = db.Column(db.Integer, nullable=False)
    autos = db.Column(db.Integer, nullable=False)
    amount_cents = db.Column(db.BigInteger, nullable=False)
    unpriced = db.Column(db.Integer, nullable=False, default=0, server_default="0")
    void = db.Column(db.Integer, nullable=False)


class FieldStatItemMonth(db.Model):
    """field_stat_item summed per month and infraction / requirement code (as FieldStatMonth)."""
    __tablename__ = "field_stat_item_month"
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), primary_key=True)
    month = db.Column(db.String(7), primary_key=True)
    kind = db.Column(db.String(16), primary_key=True)
    code = db.Column(db.String(120), primary_key=True)
    label = db.Column(db.String(300))
    count = db.Column(db.Integer, nullable=False)
    amount_cents = db.Column(db.BigInteger, nullable=False)
    unpriced = db.Column(db.Integer, nullable=False, default=0, server_default="0")
