"""The PIX charge of each fine, and the bank statements imported to find its payment (issue 37)."""
from ...extensions import db
from ..autos.models import utcnow

# aberta: payable (a slip can be shown); paga: a payment settled it; cancelada: the penalty was
# annulled (or the auto voided) before payment.
CHARGE_STATES = {"aberta": "Em aberto", "paga": "Paga", "cancelada": "Cancelada (penalidade anulada)"}
# conciliada: matched by txid and amount, payment recorded; pendente: waits for a clerk (why in
# `reason`); vinculada: a clerk linked it to a fine; descartada: a clerk said it is not a fine's
# payment (with a reason); ignorada: a debit, never a fine's payment.
LINE_STATES = {"conciliada": "Conciliada automaticamente", "pendente": "Aguardando o setor",
               "vinculada": "Vinculada pelo setor", "descartada": "Descartada pelo setor", "ignorada": "Débito (ignorado)"}


class PixCharge(db.Model):
    """One fine made payable: its txid (the BR Code's reference label, unique), the amount, and
    the DAM number where the municipality issues one. The BR Code itself is built from the
    municipal settings each time it is shown (brcode.build), so nothing here can disagree with them."""
    __tablename__ = "pix_charge"
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    penalty_id = db.Column(db.Integer, db.ForeignKey("auto_penalty.id"), nullable=False, unique=True)
    case_id = db.Column(db.Integer, db.ForeignKey("auto_case.id"), nullable=False, index=True)
    txid = db.Column(db.String(25), nullable=False, unique=True)
    amount_cents = db.Column(db.BigInteger, nullable=False)
    applied_on = db.Column(db.Date, nullable=False)  # the penalty's application: any due date counts from it
    dam_number = db.Column(db.String(40))  # typed by the clerk from the municipal tax system, when used
    state = db.Column(db.String(12), nullable=False, default="aberta", index=True)
    paid_on = db.Column(db.Date)
    payment_id = db.Column(db.Integer, db.ForeignKey("auto_payment.id"), nullable=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class StatementImport(db.Model):
    """A bank statement file imported by a clerk; the same file twice is refused (its hash)."""
    __tablename__ = "statement_import"
    __table_args__ = (db.UniqueConstraint("municipality_id", "sha256"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    filename = db.Column(db.String(200), nullable=False)
    sha256 = db.Column(db.String(64), nullable=False)
    file_format = db.Column(db.String(8), nullable=False)  # ofx | csv
    account = db.Column(db.String(80))  # bank/branch/account read from the file (OFX), if any
    imported_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    imported_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    lines_total = db.Column(db.Integer, nullable=False, default=0)
    lines_new = db.Column(db.Integer, nullable=False, default=0)  # not seen in an earlier file
    lines_matched = db.Column(db.Integer, nullable=False, default=0)
    lines_pending = db.Column(db.Integer, nullable=False, default=0)


class StatementLine(db.Model):
    """One transaction of a statement. A line is stored once per municipality, account and bank id
    (FITID), so overlapping statements never count a payment twice."""
    __tablename__ = "statement_line"
    __table_args__ = (db.UniqueConstraint("municipality_id", "account", "bank_id"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    import_id = db.Column(db.Integer, db.ForeignKey("statement_import.id"), nullable=False, index=True)
    account = db.Column(db.String(80), nullable=False, default="")
    bank_id = db.Column(db.String(120), nullable=False)  # FITID, or the CSV's id (else a hash of the line)
    posted_on = db.Column(db.Date, nullable=False)
    amount_cents = db.Column(db.BigInteger, nullable=False)  # credits positive
    description = db.Column(db.String(500), nullable=False, default="")
    txid = db.Column(db.String(25))  # the txid read from the line, when one was found
    state = db.Column(db.String(12), nullable=False, index=True)
    reason = db.Column(db.String(300))  # why it waits for a clerk, or what was done
    charge_id = db.Column(db.Integer, db.ForeignKey("pix_charge.id"), nullable=True)
    payment_id = db.Column(db.Integer, db.ForeignKey("auto_payment.id"), nullable=True)
    resolved_by_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)
    resolved_at = db.Column(db.DateTime(timezone=True))
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
