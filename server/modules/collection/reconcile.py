"""Importing a bank statement and matching its credits to the fines' PIX charges (issue 37).

A credit whose text carries a charge's txid and whose amount is what that fine costs on the day it
was posted (settings.late_additions: the fine itself unless an act adds something) is reconciled:
an AutoPayment is recorded with the txid as its guia, the charge is paid and the fine closes in the
ledger. Everything else waits for a clerk with the reason (no txid, unknown txid, another amount,
already paid, annulled), who links it to a fine or discards it, with a justification either way.
Debits are kept as ignored. A line seen in an earlier file (same account and bank id) is not
stored again, and the same file twice is refused."""
import hashlib
import re

from sqlalchemy.exc import IntegrityError

from ...core.audit import record
from ...core.errors import ApiError
from ...core.ptbr import brl_cents, date_br
from ...core.tenancy import owned
from ...extensions import db
from ..autos.models import utcnow
from ..registry.models import Municipality
from . import charges as charge_ops
from .models import PixCharge, StatementImport, StatementLine
from .settings import collection_settings, invalid
from .statement import StatementError, parse

MAX_BYTES = 5 * 1024 * 1024
TXID_IN_TEXT = re.compile(r"MF\s*(\d{7})\s*M\s*(\d{8})", re.I)
REASON_MIN = 10


def find_txid(text: str) -> str | None:
    match = TXID_IN_TEXT.search(text or "")
    return f"MF{match.group(1)}M{match.group(2)}" if match else None


def import_statement(municipality, filename, data, actor=None):
    """Read, store and match a statement file; returns the StatementImport (staged and flushed)."""
    if not data:
        raise invalid("file", "Escolha o arquivo do extrato (OFX ou CSV).")
    if len(data) > MAX_BYTES:
        raise invalid("file", f"Arquivo grande demais (máximo {MAX_BYTES // (1024 * 1024)} MB).")
    digest = hashlib.sha256(data).hexdigest()
    earlier = StatementImport.query.filter_by(municipality_id=municipality.id, sha256=digest).first()
    if earlier is not None:
        raise invalid("file", f"Este arquivo já foi importado em {date_br(earlier.imported_at.date())} "
                              f"(importação nº {earlier.id}).")
    try:
        file_format, account, lines = parse(data, filename or "")
    except StatementError as exc:
        raise invalid("file", str(exc)) from None
    batch = StatementImport(municipality_id=municipality.id, filename=(filename or "extrato")[:200], sha256=digest,
                            file_format=file_format, account=account or None, imported_by_id=getattr(actor, "id", None),
                            lines_total=len(lines))
    db.session.add(batch)
    try:
        db.session.flush()
    except IntegrityError:  # the same file imported at the same moment by another clerk
        db.session.rollback()
        raise invalid("file", "Este arquivo acabou de ser importado.") from None
    settings = collection_settings(municipality)
    known = {row.bank_id for row in StatementLine.query.filter(
        StatementLine.municipality_id == municipality.id, StatementLine.account == (account or ""),
        StatementLine.bank_id.in_([line.bank_id for line in lines] or [""]))}
    for line in lines:
        if line.bank_id in known:
            continue
        known.add(line.bank_id)
        row = StatementLine(municipality_id=municipality.id, import_id=batch.id, account=account or "",
                            bank_id=line.bank_id, posted_on=line.posted_on, amount_cents=line.cents,
                            description=line.description, txid=find_txid(line.description), state="pendente")
        db.session.add(row)
        db.session.flush()
        _match(row, municipality, settings, actor)
        batch.lines_new += 1
        batch.lines_matched += row.state == "conciliada"
        batch.lines_pending += row.state == "pendente"
    record("statement_import", "statement_import", batch.id, None,
           {"filename": batch.filename, "format": file_format, "account": account, "lines": len(lines),
            "new": batch.lines_new, "matched": batch.lines_matched, "pending": batch.lines_pending},
           municipality_id=municipality.id, actor=actor)
    return batch


def _match(row, municipality, settings, actor):
    if row.amount_cents <= 0:
        row.state, row.reason = "ignorada", "Débito ou lançamento sem valor: não é pagamento de multa."
        return
    if row.txid is None:
        row.reason = "Crédito sem txid de multa no histórico."
        return
    charge = PixCharge.query.filter_by(municipality_id=municipality.id, txid=row.txid).first()
    if charge is None:
        row.reason = f"O txid {row.txid} não é de nenhuma multa deste município."
        return
    row.charge_id = charge.id
    if charge.state == "paga":
        row.reason = f"A multa {charge.txid} já estava paga em {date_br(charge.paid_on)}: pagamento em duplicidade?"
        return
    if charge.state == "cancelada":
        row.reason = f"A penalidade da multa {charge.txid} foi anulada: devolver o valor?"
        return
    expected, _why = charge_ops.amount_due(charge, row.posted_on, settings, municipality)
    if row.amount_cents != expected:
        row.reason = (f"Valor {brl_cents(row.amount_cents)} diferente do devido em {date_br(row.posted_on)}: "
                      f"{brl_cents(expected)}.")
        return
    payment = charge_ops.record_pix_payment(charge, row.posted_on, row.amount_cents, actor)
    charge_ops.settle(charge, payment, row, actor)
    row.state, row.payment_id = "conciliada", payment.id
    row.reason = f"Multa {charge.txid} paga (txid e valor conferem)."


def _pending(line):
    if line.state != "pendente":
        raise ApiError(409, "already_resolved", "Este lançamento já foi tratado.")


def link_line(line, txid, note, actor=None):
    """A clerk links a pending credit to a fine, with a justification; the fine is paid when the
    credit covers what is due on its day, else the payment is recorded and the charge stays open."""
    _pending(line)
    note = " ".join((note or "").split())
    if len(note) < REASON_MIN:
        raise invalid("note", f"Justifique (ao menos {REASON_MIN} caracteres).")
    txid = (txid or "").strip().upper()
    charge = PixCharge.query.filter_by(municipality_id=line.municipality_id, txid=txid).first() if txid else None
    if charge is None:
        raise invalid("txid", "Informe o txid de uma multa deste município (MF…M…).")
    if charge.state != "aberta":
        raise invalid("txid", f"A multa {charge.txid} não está em aberto ({charge.state}).")
    municipality = db.session.get(Municipality, line.municipality_id)
    payment = charge_ops.record_pix_payment(charge, line.posted_on, line.amount_cents, actor)
    expected, _why = charge_ops.amount_due(charge, line.posted_on, None, municipality)
    if line.amount_cents >= expected:
        charge_ops.settle(charge, payment, line, actor)
    line.state, line.charge_id, line.payment_id = "vinculada", charge.id, payment.id
    line.reason = note
    line.resolved_by_id, line.resolved_at = getattr(actor, "id", None), utcnow()
    record("statement_line_link", "statement_line", line.id, {"state": "pendente"},
           {"state": "vinculada", "txid": charge.txid, "paid": charge.state == "paga"}, reason=note,
           municipality_id=line.municipality_id, actor=actor)
    return line


def discard_line(line, note, actor=None):
    _pending(line)
    note = " ".join((note or "").split())
    if len(note) < REASON_MIN:
        raise invalid("note", f"Justifique (ao menos {REASON_MIN} caracteres).")
    line.state, line.reason = "descartada", note
    line.resolved_by_id, line.resolved_at = getattr(actor, "id", None), utcnow()
    record("statement_line_discard", "statement_line", line.id, {"state": "pendente"}, {"state": "descartada"},
           reason=note, municipality_id=line.municipality_id, actor=actor)
    return line


def owned_line(municipality_id, ident):
    return owned(StatementLine, ident, municipality_id)
