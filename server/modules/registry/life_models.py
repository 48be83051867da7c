"""Records of changes during a permit's life that are not status changes: the vehicle
substitutions (with the vistoria a law demands for the new vehicle). Written by
permits.changes_of_life; the vistoria pending or done is read and cleared by issuance
(substitutions.py, operations.satisfy_substitution_vistorias)."""
from ...extensions import db
from .models import utcnow


class VehicleSubstitution(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    permit_id = db.Column(db.Integer, db.ForeignKey("permit.id"), nullable=False, index=True)
    old_vehicle_id = db.Column(db.Integer, db.ForeignKey("vehicle.id"))
    new_vehicle_id = db.Column(db.Integer, db.ForeignKey("vehicle.id"), nullable=False)
    replaced_on = db.Column(db.Date, nullable=False)   # when the holder changed motorcycles
    requested_on = db.Column(db.Date, nullable=False)  # when it was asked of the municipality
    # A new vistoria the law demands for the substitute (Sapezal art. 15): pending until recorded.
    vistoria_required = db.Column(db.Boolean, nullable=False, default=False)
    vistoria_done_on = db.Column(db.Date)
    # The approved issuance Vistoria of the new vehicle that satisfied the pending one.
    vistoria_id = db.Column(db.Integer, db.ForeignKey("vistoria.id"), index=True)
    basis = db.Column(db.String(200), nullable=False)
    reason = db.Column(db.Text, nullable=False)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    permit = db.relationship("Permit")
    old_vehicle = db.relationship("Vehicle", foreign_keys=[old_vehicle_id])
    new_vehicle = db.relationship("Vehicle", foreign_keys=[new_vehicle_id])
    vistoria = db.relationship("Vistoria")
