"""The ledger (ficha) of an operator or a permit: its autos, penalties and their state, payments
and seizures. Read-only; every row comes from the process tables, scoped by the caller."""
from sqlalchemy import or_, select

from ...core.clock import local_today
from ..fieldsync.models import FieldRecord
from .auto_data import amount_words
from .models import AutoCase
from .process_models import FEE_KINDS, AutoPayment, AutoPenalty, Seizure, SeizureCharge, SeizureFeePayment
from .seizure_fees import statement


def _cases(municipality_id, operator_ids, permit_id=None):
    by_operator = select(FieldRecord.id).where(FieldRecord.municipality_id == municipality_id,
                                               FieldRecord.operator_id.in_(operator_ids or [-1]))
    conditions = [AutoCase.record_id.in_(by_operator)]
    if permit_id is not None:
        conditions.append(AutoCase.id.in_(select(AutoPenalty.case_id).where(AutoPenalty.permit_id == permit_id)))
    return (AutoCase.query.filter(AutoCase.municipality_id == municipality_id, or_(*conditions))
            .order_by(AutoCase.created_at.desc(), AutoCase.id.desc()).all())


def ledger(municipality_id, operator_ids, permit_id=None) -> dict:
    cases = _cases(municipality_id, operator_ids, permit_id)
    ids = [c.id for c in cases] or [-1]
    numbers = {c.id: c.number for c in cases}
    # Every list in the ledger's municipality (core/tenancy.py): children of its cases only.
    mid = municipality_id
    seizures = Seizure.query.filter(Seizure.municipality_id == mid, Seizure.case_id.in_(ids)).order_by(Seizure.seized_on, Seizure.id).all()
    seizure_ids = [s.id for s in seizures] or [-1]
    charges = SeizureCharge.query.filter(SeizureCharge.municipality_id == mid, SeizureCharge.seizure_id.in_(seizure_ids)).order_by(SeizureCharge.id).all()
    fee_payments = SeizureFeePayment.query.filter(SeizureFeePayment.municipality_id == mid,
                                                  SeizureFeePayment.seizure_id.in_(seizure_ids)).all()
    today = local_today()
    payments = (AutoPayment.query.filter(AutoPayment.municipality_id == mid, AutoPayment.case_id.in_(ids))
                .order_by(AutoPayment.paid_on, AutoPayment.id).all())
    return {
        "cases": cases,
        "penalties": AutoPenalty.query.filter(AutoPenalty.municipality_id == mid, AutoPenalty.case_id.in_(ids))
        .order_by(AutoPenalty.case_id, AutoPenalty.id).all(),
        "payments": payments,
        # A fine settled by a payment (a reconciled PIX credit or a clerk's guia) closes here.
        "paid_on": {p.id: p.paid_on for p in payments},
        "seizures": seizures,
        # Fees of each seizure (removal, storage up to the release or today), what was paid, the balance.
        "fees": [(s, line) for s in seizures for line in statement(s, charges, fee_payments, today)["lines"]],
        "numbers": numbers,
    }


def csv_rows(data, kind, labels):
    numbers = data["numbers"]
    if kind == "autos":
        return (["Auto", "Recebido em", "Situação"],
                [[c.number, c.created_at, labels["case"].get(c.state, c.state)] for c in data["cases"]])
    if kind == "pagamentos":
        return (["Auto", "Guia", "Pago em", "Valor (R$)"],
                [[numbers.get(p.case_id), p.guia_number, p.paid_on, p.amount_cents / 100] for p in data["payments"]])
    if kind == "apreensoes":
        return (["Auto", "Medida", "Data", "Liberada em", "Alvará exibido"],
                [[numbers.get(s.case_id), labels["seizure"].get(s.kind, s.kind), s.seized_on, s.released_on,
                  s.release_alvara] for s in data["seizures"]])
    if kind == "taxas":
        return (["Auto", "Apreensão em", "Taxa", "Ato", "Diárias", "Devido (R$)", "Pago (R$)", "Em aberto (R$)"],
                [[numbers.get(s.case_id), s.seized_on, FEE_KINDS.get(line["charge"].kind), line["charge"].act,
                  line["days"], line["due_cents"] / 100, line["paid_cents"] / 100, line["balance_cents"] / 100]
                 for s, line in data["fees"]])
    return (["Auto", "Infração", "Situação", "Aplicada em", "Valor (R$)", "Motivo", "Quitada em"],
            [[numbers.get(p.case_id), p.infraction_id, labels["penalty"].get(p.state, p.state), p.applied_on,
              amount_words(None, penalty_kind=p.penalty) if p.amount_brl_cents is None else p.amount_brl_cents / 100,
              p.state_reason, data["paid_on"].get(p.paid_payment_id)]
             for p in data["penalties"]])
