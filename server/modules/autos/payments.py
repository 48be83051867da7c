"""Payments of an auto's fines, seizures of the moto (apreensão, remoção) with their fees, the
payments of those fees, and the release — each audited in its transaction."""
from ...core.audit import record
from ...core.clock import local_today
from ...core.errors import ApiError
from ...core.tenancy import owned
from ...core.ptbr import brl_cents, date_br
from ...extensions import db
from ..registry.models import Municipality
from ..rules.citations import format_citation
from ..rules.service import composed_for
from .auto_data import amount_brl, auto_data, confirmed_infractions
from .inputs import form_date, invalid_field, form_money, form_text
from .models import AutoCase
from .process_models import FEE_KINDS, SEIZURE_KINDS, AutoPayment, Seizure, SeizureCharge, SeizureFeePayment
from .process_settings import fee_settings
from .seizure_fees import statement


def record_payment(case, guia_number, paid_on, amount, actor=None):
    guia_number = form_text(guia_number, "guia_number", 1)[:40]
    paid_on = form_date(paid_on, "paid_on")
    cents = _positive(amount, "amount")
    payment = AutoPayment(municipality_id=case.municipality_id, case_id=case.id, guia_number=guia_number,
                          paid_on=paid_on, amount_cents=cents)
    db.session.add(payment)
    db.session.flush()
    record("auto_payment", "auto_payment", payment.id, None,
           {"guia": guia_number, "paid_on": paid_on.isoformat(), "amount_cents": cents},
           municipality_id=case.municipality_id, actor=actor)
    return payment


def _positive(amount, field):
    cents = form_money(amount if isinstance(amount, str) else str(amount), field)
    if cents is None:
        raise invalid_field(field, "Informe o valor em reais (ex.: 140,46).")
    if not 0 < cents < 10**11:
        raise invalid_field(field, "Informe um valor positivo.")
    return cents


def record_seizure(case, kind, seized_on, actor=None):
    """The seizure and, for each fee the municipality configured with its act, its charge: the
    removal once, the storage per day. With no fee configured nothing is charged."""
    if kind not in SEIZURE_KINDS:
        raise invalid_field("kind", "Escolha apreensão ou remoção.")
    seized_on = form_date(seized_on, "seized_on")
    seizure = Seizure(municipality_id=case.municipality_id, case_id=case.id, kind=kind, seized_on=seized_on)
    db.session.add(seizure)
    db.session.flush()
    fees = fee_settings(db.session.get(Municipality, case.municipality_id))
    charges = []
    for fee_kind in FEE_KINDS:
        fee = fees[fee_kind]
        if fee is None:
            continue
        charge = SeizureCharge(municipality_id=case.municipality_id, seizure_id=seizure.id, kind=fee_kind,
                               unit_cents=fee["cents"], act=fee["act"][:300], day_count=fee.get("day_count"))
        db.session.add(charge)
        charges.append({"kind": fee_kind, "unit_cents": fee["cents"], "act": fee["act"], "day_count": fee.get("day_count")})
    record("seizure", "seizure", seizure.id, None,
           {"kind": kind, "seized_on": seized_on.isoformat(), "charges": charges},
           municipality_id=case.municipality_id, actor=actor)
    return seizure


def seizure_statement(seizure, today=None):
    charges = SeizureCharge.query.filter_by(seizure_id=seizure.id).order_by(SeizureCharge.id).all()
    payments = (SeizureFeePayment.query.filter_by(seizure_id=seizure.id)
                .order_by(SeizureFeePayment.paid_on, SeizureFeePayment.id).all())
    return statement(seizure, charges, payments, today or local_today())


def record_fee_payment(seizure, charge_id, guia_number, paid_on, amount, actor=None):
    """A payment (guia) of one fee of the seizure, up to what it owes: the removal fee, or the
    storage days up to the release (or up to today while the moto is held)."""
    try:
        charge = owned(SeizureCharge, int(charge_id), seizure.municipality_id) if charge_id not in (None, "") else None
    except (TypeError, ValueError, OverflowError):
        charge = None
    if charge is None or charge.seizure_id != seizure.id:
        raise invalid_field("charge_id", "Escolha uma taxa cobrada nesta apreensão.")
    guia_number = form_text(guia_number, "guia_number", 1)[:40]
    paid_on = form_date(paid_on, "paid_on")
    if paid_on < seizure.seized_on:
        raise invalid_field("paid_on", "O pagamento não pode ser anterior à apreensão.")
    cents = _positive(amount, "amount")
    line = next(line for line in seizure_statement(seizure)["lines"] if line["charge"].id == charge.id)
    if cents > line["balance_cents"]:
        until = "até a liberação" if line["final"] else "até hoje"
        raise invalid_field("amount", f"O valor passa do que a taxa deve ({brl_cents(max(line['balance_cents'], 0))} {until}).")
    payment = SeizureFeePayment(municipality_id=seizure.municipality_id, seizure_id=seizure.id, charge_id=charge.id,
                                guia_number=guia_number, paid_on=paid_on, amount_cents=cents)
    db.session.add(payment)
    db.session.flush()
    record("seizure_fee_payment", "seizure_fee_payment", payment.id, None,
           {"seizure_id": seizure.id, "charge": charge.kind, "guia": guia_number, "paid_on": paid_on.isoformat(),
            "amount_cents": cents}, municipality_id=seizure.municipality_id, actor=actor)
    return payment


# Laws that condition a release, by rule pack: Paranatinga art. 45 § único.
RELEASE_CONDITIONS = {"paranatinga-lei-311-2007"}
ART45_PT = ("Lei 311/2007, art. 45, parágrafo único: o veículo só será liberado mediante exibição do "
            "alvará e do comprovante de pagamento da multa.")


# The fine whose payment art. 45 § único asks for: 132 UFIR vigentes na apreensão, in double on
# recidivism, as the auto states it (the phone's evaluator priced it with the unit value of that day).
ART45_FINE = "par.inf.art45_sem_alvara"


def _art45_fine_cents(case):
    """The auto's art. 45 fine in centavos, or None when the auto has none or states no amount in
    reais (the municipality had not configured the UFIR's value): then only a payment is asked."""
    for infraction in confirmed_infractions(auto_data(case)):
        brl = amount_brl(infraction)
        if infraction["id"] == ART45_FINE and brl is not None:
            return round(brl * 100)
    return None


def _release_needs_alvara_and_payment(municipality):
    return any(p.get("id") in RELEASE_CONDITIONS for p in composed_for(municipality).packs)


def seizure_law(municipality):
    """What the municipality's law says of seizures, for the screens: the measures of the packs
    (apreensão, remoção) with their citations, and the release rule (law, then setting)."""
    composed = composed_for(municipality)
    measures = []
    for infraction in composed.infractions:
        for measure in infraction.get("measures") or []:
            if measure.get("kind") in ("apreensao", "remocao"):
                text = f"{measure.get('label_pt')} ({format_citation(composed, measure.get('citation') or {})})"
                if text not in measures:
                    measures.append(text)
    release = [ART45_PT] if _release_needs_alvara_and_payment(municipality) else []
    if fee_settings(municipality)["release_requires_fees"]:
        release.append("Configuração municipal: as taxas de remoção e de pátio são pagas antes da liberação.")
    return {"measures": measures, "release": release}


def release_seizure(seizure, released_on, alvara, payment_id, actor=None):
    """Release of a seized moto: Paranatinga art. 45 § único asks for the alvará and the paid fine;
    the other laws set no condition. Where the municipality chose so (setting, default off), the
    fees computed up to the release day must be paid too."""
    if seizure.released_on is not None:
        raise ApiError(409, "already_released", "Esta moto já foi liberada.")
    released_on = form_date(released_on, "released_on")
    if released_on < seizure.seized_on:
        raise invalid_field("released_on", "A liberação não pode ser anterior à apreensão.")
    alvara = (alvara or "").strip()[:60] or None
    payment = None
    if payment_id not in (None, ""):
        try:
            payment = owned(AutoPayment, int(payment_id), seizure.municipality_id)
        except (TypeError, ValueError, OverflowError):
            payment = None
        if payment is None or payment.case_id != seizure.case_id:
            raise invalid_field("payment_id", "Escolha um pagamento registrado neste auto.")
    municipality = db.session.get(Municipality, seizure.municipality_id)
    fine = paid = None
    if _release_needs_alvara_and_payment(municipality):
        if not alvara:
            raise invalid_field("alvara", "Sem o alvará não há liberação. " + ART45_PT)
        if payment is None:
            raise invalid_field("payment_id", "Sem o comprovante de pagamento da multa não há liberação. " + ART45_PT)
        fine = _art45_fine_cents(owned(AutoCase, seizure.case_id, seizure.municipality_id))
        paid = sum(p.amount_cents for p in AutoPayment.query.filter_by(case_id=seizure.case_id)
                   if p.paid_on <= released_on)
        if fine is not None and paid < fine:
            raise invalid_field("payment_id", f"Os pagamentos deste auto até {date_br(released_on)} somam {brl_cents(paid)}; "
                                         f"a multa do art. 45 é {brl_cents(fine)} (132 UFIR vigentes na apreensão, "
                                         "em dobro na reincidência). " + ART45_PT)
    fees = seizure_statement(seizure, released_on)
    if fee_settings(municipality)["release_requires_fees"] and fees["balance_cents"] > 0:
        open_fees = "; ".join(f"{FEE_KINDS[line['charge'].kind]}: {brl_cents(line['balance_cents'])}"
                              for line in fees["lines"] if line["balance_cents"] > 0)
        raise invalid_field("fees", f"Taxas em aberto até {date_br(released_on)} — {open_fees}. A configuração municipal "
                               "exige o pagamento das taxas antes da liberação.")
    seizure.released_on, seizure.release_alvara = released_on, alvara
    seizure.release_payment_id = payment.id if payment else None
    record("seizure_release", "seizure", seizure.id, {"released_on": None},
           {"released_on": released_on.isoformat(), "alvara": alvara, "payment_id": seizure.release_payment_id,
            "fees_due_cents": fees["due_cents"], "fees_paid_cents": fees["paid_cents"],
            "art45_fine_cents": fine, "fine_paid_cents": paid},
           municipality_id=seizure.municipality_id, actor=actor)
    return seizure
