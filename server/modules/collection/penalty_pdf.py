"""The notificação de penalidade of an auto: the fines applied, why, and how to pay them — the
PIX BR Code (QR and copia-e-cola), its txid and the DAM number — or, where no slip can be made,
the reason. An A4 PDF (fpdf2), drawn from the charges as they stand on `today`."""
import qrcode
from fpdf.enums import XPos, YPos
from qrcode.constants import ERROR_CORRECT_M

from ...core.clock import local_today
from ...core.ptbr import brl_cents, date_br
from ...core.tenancy import owned
from ...extensions import db
from ..autos.notification_pdf import MARGIN, Doc
from ..autos.process_models import AutoPenalty
from ..registry.models import Municipality
from ..rules.citations import format_citation
from ..rules.service import composed_for
from .charges import charges_of_case, slip

QR_MM = 46.0


def draw_qr(pdf, text, x, y, size_mm):
    """The BR Code as vector squares (byte mode, error correction M as the BR Code manual shows)."""
    qr = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=4)
    qr.add_data(text)
    qr.make(fit=True)
    matrix = qr.get_matrix()
    module = size_mm / len(matrix)
    pdf.set_fill_color(0, 0, 0)
    for row_i, row in enumerate(matrix):
        col = 0
        while col < len(row):
            if row[col]:
                start = col
                while col < len(row) and row[col]:
                    col += 1
                pdf.rect(x + start * module, y + row_i * module, (col - start) * module, module, style="F")
            else:
                col += 1


def _label(composed, infraction_id):
    infraction = composed.by_id.get(infraction_id) or {}
    citation = format_citation(composed, infraction.get("citation")) if infraction.get("citation") else ""
    return infraction.get("label_pt") or infraction_id, citation


def penalty_pdf_bytes(case, today=None) -> bytes:
    today = today or local_today()
    municipality = db.session.get(Municipality, case.municipality_id)
    composed = composed_for(municipality)
    doc = Doc()
    pdf = doc.pdf
    doc.text(f"Prefeitura Municipal de {municipality.name} — {municipality.uf}", 9, True)
    doc.text(f"NOTIFICAÇÃO DE PENALIDADE — Auto de infração nº {case.number or case.id}", 13, True, 7)
    doc.text(f"Emitida em {date_br(today)}. Valores para pagamento nesta data.", 8.5)
    for charge in charges_of_case(case):
        penalty = owned(AutoPenalty, charge.penalty_id, charge.municipality_id)
        label, citation = _label(composed, penalty.infraction_id if penalty else "")
        made = slip(charge, today)
        doc.heading(f"Multa — {label}")
        doc.row("Fundamento", citation or "—")
        doc.row("Aplicada em", date_br(charge.applied_on))
        if penalty is not None and penalty.state_reason:
            doc.row("Por quê", penalty.state_reason)
        doc.row("Valor da multa", brl_cents(charge.amount_cents))
        if made["late_pt"]:
            doc.row("Acréscimos", made["late_pt"])
        doc.row("Valor a pagar", made["amount_pt"])
        doc.row("Vencimento", made["due_pt"])
        doc.row("txid (identificador do pagamento)", charge.txid)
        if charge.dam_number:
            doc.row("DAM nº", charge.dam_number)
        if made["brcode"] is None:
            doc.row("Pagamento por PIX", made["why_pt"] or "—")
            continue
        doc.row("Recebedor", made["receiver_pt"])
        if pdf.get_y() > 297 - MARGIN - QR_MM - 30:
            pdf.add_page()
        top = pdf.get_y() + 2
        draw_qr(pdf, made["brcode"], MARGIN, top, QR_MM)
        pdf.set_xy(MARGIN + QR_MM + 4, top + 2)
        pdf.set_font(doc.font, "B", 9)
        pdf.multi_cell(doc.width - QR_MM - 4, 4.5, "PIX copia e cola:", new_x=XPos.LEFT, new_y=YPos.NEXT)
        pdf.set_font("courier", "", 7.5)
        pdf.multi_cell(doc.width - QR_MM - 4, 3.6, made["brcode"], new_x=XPos.LEFT, new_y=YPos.NEXT)
        pdf.set_y(max(pdf.get_y(), top + QR_MM) + 2)
        doc.text("Aponte a câmera do aplicativo do seu banco para o QR, ou copie o texto acima em "
                 "“PIX copia e cola”. Confira o recebedor e o valor antes de confirmar.", 8.5)
    doc.heading("Observações")
    doc.text("O pagamento é identificado pelo txid: a Prefeitura confere o extrato bancário e dá a multa por paga. "
             "Pagamento feito, a situação aparece em “Minhas autuações” no aplicativo.", 8.5)
    return bytes(pdf.output())
