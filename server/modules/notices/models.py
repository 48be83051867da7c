"""Where an operator is told (NoticeContact), and every message to them (Notice) with each try."""
from ...extensions import db
from ..autos.models import utcnow

# aviso: information only — deadlines run from the service recorded by the municipality;
# intimacao: electronic service, only where a recorded act admits it and the operator adhered.
NATURES = {"aviso": "Aviso", "intimacao": "Intimação eletrônica"}
KINDS = {
    "notificacao": "Notificação de autuação",
    "recibo": "Recibo de protocolo",
    "decisao": "Decisão de defesa ou recurso",
    "penalidade": "Notificação de penalidade (multa a pagar)",
    "prazo": "Prazo terminando",
    "pagamento": "Pagamento recebido",
}
# Optional notices: the operator may refuse them. The others carry the process itself.
OPTIONAL_KINDS = ("prazo", "pagamento")
CHANNELS = {"email": "E-mail", "sms": "SMS", "whatsapp": "WhatsApp", "nenhum": "Nenhum canal"}
STATES = {
    "pendente": "Na fila de envio", "enviando": "Enviando", "enviado": "Enviado",
    "falhou": "Falhou — nova tentativa marcada", "desistiu": "Falhou — tentativas esgotadas",
    "sem_canal": "Não enviado: sem contato eletrônico", "recusado": "Não enviado: o operador recusou avisos opcionais",
}


class NoticeContact(db.Model):
    """The operator's addresses for notices, as recorded by the back office (the operator gives
    them at the counter) and the operator's own choices."""
    __tablename__ = "notice_contact"
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    operator_id = db.Column(db.Integer, db.ForeignKey("operator.id"), nullable=False, unique=True)
    email = db.Column(db.String(254))
    mobile = db.Column(db.String(20))  # +55DDDNNNNNNNNN
    sms = db.Column(db.Boolean, nullable=False, default=False)
    whatsapp = db.Column(db.Boolean, nullable=False, default=False)
    # The operator declared these addresses for electronic service (a signed term at the counter):
    # with a municipal act admitting it, the notificação sent there is an intimação.
    adhered_on = db.Column(db.Date)
    adhesion_ref = db.Column(db.String(200))  # the term's number or where it is filed
    optional_opt_out = db.Column(db.Boolean, nullable=False, default=False)
    updated_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class Notice(db.Model):
    """One message to one address over one channel, or the record that none could be sent."""
    __tablename__ = "notice"
    __table_args__ = (db.UniqueConstraint("municipality_id", "dedupe_key", "channel"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    operator_id = db.Column(db.Integer, db.ForeignKey("operator.id"), nullable=False, index=True)
    case_id = db.Column(db.Integer, db.ForeignKey("auto_case.id"), nullable=True, index=True)
    kind = db.Column(db.String(16), nullable=False)
    nature = db.Column(db.String(10), nullable=False, default="aviso")
    nature_basis = db.Column(db.String(300))  # the act admitting electronic service, for an intimação
    optional = db.Column(db.Boolean, nullable=False, default=False)
    dedupe_key = db.Column(db.String(120), nullable=False)  # one notice per event and channel
    channel = db.Column(db.String(10), nullable=False)
    address = db.Column(db.String(254))  # blanked when the operator's data is anonymised (LGPD)
    subject = db.Column(db.String(200), nullable=False)
    body = db.Column(db.Text, nullable=False)
    link = db.Column(db.String(500))
    attachment = db.Column(db.String(60))  # what is attached, rebuilt when sent: "notification:<id>", "penalty:<case>"
    state = db.Column(db.String(10), nullable=False, default="pendente", index=True)
    attempts = db.Column(db.Integer, nullable=False, default=0)
    next_attempt_at = db.Column(db.DateTime(timezone=True))
    claimed_at = db.Column(db.DateTime(timezone=True))
    provider = db.Column(db.String(60))
    provider_answer = db.Column(db.String(500))  # the provider's last answer (SMTP reply, API status…)
    sent_at = db.Column(db.DateTime(timezone=True))
    read_at = db.Column(db.DateTime(timezone=True))  # opened in the operator's app
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, index=True)


class NoticeAttempt(db.Model):
    """Each try to send a notice: when, through which provider, and what it answered."""
    __tablename__ = "notice_attempt"
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    notice_id = db.Column(db.Integer, db.ForeignKey("notice.id"), nullable=False, index=True)
    at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    ok = db.Column(db.Boolean, nullable=False)
    provider = db.Column(db.String(60), nullable=False)
    answer = db.Column(db.String(500), nullable=False)
