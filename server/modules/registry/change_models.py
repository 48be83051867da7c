"""The field-data change feed's tables: the version of each municipality's field data and, per
entity, the latest version at which it changed. Written by changes.py on every registry write (and
by the features above that add kinds of their own); read by fieldsync to answer a phone's delta."""
from ...extensions import db
from .models import utcnow


class FieldDataState(db.Model):
    """Field-data version of a municipality. Every registry change bumps it under a row lock, so
    versions commit in order and a device's cursor never skips a change."""
    __tablename__ = "field_data_state"
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), primary_key=True,
                                autoincrement=False)
    version = db.Column(db.BigInteger, nullable=False, default=0)
    rules_etag = db.Column(db.String(80))  # the composed rules last sent (a change bumps version)
    changed_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class FieldDataEntity(db.Model):
    """Latest version at which an entity changed: one row per entity, so a delta is compacted
    (each changed entity once, in its current state) and the table never grows with history."""
    __tablename__ = "field_data_entity"
    __table_args__ = (db.Index("ix_field_data_entity_delta", "municipality_id", "version"),)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), primary_key=True,
                                autoincrement=False)
    kind = db.Column(db.String(12), primary_key=True)  # permit | operator | vehicle | ponto | penalty | rules
    entity_id = db.Column(db.Integer, primary_key=True, autoincrement=False)
    version = db.Column(db.BigInteger, nullable=False)
    removed = db.Column(db.Boolean, nullable=False, default=False)
