"""Selection records: the dated population figure behind the vacancy count, the edital, its
candidates (with the legal conditions checked one by one) and their place in the classification.
Every row belongs to one municipality; writes only through selection.operations."""
from ...extensions import db
from ..registry.models import utcnow

# Where a candidate stands. "convocado": called to fill a vacancy (art. 34); "em_regularizacao":
# called but short of a condition, inside the window of art. 33 § 3º; "desabilitado": that window
# ran out; "perdeu_direito": selected without a motorcycle and none shown in time (art. 8º § 1º).
CANDIDATE_STATUSES = {
    "inscrito": "Inscrito", "inapto": "Inapto", "selecionado": "Selecionado", "suplente": "Suplente",
    "convocado": "Convocado", "em_regularizacao": "Em regularização (prazo de 5 dias)",
    "desabilitado": "Desabilitado", "perdeu_direito": "Perdeu o direito", "desistente": "Desistente", "permissionario": "Permissão emitida",
}


class PopulationFigure(db.Model):
    """The municipality's population on a date, with its source (art. 4º § 2º: the IBGE index)."""
    __table_args__ = (db.UniqueConstraint("municipality_id", "reference_date"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    population = db.Column(db.Integer, nullable=False)
    reference_date = db.Column(db.Date, nullable=False)
    source = db.Column(db.String(200), nullable=False)  # e.g. "IBGE, estimativa populacional 2025"
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class Edital(db.Model):
    """A call for candidates (arts. 21 and 51) and its classification once published."""
    __table_args__ = (db.UniqueConstraint("municipality_id", "number"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    number = db.Column(db.String(40), nullable=False)
    published_on = db.Column(db.Date, nullable=False)
    registration_until = db.Column(db.Date, nullable=False)
    vacancies_offered = db.Column(db.Integer, nullable=False)
    # Criteria the edital adds after those of art. 33 § 1º, in order: [{"key", "label", "higher_first"}].
    extra_criteria = db.Column(db.JSON, nullable=False, default=list)
    classification_published_at = db.Column(db.DateTime(timezone=True))
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    candidates = db.relationship("Candidate", back_populates="edital", order_by="Candidate.id")
    municipality = db.relationship("Municipality")


class Candidate(db.Model):
    __table_args__ = (db.UniqueConstraint("edital_id", "cpf"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    edital_id = db.Column(db.Integer, db.ForeignKey("edital.id"), nullable=False, index=True)
    name = db.Column(db.String(160), nullable=False)
    cpf = db.Column(db.String(11), nullable=False)
    # The four criteria of art. 33 § 1º, a) to d).
    profession_since = db.Column(db.Date, nullable=False)
    cnh_first_issue_date = db.Column(db.Date, nullable=False)
    vehicle_year = db.Column(db.Integer)  # None: no motorcycle yet (art. 8º § 1º)
    schooling = db.Column(db.Integer, nullable=False)  # index into selection.rules.SCHOOLING
    extra_values = db.Column(db.JSON, nullable=False, default=dict)  # edital criteria key → number
    # Legal conditions checked on the documents: condition key → true/false (selection.rules.CONDITIONS).
    conditions = db.Column(db.JSON, nullable=False, default=dict)
    # A tie the criteria cannot break is broken by the clerk: position inside the tie, and why.
    tie_break = db.Column(db.Integer)
    tie_break_reason = db.Column(db.Text)
    classification = db.Column(db.Integer)  # 1-based, set when the classification is published
    status = db.Column(db.String(16), nullable=False, default="inscrito", index=True)
    called_on = db.Column(db.Date)
    regularize_until = db.Column(db.Date, index=True)  # art. 33 § 3º window
    selected_on = db.Column(db.Date)
    motorcycle_due = db.Column(db.Date, index=True)  # art. 8º § 1º
    status_reason = db.Column(db.Text)
    # The permit issued to this candidate (art. 21: the delegation follows the selection).
    permit_id = db.Column(db.Integer, db.ForeignKey("permit.id"), index=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    edital = db.relationship("Edital", back_populates="candidates")
    permit = db.relationship("Permit")
