"""Fines made payable: one PixCharge per applied fine (txid per fine), its slip (the BR Code, the
copia-e-cola text, the DAM number, what is due on a given day) and its settlement.

A charge is opened when a fine's penalty becomes applied with a known amount in reais (autos
announces penalty_changed; server/subscriptions.py connects `on_penalty_changed`) and cancelled
when the penalty is annulled before payment. The slip is built from the municipal settings when
shown, so an unset key gives no slip and the words why (settings.slip_refusal)."""
from ...core.audit import record
from ...core.clock import local_today
from ...core.ptbr import brl_cents, date_br
from ...core.tenancy import owned
from ...extensions import db
from ...rules.legal_calendar import deadline, rule_text
from ..autos.models import AutoCase
from ..autos.process_models import AutoPayment, AutoPenalty
from ..fieldsync.models import FieldRecord
from ..calendar.service import calendar_of
from ..registry.models import Municipality
from ...core.signals import announce
from . import brcode
from .models import PixCharge
from .signals import charge_paid
from .settings import collection_settings, invalid, late_additions, slip_refusal

FINE = "multa"


def on_penalty_changed(case, penalty=None, old=None, new=None, **_):
    """autos.signals.penalty_changed receiver, in the change's transaction (never commits)."""
    if penalty is None:
        return
    if new == "aplicada":
        ensure_charge(case, penalty)
    elif new == "anulada":
        charge = PixCharge.query.filter_by(penalty_id=penalty.id, municipality_id=penalty.municipality_id).first()
        if charge is not None and charge.state == "aberta":
            charge.state = "cancelada"
            record("pix_charge_cancel", "pix_charge", charge.id, {"state": "aberta"}, {"state": "cancelada"},
                   reason=penalty.state_reason, municipality_id=charge.municipality_id)


def ensure_charge(case, penalty):
    """The charge of an applied fine (idempotent); None when the penalty is not a fine with an
    amount in reais (an advertência, or a decree amount nobody configured)."""
    if penalty.penalty != FINE or not penalty.amount_brl_cents or penalty.applied_on is None:
        return None
    charge = PixCharge.query.filter_by(penalty_id=penalty.id, municipality_id=penalty.municipality_id).first()
    if charge is not None:
        if charge.state == "cancelada":  # a later decision applied it again
            charge.state = "aberta"
        return charge
    municipality = db.session.get(Municipality, case.municipality_id)
    charge = PixCharge(municipality_id=case.municipality_id, penalty_id=penalty.id, case_id=case.id,
                       txid=brcode.txid_for(municipality.ibge_code, penalty.id), amount_cents=penalty.amount_brl_cents,
                       applied_on=penalty.applied_on, state="aberta")
    db.session.add(charge)
    db.session.flush()
    record("pix_charge_open", "pix_charge", charge.id, None,
           {"txid": charge.txid, "amount_cents": charge.amount_cents, "applied_on": charge.applied_on.isoformat()},
           municipality_id=charge.municipality_id)
    return charge


def due_on(charge, settings, municipality):
    """The last day to pay, when an act fixes the days (calendar days from the application, the
    last one moved off a day without office hours: Código Civil art. 132); else None."""
    if not settings.get("due_days") or not settings.get("due_act"):
        return None
    return deadline(calendar_of(municipality), charge.applied_on, settings["due_days"], "cc_132")


def amount_due(charge, on_date, settings=None, municipality=None) -> tuple[int, str | None]:
    """(cents due if paid on `on_date`, why more than the fine — or None)."""
    municipality = municipality or db.session.get(Municipality, charge.municipality_id)
    settings = settings if settings is not None else collection_settings(municipality)
    extra, words = late_additions(charge.amount_cents, due_on(charge, settings, municipality), on_date, settings)
    return charge.amount_cents + extra, words


def slip(charge, today=None) -> dict:
    """What the operator and the notificação de penalidade show: BR Code (None, with why_pt, when
    it cannot be made), copia-e-cola, txid, DAM, the amount due today and the due date's rule."""
    today = today or local_today()
    municipality = db.session.get(Municipality, charge.municipality_id)
    settings = collection_settings(municipality)
    due = due_on(charge, settings, municipality)
    cents, late_pt = amount_due(charge, today, settings, municipality)
    case = owned(AutoCase, charge.case_id, charge.municipality_id)
    out = {"txid": charge.txid, "state": charge.state, "base_cents": charge.amount_cents, "amount_cents": cents,
           "amount_pt": brl_cents(cents), "late_pt": late_pt, "due_on": due.isoformat() if due else None,
           "due_pt": (f"Vencimento em {date_br(due)} ({settings['due_days']} dias da aplicação; {settings['due_act']}; "
                      f"{rule_text('cc_132')})." if due else
                      "Nenhum ato municipal fixa prazo de pagamento: a multa não tem vencimento nem acréscimo."),
           "dam_number": charge.dam_number, "auto_number": case.number if case else None,
           "paid_on": charge.paid_on.isoformat() if charge.paid_on else None,
           "receiver_pt": None, "brcode": None, "why_pt": None, "valid_on": today.isoformat()}
    if charge.state == "paga":
        out["why_pt"] = f"Multa paga em {date_br(charge.paid_on)}."
        return out
    if charge.state == "cancelada":
        out["why_pt"] = "Penalidade anulada: nada a pagar."
        return out
    refusal = slip_refusal(settings)
    if refusal is None and settings.get("dam_used") and not charge.dam_number:
        refusal = ("A Prefeitura emite DAM para cada multa e o número deste ainda não foi registrado pelo setor de "
                   "tributação: o código PIX sai com ele.")
    if refusal:
        out["why_pt"] = refusal
        return out
    info = f"AUTO {case.number}" if case and case.number else None
    if charge.dam_number:
        info = f"{info or ''} DAM {charge.dam_number}".strip()
    try:
        out["brcode"] = brcode.build(key=settings["pix_key"], name=settings["pix_receiver_name"],
                                     city=settings["pix_city"], cents=cents, txid=charge.txid, info=info)
    except brcode.BRCodeError as exc:
        out["why_pt"] = f"Configuração PIX incompleta: {exc}"
        return out
    out["receiver_pt"] = (f"{brcode.plain(settings['pix_receiver_name'], 99)} — chave "
                          f"{brcode.KEY_TYPES.get(settings.get('pix_key_type'), 'PIX')} {settings['pix_key']} "
                          f"({settings['pix_act']})")
    if late_pt or due:
        out["valid_pt"] = (f"Valor para pagamento até hoje, {date_br(today)}." if late_pt
                           else f"Valor para pagamento até o vencimento, {date_br(due)}.")
    return out


def settle(charge, payment, line=None, actor=None):
    """Mark the charge paid by `payment` and close the fine in the ledger, in the caller's transaction."""
    charge.state, charge.paid_on, charge.payment_id = "paga", payment.paid_on, payment.id
    penalty = owned(AutoPenalty, charge.penalty_id, charge.municipality_id)
    if penalty is not None:
        penalty.paid_payment_id = payment.id
    record("pix_charge_paid", "pix_charge", charge.id, {"state": "aberta"},
           {"state": "paga", "paid_on": payment.paid_on.isoformat(), "payment_id": payment.id,
            "statement_line_id": getattr(line, "id", None)}, municipality_id=charge.municipality_id, actor=actor)
    announce(charge_paid, charge, payment=payment)


def record_pix_payment(charge, paid_on, cents, actor=None):
    """The AutoPayment of a PIX credit (the txid is its guia number), in the case's payments."""
    payment = AutoPayment(municipality_id=charge.municipality_id, case_id=charge.case_id,
                          guia_number=f"PIX {charge.txid}"[:40], paid_on=paid_on, amount_cents=cents)
    db.session.add(payment)
    db.session.flush()
    record("auto_payment", "auto_payment", payment.id, None,
           {"guia": payment.guia_number, "paid_on": paid_on.isoformat(), "amount_cents": cents},
           municipality_id=charge.municipality_id, actor=actor)
    return payment


def charges_of_case(case):
    return PixCharge.query.filter_by(case_id=case.id, municipality_id=case.municipality_id).order_by(PixCharge.id).all()


def set_dam_number(charge, number, actor=None):
    number = " ".join((number or "").split())
    if not number or len(number) > 40 or not all(ch.isalnum() or ch in "-./ " for ch in number):
        raise invalid("dam_number", "Informe o número do DAM (até 40 letras, algarismos, - . /).")
    before = charge.dam_number
    charge.dam_number = number
    record("pix_charge_dam", "pix_charge", charge.id, {"dam_number": before}, {"dam_number": number},
           municipality_id=charge.municipality_id, actor=actor)
    return charge


def operator_sections(user, **_):
    """autos.signals.operator_auto_sections receiver: {"payment": {auto record id: {"charges": [slip…]}}}."""
    if user.operator_id is None:
        return {"payment": {}}
    rows = (db.session.query(PixCharge, AutoCase.record_id)
            .join(AutoCase, (AutoCase.id == PixCharge.case_id) & (AutoCase.municipality_id == PixCharge.municipality_id))
            .join(FieldRecord, (FieldRecord.id == AutoCase.record_id)
                  & (FieldRecord.municipality_id == AutoCase.municipality_id))
            .filter(PixCharge.municipality_id == user.municipality_id, FieldRecord.operator_id == user.operator_id)
            .order_by(PixCharge.id).all())
    out = {}
    today = local_today()
    for charge, record_id in rows:
        out.setdefault(record_id, {"charges": []})["charges"].append(slip(charge, today))
    return {"payment": out}
