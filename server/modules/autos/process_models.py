"""What follows the homologation of an auto: the notification sent to the operator (a signed
document, re-printed identically), how and when it was served, each defence or appeal with its
decision, the state of each penalty, payments and seizures (the operator's ledger)."""
from ...extensions import db
from .models import utcnow

# How the operator was notified. Deadlines run from `served_on` whatever the way (SPEC start
# events `notificacao` / `intimacao`): the day of the roadside signature, of the hand delivery,
# the AR's receipt date, or the edital's publication.
SERVICE_WAYS = {
    "assinatura_local": "Assinatura do autuado no auto, no local da infração",
    "pessoal": "Entrega pessoal, com recibo",
    "postal_ar": "Correio com aviso de recebimento (AR)",
    "edital": "Edital publicado",
    # Only with a municipal act admitting it, to an operator who adhered (issue 37): the day the
    # operator confirmed the ciência in the app (notices.operations.acknowledge).
    "eletronica": "Intimação eletrônica, ciência confirmada pelo autuado no aplicativo",
}
APPEAL_DECISIONS = {"deferido": "Deferido", "indeferido": "Indeferido"}
# How the operator learnt of a decision (its ciência, from which the next instance runs).
DECISION_SERVICE_WAYS = {
    "pessoal": "Notificação da decisão entregue pessoalmente, com recibo",
    "postal_ar": "Notificação da decisão por correio com AR (data do recebimento)",
    "publicacao": "Publicação da decisão",
}
# pendente: deadlines running or a decision awaited; suspensa: a suspensive appeal is pending;
# aplicada: AppliedPenalty written; anulada: the operator won (or the auto was voided);
# registro_cancelado: the quiet period passed (Paranatinga art. 44).
PENALTY_STATES = ("pendente", "suspensa", "aplicada", "anulada", "registro_cancelado")
SEIZURE_KINDS = {"apreensao": "Apreensão", "remocao": "Remoção"}


class AutoNotification(db.Model):
    """The notificação de autuação of one homologated auto. `content` is the canonical JSON the
    PDF and the public page are drawn from; its hash is inside the signed payload, so a changed
    row no longer verifies and a re-print of the same row is byte-for-byte the same text."""
    __tablename__ = "auto_notification"
    __table_args__ = (db.UniqueConstraint("municipality_id", "serial"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    case_id = db.Column(db.Integer, db.ForeignKey("auto_case.id"), nullable=False, unique=True)
    serial = db.Column(db.BigInteger, nullable=False)  # per municipality, carried in the QR
    number = db.Column(db.String(40), nullable=False)  # "NOT-<auto number>", printed
    issued_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    issued_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    content = db.Column(db.Text, nullable=False)  # canonical JSON (sorted keys, no spaces)
    content_hash = db.Column(db.String(64), nullable=False)  # hex sha256 of content
    issuer_key_id = db.Column(db.Integer, db.ForeignKey("issuer_key.id"), nullable=False)
    payload = db.Column(db.Text, nullable=False)  # the QR text HTTPS://HOST/N/<base32>
    # Service (ciência): how and when the operator learnt of it.
    served_via = db.Column(db.String(20))
    served_on = db.Column(db.Date)
    served_note = db.Column(db.Text)  # AR number, edital's publication, who received it
    served_recorded_at = db.Column(db.DateTime(timezone=True))

    case = db.relationship("AutoCase")


class AutoAppeal(db.Model):
    """A defence or appeal (recurso) filed at one instance, and the decision on it."""
    __tablename__ = "auto_appeal"
    __table_args__ = (db.UniqueConstraint("municipality_id", "protocol_seq"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    case_id = db.Column(db.Integer, db.ForeignKey("auto_case.id"), nullable=False, index=True)
    level = db.Column(db.Integer, nullable=False)  # 1 = first instance, 2 = second…
    deadline_id = db.Column(db.String(80), nullable=False)  # the pack deadline it answers
    instance_pt = db.Column(db.String(200), nullable=False)  # the authority, as the law names it
    filed_on = db.Column(db.Date, nullable=False)
    due_on = db.Column(db.Date)  # the deadline when filed (null: not configured)
    late = db.Column(db.Boolean, nullable=False, default=False)  # intempestiva
    suspensive = db.Column(db.Boolean, nullable=False, default=False)
    summary = db.Column(db.Text, nullable=False)
    decision = db.Column(db.String(12))  # deferido | indeferido
    decision_text = db.Column(db.Text)
    decided_on = db.Column(db.Date)
    # Ciência of the decision (issue 35): the next instance's period runs from it (Paranatinga
    # art. 48: "Da nova decisão, caberá recurso … observando o mesmo prazo", counted "a contar do
    # recebimento da notificação"). Entered by the clerk; null while unknown — that period has not
    # started (outcome.py).
    decision_known_on = db.Column(db.Date)
    decision_known_via = db.Column(db.String(20))  # DECISION_SERVICE_WAYS
    decision_known_note = db.Column(db.Text)  # AR number, the publication, who received it
    # Deferido for one infraction only (null: the whole auto).
    decision_infraction_id = db.Column(db.String(80))
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    # The protocol (issue 37): every filing gets a number per municipality and the moment it was
    # received — at the counter (source "balcao", typed by a clerk) or from the operator's app
    # ("app": the server's receipt is the protocol; the phone's clock is kept as drafted_at only).
    protocol_seq = db.Column(db.Integer)
    protocol = db.Column(db.String(20))  # "<year>/<seq, 6 digits>", printed on the receipt
    received_at = db.Column(db.DateTime(timezone=True))
    source = db.Column(db.String(10), nullable=False, default="balcao")
    # From the app: the phone's UUID (a resend is the same filing), the SHA-256 of what was sent
    # (same id, other content = a conflict, never an overwrite), attachments by hash, who filed.
    client_id = db.Column(db.String(36), unique=True)
    content_hash = db.Column(db.String(64))
    attachments = db.Column(db.JSON)  # [{"sha256", "content_type", "size"}]
    drafted_at = db.Column(db.DateTime(timezone=True))
    filed_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)


class AutoPenalty(db.Model):
    """One confirmed infraction of a homologated auto and where its penalty stands."""
    __tablename__ = "auto_penalty"
    __table_args__ = (db.UniqueConstraint("case_id", "infraction_id"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    case_id = db.Column(db.Integer, db.ForeignKey("auto_case.id"), nullable=False, index=True)
    infraction_id = db.Column(db.String(80), nullable=False)
    penalty = db.Column(db.String(30))
    amount_brl_cents = db.Column(db.BigInteger)
    operator_id = db.Column(db.Integer, db.ForeignKey("operator.id"), nullable=True, index=True)
    permit_id = db.Column(db.Integer, db.ForeignKey("permit.id"), nullable=True, index=True)
    state = db.Column(db.String(20), nullable=False, default="pendente", index=True)
    state_reason = db.Column(db.Text)
    applied_on = db.Column(db.Date)
    applied_penalty_id = db.Column(db.Integer, db.ForeignKey("applied_penalty.id"), nullable=True)
    updated_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    # The payment that settled this fine (a reconciled PIX credit or a clerk's guia; issue 37):
    # the ledger shows it paid. Null = not paid (or not a fine).
    paid_payment_id = db.Column(db.Integer, db.ForeignKey("auto_payment.id"), nullable=True)


# What an operator may attach to a filing (issue 37): photos with the evidence photos' checks, or a PDF.
ATTACHMENT_TYPES = {"image/jpeg": "jpg", "image/png": "png", "application/pdf": "pdf"}


class FilingAttachment(db.Model):
    """A file attached to a defence or appeal, stored by the SHA-256 of its bytes (storage area
    "filings"), uploaded before the filing that cites it (the outbox's photo order)."""
    __tablename__ = "filing_attachment"
    __table_args__ = (db.UniqueConstraint("municipality_id", "sha256"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    sha256 = db.Column(db.String(64), nullable=False)
    content_type = db.Column(db.String(40), nullable=False)
    size = db.Column(db.Integer, nullable=False)
    uploaded_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class AutoPayment(db.Model):
    """A payment the clerk recorded against an auto (guia de recolhimento)."""
    __tablename__ = "auto_payment"
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    case_id = db.Column(db.Integer, db.ForeignKey("auto_case.id"), nullable=False, index=True)
    guia_number = db.Column(db.String(40), nullable=False)
    paid_on = db.Column(db.Date, nullable=False)
    amount_cents = db.Column(db.BigInteger, nullable=False)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class Seizure(db.Model):
    """Apreensão or remoção of a moto, and its release."""
    __tablename__ = "seizure"
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    case_id = db.Column(db.Integer, db.ForeignKey("auto_case.id"), nullable=False, index=True)
    kind = db.Column(db.String(12), nullable=False)  # apreensao | remocao
    seized_on = db.Column(db.Date, nullable=False)
    released_on = db.Column(db.Date)
    release_alvara = db.Column(db.String(60))  # the permit/alvará shown at release
    release_payment_id = db.Column(db.Integer, db.ForeignKey("auto_payment.id"), nullable=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


# Fees of a seizure (issue 11). No law sets an amount: Sapezal art. 27 names an "eventual taxa de
# remoção", Paranatinga art. 45 a removal to the place the secretariat sets; the amounts and the
# act that sets them are municipal settings (process_settings.py), copied onto each seizure when
# it is recorded, so a later change of the settings never reprices a seizure already made.
FEE_KINDS = {"remocao": "Taxa de remoção", "estadia": "Diárias do pátio (estadia)"}
# How the days of storage are counted, as the act that sets the daily fee says (no law does).
STORAGE_DAY_COUNTS = {
    "dia_ou_fracao": "Por dia ou fração: cada dia no pátio, contando o da apreensão e o da liberação",
    "pernoite": "Por pernoite: dias entre a apreensão e a liberação (liberada no mesmo dia: nenhuma diária)",
}


class SeizureCharge(db.Model):
    """One fee charged for a seizure: the removal once, or the daily storage (its days are counted
    up to the release, or up to today while the moto is held)."""
    __tablename__ = "seizure_charge"
    __table_args__ = (db.UniqueConstraint("seizure_id", "kind"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    seizure_id = db.Column(db.Integer, db.ForeignKey("seizure.id"), nullable=False, index=True)
    kind = db.Column(db.String(12), nullable=False)  # remocao | estadia
    unit_cents = db.Column(db.BigInteger, nullable=False)  # the fee, or the fee per day
    act = db.Column(db.String(300), nullable=False)  # the act that set it, as the clerk entered it
    day_count = db.Column(db.String(16))  # estadia: a STORAGE_DAY_COUNTS key
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class SeizureFeePayment(db.Model):
    """A payment of one seizure fee (guia), never confused with the payment of the fine."""
    __tablename__ = "seizure_fee_payment"
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    seizure_id = db.Column(db.Integer, db.ForeignKey("seizure.id"), nullable=False, index=True)
    charge_id = db.Column(db.Integer, db.ForeignKey("seizure_charge.id"), nullable=False, index=True)
    guia_number = db.Column(db.String(40), nullable=False)
    paid_on = db.Column(db.Date, nullable=False)
    amount_cents = db.Column(db.BigInteger, nullable=False)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
