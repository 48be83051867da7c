"""What a permit needs before it is issued or renewed, as records of their own (never a
default on the permit): vistorias, insurance policies, documents checked, ISSQN charges."""
from ...extensions import db
from ..registry.models import utcnow

VISTORIA_KINDS = {"inicial": "Vistoria prévia (inicial)", "periodica": "Vistoria periódica",
                  "retorno": "Retorno (itens corrigidos)", "substituicao": "Substituição de veículo",
                  "registro_anterior": "Registrada antes deste sistema"}
VISTORIA_RESULTS = {"aprovada": "Aprovada", "reprovada": "Reprovada"}
# A vistoria from the field app that the fiscal signed as approved while its answers fail one of
# the law's requirements (vistoria_sync.py): kept as sent, never counted as approved until a
# clerk records the vistoria again in the back office.
VISTORIA_IN_REVIEW = "em_revisao"
VISTORIA_RESULT_LABELS = {**VISTORIA_RESULTS, VISTORIA_IN_REVIEW: "Aprovação em revisão"}
INSURANCE_KINDS = {"terceiros_app": "Terceiros e acidentes pessoais", "vida": "Seguro de vida",
                   "outro": "Seguro da moto / APP"}
# Sapezal Lei 125/1999, art. 4º, § 1º: the covers are owed "tanto para os terceiros quanto para o
# motorista e passageiro, individualmente". Column prefix → pt-BR name of the covered person.
COVERED_PERSONS = {"third_parties": "terceiros", "driver": "motorista", "passenger": "passageiro"}
# The § 1º benefits each covered person needs: I, II, III in reais, IV a yes/no cover.
PERSON_COVERS = ("temporary_disability", "permanent_disability", "death", "personal_accidents")


class Vistoria(db.Model):
    """One inspection of a vehicle (Nortelândia art. 2º § único, Sapezal art. 14, Paranatinga art. 9º)."""
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    vehicle_id = db.Column(db.Integer, db.ForeignKey("vehicle.id"), nullable=False, index=True)
    permit_id = db.Column(db.Integer, db.ForeignKey("permit.id"), nullable=True, index=True)
    kind = db.Column(db.String(20), nullable=False)
    inspected_on = db.Column(db.Date, nullable=False, index=True)
    result = db.Column(db.String(10), nullable=False)
    # {fact name: true | false | null} for the checklist items the packs define for the vehicle.
    items = db.Column(db.JSON, nullable=False, default=dict)
    items_to_fix = db.Column(db.Text)
    return_on = db.Column(db.Date)
    inspector_name = db.Column(db.String(160), nullable=False)
    photo_hashes = db.Column(db.JSON, nullable=False, default=list)
    notes = db.Column(db.Text)
    recorded_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    # The signed field record it came from (fieldsync.FieldRecord.id), one vistoria per record.
    field_record_id = db.Column(db.String(36), unique=True, nullable=True)
    review_note = db.Column(db.Text)  # why a field vistoria waits for a clerk (pt-BR)

    vehicle = db.relationship("Vehicle")


class InsurancePolicy(db.Model):
    """A policy insuring the motorcycle in service, its driver and passenger (Sapezal art. 4º,
    Nortelândia art. 11 § único, Paranatinga art. 28, II)."""
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    vehicle_id = db.Column(db.Integer, db.ForeignKey("vehicle.id"), nullable=False, index=True)
    kind = db.Column(db.String(20), nullable=False)
    insurer = db.Column(db.String(160), nullable=False)
    policy_number = db.Column(db.String(60), nullable=False)
    starts_on = db.Column(db.Date, nullable=False)
    ends_on = db.Column(db.Date, nullable=False, index=True)
    # Amounts in reais, as on the policy (None = not stated).
    cover_temporary_disability = db.Column(db.Numeric(14, 2))
    cover_permanent_disability = db.Column(db.Numeric(14, 2))
    cover_death = db.Column(db.Numeric(14, 2))
    cover_medical = db.Column(db.Numeric(14, 2))
    cover_personal_accidents = db.Column(db.Boolean)
    # Sapezal art. 4º § 1º, per covered person (COVERED_PERSONS × PERSON_COVERS). None = not
    # recorded: policies entered before 0026 hold only the single set above and stay unknown here.
    third_parties_temporary_disability = db.Column(db.Numeric(14, 2))
    third_parties_permanent_disability = db.Column(db.Numeric(14, 2))
    third_parties_death = db.Column(db.Numeric(14, 2))
    third_parties_personal_accidents = db.Column(db.Boolean)
    driver_temporary_disability = db.Column(db.Numeric(14, 2))
    driver_permanent_disability = db.Column(db.Numeric(14, 2))
    driver_death = db.Column(db.Numeric(14, 2))
    driver_personal_accidents = db.Column(db.Boolean)
    passenger_temporary_disability = db.Column(db.Numeric(14, 2))
    passenger_permanent_disability = db.Column(db.Numeric(14, 2))
    passenger_death = db.Column(db.Numeric(14, 2))
    passenger_personal_accidents = db.Column(db.Boolean)
    # Where the law's minimum is not in reais (Nortelândia: salários mínimos) the clerk attests it.
    coverage_attested = db.Column(db.Boolean)
    copy_filed = db.Column(db.Boolean, nullable=False, default=False)  # Sapezal art. 4º § 3º
    recorded_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class DocumentCheck(db.Model):
    """A document the back office checked (certidões, course, taxes…): the answer to one
    registry fact for an operator, company, vehicle or permit, optionally valid until a date."""
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    subject = db.Column(db.String(10), nullable=False)  # operator | vehicle | company | permit
    subject_id = db.Column(db.Integer, nullable=False)
    fact = db.Column(db.String(60), nullable=False)
    value = db.Column(db.JSON, nullable=True)
    checked_on = db.Column(db.Date, nullable=False)
    valid_until = db.Column(db.Date)
    # A certidão that prints no validity date (the clerk saw it): its validity is then known to be
    # open. Neither this nor valid_until recorded = unknown (issuance.renewal).
    no_printed_validity = db.Column(db.Boolean)
    recorded_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (db.Index("ix_document_check_subject", "subject", "subject_id", "fact"),)


class IssqnCharge(db.Model):
    """Nortelândia Lei 030/1998, art. 14: ISSQN of 0,5 UFM per motorcycle in activity, per month,
    paid by the company by the 10th of the following month."""
    __table_args__ = (db.UniqueConstraint("company_id", "month"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    company_id = db.Column(db.Integer, db.ForeignKey("company.id"), nullable=False, index=True)
    month = db.Column(db.Date, nullable=False)  # first day of the month of activity
    motorcycles = db.Column(db.Integer, nullable=False)
    ufm = db.Column(db.Numeric(10, 3), nullable=False)
    amount_brl = db.Column(db.Numeric(14, 2))  # None while the UFM value is not registered
    due_on = db.Column(db.Date, nullable=False, index=True)
    paid_on = db.Column(db.Date)
    paid_amount_brl = db.Column(db.Numeric(14, 2))
    payment_reference = db.Column(db.String(60))
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    company = db.relationship("Company")
