"""Registry models. Every row belongs to one municipality; queries go through core.auth.scoped."""
from datetime import datetime, timezone

from sqlalchemy.orm import validates

from ...core.validation import fold
from ...extensions import db

PERMIT_STATUSES = ("ativo", "vencido", "suspenso", "cassado", "caducado", "extinto")
PERMIT_STATUS_LABELS = {
    "ativo": "Ativo", "vencido": "Vencido", "suspenso": "Suspenso", "cassado": "Cassado",
    "caducado": "Caducado", "extinto": "Extinto",
}
PERMIT_KINDS = {"alvara": "Alvará de autorização", "termo_permissao": "Termo de permissão"}
# "sem_info": nothing recorded yet — never presumed "em dia" (issue 11); the rules read it as unknown.
ISSQN_UNKNOWN = "sem_info"
ISSQN_STATUSES = {ISSQN_UNKNOWN: "Desconhecido (não registrado)", "em_dia": "Em dia", "atrasado": "Em atraso",
                  "isento": "Isento"}
# Longest permit number accepted: keeps the crachá QR at version 8 or below.
PERMIT_NUMBER_MAX = 20


def utcnow():
    return datetime.now(timezone.utc)


class Municipality(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    slug = db.Column(db.String(40), nullable=False, unique=True)
    ibge_code = db.Column(db.String(7), nullable=False, unique=True)
    name = db.Column(db.String(120), nullable=False)
    uf = db.Column(db.String(2), nullable=False)
    # Rule pack ids that apply here, federal base first (see shared_rules/packs/).
    regimes = db.Column(db.JSON, nullable=False, default=list)
    # Free-form settings: vacancy_limit (max active permits), permit_label, etc.
    settings = db.Column(db.JSON, nullable=False, default=dict)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    unit_values = db.relationship("UnitValue", back_populates="municipality",
                                  order_by="UnitValue.valid_from")

    def setting(self, key, default=None):
        return (self.settings or {}).get(key, default)

    @property
    def synthetic_example(self):
        """A fictional municipality whose synthetic law exercises the pack format (issue 38):
        marked as an example wherever it appears, never a real one."""
        return bool(self.setting("synthetic_example"))


# The fiscal units a fine may be written in; the one list behind "Unidades fiscais" and the
# unit choices of "Configuração das regras" (R$ aside).
FISCAL_UNITS = ("UFIR", "UFM", "UPF", "UPFM")


class UnitValue(db.Model):
    """Value in reais of a fiscal unit (UFIR, UFM, UPF…) from a date on, as the municipality set it."""
    __table_args__ = (db.UniqueConstraint("municipality_id", "unit", "valid_from"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    unit = db.Column(db.String(10), nullable=False)
    valid_from = db.Column(db.Date, nullable=False)
    value_brl = db.Column(db.Numeric(14, 4), nullable=False)
    # The act that set the value (decree number, law), shown next to every converted fine.
    source = db.Column(db.String(200), nullable=False)

    municipality = db.relationship("Municipality", back_populates="unit_values")


class Company(db.Model):
    """A company authorised to run the service (Nortelândia's permits are held by companies)."""
    __table_args__ = (db.UniqueConstraint("municipality_id", "cnpj"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    legal_name = db.Column(db.String(160), nullable=False)
    trade_name = db.Column(db.String(160))
    cnpj = db.Column(db.String(14), nullable=False)  # digits only
    address = db.Column(db.String(240))
    phone = db.Column(db.String(30))
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    updated_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, onupdate=utcnow)


class Operator(db.Model):
    """A moto-taxista: permit holder (permissionário) and/or driver (condutor)."""
    __table_args__ = (db.UniqueConstraint("municipality_id", "cpf"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    name = db.Column(db.String(160), nullable=False, index=True)
    # core.validation.fold(name): accent- and case-insensitive search ("joao" finds "João").
    # Kept by the validator below for ORM writes, by the default for bulk inserts.
    name_search = db.Column(db.String(160), nullable=False,
                            default=lambda ctx: fold(ctx.get_current_parameters().get("name")))
    cpf = db.Column(db.String(11), nullable=False)  # digits only; never sent to phones in clear
    cnh_number = db.Column(db.String(11), nullable=False)
    cnh_category = db.Column(db.String(3), nullable=False)
    cnh_first_issue_date = db.Column(db.Date, nullable=False)  # "primeira habilitação"
    cnh_expiry = db.Column(db.Date, nullable=False)
    birth_date = db.Column(db.Date, nullable=False)
    blood_type = db.Column(db.String(3))  # sensitive (LGPD): printed only where a law requires it
    photo_path = db.Column(db.String(200))  # relative to instance/photos
    address = db.Column(db.String(240))
    residence_since = db.Column(db.Date)  # some laws require years of residence in the municipality
    phone = db.Column(db.String(30))
    company_id = db.Column(db.Integer, db.ForeignKey("company.id"), nullable=True)
    # Inabilitação reached by applied penalties (Paranatinga art. 42 § único, Sapezal art. 26):
    # the day it was found and the rule that reached it; it lasts until the curso de reabilitação
    # (autos/disqualification.py), whose day ends it and is a registry fact of the packs.
    disqualified_on = db.Column(db.Date)
    disqualified_basis = db.Column(db.String(300))
    rehabilitation_course_on = db.Column(db.Date)
    rehabilitation_course_ref = db.Column(db.String(200))  # certificate / act recording the course
    # LGPD art. 16: the day the retention job (lgpd/anonymise.py) anonymised this row, and how far
    # ("parcial" while autos kept within their retention still need the identity, then "total").
    anonymized_on = db.Column(db.Date)
    anonymized_scope = db.Column(db.String(10))
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    updated_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, onupdate=utcnow)

    company = db.relationship("Company")

    @validates("name")
    def _fold_name(self, _key, value):
        self.name_search = fold(value)
        return value


class Vehicle(db.Model):
    __table_args__ = (db.UniqueConstraint("municipality_id", "plate"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    plate = db.Column(db.String(7), nullable=False)  # normalized, old or Mercosul format
    renavam = db.Column(db.String(11), nullable=False)
    chassis = db.Column(db.String(17), nullable=False)
    make = db.Column(db.String(60), nullable=False)
    model = db.Column(db.String(80), nullable=False)
    year_manufacture = db.Column(db.Integer, nullable=False)
    engine_cc = db.Column(db.Integer, nullable=False)
    plate_category = db.Column(db.String(20), nullable=False, default="aluguel")  # CTB art. 135
    plate_colour = db.Column(db.String(20), nullable=False, default="vermelha")
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    updated_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, onupdate=utcnow)


class Ponto(db.Model):
    """A stand (ponto de estacionamento) where moto-táxis wait, with its capacity."""
    __table_args__ = (db.UniqueConstraint("municipality_id", "name"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    name = db.Column(db.String(120), nullable=False)
    location = db.Column(db.String(240))
    latitude = db.Column(db.Float)
    longitude = db.Column(db.Float)
    capacity = db.Column(db.Integer, nullable=False)
    # Where the capacity comes from (e.g. "Lei 125/1999, art. 20") when the law sets it.
    legal_basis = db.Column(db.String(200))


permit_drivers = db.Table(
    "permit_driver",
    db.Column("permit_id", db.Integer, db.ForeignKey("permit.id"), primary_key=True),
    db.Column("operator_id", db.Integer, db.ForeignKey("operator.id"), primary_key=True),
)


# Statuses that still hold a vacancy and a place at a ponto.
OCCUPYING = ("ativo", "suspenso", "vencido")


class Permit(db.Model):
    """Alvará / termo de permissão. Status changes only through permits.operations."""
    __table_args__ = (db.UniqueConstraint("municipality_id", "number"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    number = db.Column(db.String(PERMIT_NUMBER_MAX), nullable=False, index=True)  # order number
    kind = db.Column(db.String(20), nullable=False, default="alvara")
    # Holder: a natural person (Sapezal, Paranatinga) or a company (Nortelândia).
    holder_operator_id = db.Column(db.Integer, db.ForeignKey("operator.id"), nullable=True, index=True)
    holder_company_id = db.Column(db.Integer, db.ForeignKey("company.id"), nullable=True, index=True)
    vehicle_id = db.Column(db.Integer, db.ForeignKey("vehicle.id"), nullable=True, index=True)
    ponto_id = db.Column(db.Integer, db.ForeignKey("ponto.id"), nullable=True, index=True)
    issued_on = db.Column(db.Date, nullable=False)
    valid_from = db.Column(db.Date, nullable=False)
    valid_until = db.Column(db.Date, nullable=False, index=True)
    status = db.Column(db.String(12), nullable=False, default="ativo", index=True)
    status_changed_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    suspended_until = db.Column(db.Date)  # set while status is "suspenso"
    # Insurance and vistorias are records of their own (issuance.models); taxes are never presumed
    # paid: "sem_info" (desconhecido) until the back office records the situation.
    issqn_status = db.Column(db.String(10), nullable=False, default=ISSQN_UNKNOWN)
    # Holder's number in the municipal taxpayer register, printed on the alvará where the law asks
    # for it (Sapezal Lei 125/1999, art. 9º, III); fed to the rules as permit.taxpayer_number_recorded.
    taxpayer_number = db.Column(db.String(30))
    notes = db.Column(db.Text)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    updated_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, onupdate=utcnow)

    holder_operator = db.relationship("Operator", foreign_keys=[holder_operator_id])
    holder_company = db.relationship("Company")
    vehicle = db.relationship("Vehicle")
    ponto = db.relationship("Ponto")
    drivers = db.relationship("Operator", secondary=permit_drivers, order_by="Operator.name")
    history = db.relationship("PermitStatusChange", back_populates="permit",
                              order_by="PermitStatusChange.id")

    @property
    def holder_name(self):
        if self.holder_company is not None:
            return self.holder_company.legal_name
        return self.holder_operator.name if self.holder_operator else "—"

    @property
    def main_driver(self):
        """The driver shown on the crachá: the holder when a person, else the first driver."""
        if self.holder_operator is not None:
            return self.holder_operator
        return self.drivers[0] if self.drivers else None


class PermitStatusChange(db.Model):
    """Full status history of a permit (also in the audit log, kept here for fast display)."""
    id = db.Column(db.Integer, primary_key=True)
    permit_id = db.Column(db.Integer, db.ForeignKey("permit.id"), nullable=False, index=True)
    from_status = db.Column(db.String(12))
    to_status = db.Column(db.String(12), nullable=False)
    action = db.Column(db.String(20), nullable=False)  # issue, renew, suspend, cassar, extinguish…
    at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    actor_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    reason = db.Column(db.Text)
    valid_until = db.Column(db.Date)  # the validity after the change (renewals)

    permit = db.relationship("Permit", back_populates="history")
    actor = db.relationship("User")
