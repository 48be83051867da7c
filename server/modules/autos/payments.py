"""Payments of an auto's fines and seizures of the moto (apreensão, remoção) and their release,
each audited in its transaction."""
from ...core.audit import record
from ...core.errors import ApiError
from ...extensions import db
from ..registry.models import Municipality
from ..rules.service import composed_for
from .inputs import _date, _invalid, _money, _text
from .process_models import AutoPayment, Seizure


def record_payment(case, guia_number, paid_on, amount, actor=None):
    guia_number = _text(guia_number, "guia_number", 1)[:40]
    paid_on = _date(paid_on, "paid_on")
    cents = _money(amount if isinstance(amount, str) else str(amount), "amount")
    if cents is None:
        raise _invalid("amount", "Informe o valor em reais (ex.: 140,46).")
    if not 0 < cents < 10**11:
        raise _invalid("amount", "Informe um valor positivo.")
    payment = AutoPayment(municipality_id=case.municipality_id, case_id=case.id, guia_number=guia_number,
                          paid_on=paid_on, amount_cents=cents)
    db.session.add(payment)
    db.session.flush()
    record("auto_payment", "auto_payment", payment.id, None,
           {"guia": guia_number, "paid_on": paid_on.isoformat(), "amount_cents": cents},
           municipality_id=case.municipality_id, actor=actor)
    db.session.commit()
    return payment


def record_seizure(case, kind, seized_on, actor=None):
    from .process_models import SEIZURE_KINDS
    if kind not in SEIZURE_KINDS:
        raise _invalid("kind", "Escolha apreensão ou remoção.")
    seized_on = _date(seized_on, "seized_on")
    seizure = Seizure(municipality_id=case.municipality_id, case_id=case.id, kind=kind, seized_on=seized_on)
    db.session.add(seizure)
    db.session.flush()
    record("seizure", "seizure", seizure.id, None, {"kind": kind, "seized_on": seized_on.isoformat()},
           municipality_id=case.municipality_id, actor=actor)
    db.session.commit()
    return seizure


# Laws that condition a release, by rule pack: Paranatinga art. 45 § único.
RELEASE_CONDITIONS = {"paranatinga-lei-311-2007"}


def _release_needs_alvara_and_payment(seizure):
    municipality = db.session.get(Municipality, seizure.municipality_id)
    return any(p.get("id") in RELEASE_CONDITIONS for p in composed_for(municipality).packs)


ART45_PT = ("Lei 311/2007, art. 45, parágrafo único: o veículo só será liberado mediante exibição do "
            "alvará e do comprovante de pagamento da multa.")


def release_seizure(seizure, released_on, alvara, payment_id, actor=None):
    """Release of a seized moto: Paranatinga art. 45 § único asks for the alvará and the paid fine;
    the other laws set no condition, so only the date and the document shown are recorded."""
    if seizure.released_on is not None:
        raise ApiError(409, "already_released", "Esta moto já foi liberada.")
    released_on = _date(released_on, "released_on")
    if released_on < seizure.seized_on:
        raise _invalid("released_on", "A liberação não pode ser anterior à apreensão.")
    alvara = (alvara or "").strip()[:60] or None
    payment = None
    if payment_id not in (None, ""):
        try:
            payment = db.session.get(AutoPayment, int(payment_id))
        except (TypeError, ValueError, OverflowError):
            payment = None
        if payment is None or payment.case_id != seizure.case_id:
            raise _invalid("payment_id", "Escolha um pagamento registrado neste auto.")
    if _release_needs_alvara_and_payment(seizure):
        if not alvara:
            raise _invalid("alvara", "Sem o alvará não há liberação. " + ART45_PT)
        if payment is None:
            raise _invalid("payment_id", "Sem o comprovante de pagamento da multa não há liberação. " + ART45_PT)
    seizure.released_on, seizure.release_alvara = released_on, alvara
    seizure.release_payment_id = payment.id if payment else None
    record("seizure_release", "seizure", seizure.id, {"released_on": None},
           {"released_on": released_on.isoformat(), "alvara": alvara, "payment_id": seizure.release_payment_id},
           municipality_id=seizure.municipality_id, actor=actor)
    db.session.commit()
    return seizure
