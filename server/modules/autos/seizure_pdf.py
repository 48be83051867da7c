"""The seizure's paper (A4 PDF): "Termo de liberação" once the moto is released, "Demonstrativo
de taxas" while it is held — the measure and its legal basis, the release conditions of the law
(and of the municipal setting), each fee with the act that set it, its days, payments and the
balance. Drawn from the rows; no personal data beyond the auto's plate and permit number."""
from ...core.ptbr import date_br
from ..registry.models import Municipality
from .auto_data import auto_data
from .notification_pdf import Doc, brl
from .payments import seizure_law, seizure_statement
from .process_models import FEE_KINDS, SEIZURE_KINDS, STORAGE_DAY_COUNTS, AutoPayment


def seizure_pdf_bytes(case, seizure, db_session) -> bytes:
    municipality = db_session.get(Municipality, case.municipality_id)
    law = seizure_law(municipality)
    fees = seizure_statement(seizure)
    data = auto_data(case)
    doc = Doc()
    pdf = doc.pdf
    released = seizure.released_on is not None
    title = "TERMO DE LIBERAÇÃO DO VEÍCULO" if released else "DEMONSTRATIVO DE TAXAS — VEÍCULO RETIDO"
    pdf.set_title(title.capitalize())
    pdf.set_creator("Motofiscal")
    pdf.set_creation_date(seizure.created_at)
    doc.text(f"PREFEITURA MUNICIPAL DE {municipality.name.upper()} — {municipality.uf}", 11, True)
    doc.text("Fiscalização do serviço de moto-táxi", 9.5)
    pdf.ln(2)
    doc.text(title, 15, True, 8)

    doc.heading("Medida")
    doc.row("Auto de infração nº", case.number or "—")
    plate = data.get("plate") if isinstance(data.get("plate"), str) else None
    permit = data.get("permit_number") if isinstance(data.get("permit_number"), str) else None
    doc.row("Placa / alvará", " / ".join(x for x in (plate, permit) if x) or "—")
    doc.row(SEIZURE_KINDS.get(seizure.kind, seizure.kind), date_br(seizure.seized_on))
    doc.row("Previsão legal", "; ".join(law["measures"]) or "A lei municipal não prevê apreensão nem remoção da moto.")

    doc.heading("Liberação")
    doc.row("Condições", " ".join(law["release"]) or "A lei não põe condição à liberação.")
    if released:
        doc.row("Liberada em", date_br(seizure.released_on))
        doc.row("Alvará exibido", seizure.release_alvara or "—")
        payment = db_session.get(AutoPayment, seizure.release_payment_id) if seizure.release_payment_id else None
        doc.row("Pagamento da multa", f"Guia {payment.guia_number}, {date_br(payment.paid_on)}, {brl(payment.amount_cents)}"
                if payment else "—")
    else:
        doc.text("Veículo retido: as diárias correm até a liberação.", 9.5, True)

    doc.heading("Taxas de remoção e de pátio")
    if not fees["lines"]:
        doc.text("Nenhuma taxa cobrada: não havia taxa de remoção ou diária configurada pelo município (com o ato "
                 "que a fixou) quando a medida foi registrada. Nenhuma lei fixa esses valores.")
    for line in fees["lines"]:
        charge = line["charge"]
        if charge.kind == "estadia":
            detail = (f"{line['days']} diária(s) de {brl(charge.unit_cents)} até {date_br(line['until'])} "
                      f"({STORAGE_DAY_COUNTS.get(charge.day_count, charge.day_count)})")
        else:
            detail = brl(charge.unit_cents)
        doc.row(FEE_KINDS[charge.kind], f"{detail}\nDevido {brl(line['due_cents'])} · pago {brl(line['paid_cents'])} · "
                                         f"em aberto {brl(line['balance_cents'])}", charge.act)
    for payment in fees["payments"]:
        kind = next(FEE_KINDS[line["charge"].kind] for line in fees["lines"] if line["charge"].id == payment.charge_id)
        doc.row(f"Guia {payment.guia_number}", f"{date_br(payment.paid_on)} — {brl(payment.amount_cents)} ({kind})")
    if fees["lines"]:
        doc.text(f"Total devido {brl(fees['due_cents'])} · pago {brl(fees['paid_cents'])} · "
                 f"em aberto {brl(fees['balance_cents'])}", 10, True)
    return bytes(pdf.output())
