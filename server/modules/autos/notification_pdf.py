"""The notificação de autuação as an A4 PDF, drawn only from the notification's stored content
and payload: the same row prints the same document every time."""
import json
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from ..credentials.render import FONT_DIRS, _pdf_qr

QR_MM = 42.0
MARGIN = 15


def _brl(cents):
    if cents is None:
        return "—"
    text = f"{cents / 100:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    return f"R$ {text}"


def _unit(value, unit):
    if value is None or not unit:
        return "—"
    number = f"{value:g}".replace(".", ",")
    return f"{number} {unit}"


def _fonts(pdf):
    for folder in FONT_DIRS:
        if (Path(folder) / "DejaVuSans.ttf").exists():
            pdf.add_font("dejavu", "", str(Path(folder) / "DejaVuSans.ttf"))
            pdf.add_font("dejavu", "B", str(Path(folder) / "DejaVuSans-Bold.ttf"))
            return "dejavu"
    return "helvetica"


class _Doc:
    def __init__(self):
        self.pdf = FPDF(unit="mm", format="A4")
        self.pdf.set_margins(MARGIN, MARGIN, MARGIN)
        self.pdf.set_auto_page_break(True, MARGIN)
        self.font = _fonts(self.pdf)
        self.pdf.add_page()
        self.width = 210 - 2 * MARGIN

    def text(self, value, size=9.5, bold=False, height=5, width=None):
        self.pdf.set_font(self.font, "B" if bold else "", size)
        self.pdf.multi_cell(width or self.width, height, value, new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    def heading(self, value):
        self.pdf.ln(2)
        self.pdf.set_fill_color(230, 235, 245)
        self.pdf.set_font(self.font, "B", 10.5)
        self.pdf.cell(self.width, 6.5, value, fill=True, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.pdf.ln(1)

    def row(self, label, value, citation=None):
        self.pdf.set_font(self.font, "B", 9)
        y = self.pdf.get_y()
        self.pdf.multi_cell(62, 4.6, label + (f"\n({citation})" if citation else ""), new_x=XPos.RIGHT, new_y=YPos.TOP)
        self.pdf.set_font(self.font, "", 9.5)
        self.pdf.multi_cell(self.width - 62, 4.6, value or "—", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.pdf.set_y(max(self.pdf.get_y(), y + 9.5 if citation else y + 5))
        self.pdf.set_draw_color(215, 215, 215)
        self.pdf.line(MARGIN, self.pdf.get_y(), MARGIN + self.width, self.pdf.get_y())
        self.pdf.ln(1)


def notification_pdf_bytes(note) -> bytes:
    c = json.loads(note.content)
    auto, muni = c["auto"], c["municipality"]
    doc = _Doc()
    pdf = doc.pdf
    pdf.set_title(f"Notificação de autuação {c['number']}")
    pdf.set_creator("Motofiscal")
    doc.text(f"PREFEITURA MUNICIPAL DE {muni['name'].upper()} — {muni['uf']}", 11, True)
    doc.text("Fiscalização do serviço de moto-táxi", 9.5)
    pdf.ln(2)
    doc.text("NOTIFICAÇÃO DE AUTUAÇÃO", 16, True, 8)
    issued = "/".join(reversed(c["issued_on"].split("-")))
    doc.text(f"Notificação nº {c['number']} · emitida em {issued} · auto de infração nº {auto['number'] or '—'}", 10)

    doc.heading("Autuado")
    if c.get("operator"):
        doc.row("Nome", c["operator"]["name"])
        doc.row("CNH (prontuário)", c["operator"]["cnh"], "CTB, art. 280, IV")
    else:
        doc.row("Nome", "Não identificado no cadastro")
    doc.row(f"{auto['permit_word']} nº / placa",
            " / ".join(x for x in (auto.get("permit_number"), auto.get("plate")) if x) or "—")

    doc.heading("Dados do auto de infração (campos exigidos por lei)")
    doc.row("Lavrado em", auto.get("at"))
    doc.row("Local", auto.get("place"))
    doc.row("Agente autuante", auto.get("fiscal"))
    signed = ("Assinado pelo autuado no local" if auto.get("operator_signed") else
              "O autuado recusou-se a assinar" if auto.get("operator_refused") else "Sem assinatura do autuado")
    doc.row("Assinatura do autuado", signed, "CTB, art. 280, VI")
    for field in c["fields"]:
        doc.row(field["label"], field["value"] or "—", field["citation"])

    doc.heading("Infrações")
    total = 0
    for i, inf in enumerate(c["infractions"], 1):
        doc.text(f"{i}. {inf['label']}", 9.5, True)
        amount = inf.get("amount_brl_cents")
        total += amount or 0
        doc.text(f"Dispositivo: {inf['citation']} · Penalidade: {inf.get('penalty') or '—'} · "
                 f"Valor: {_brl(amount)} ({_unit(inf.get('amount_value'), inf.get('amount_unit'))})", 9)
        pdf.ln(1)
    if not c["infractions"]:
        doc.text("Nenhuma infração confirmada.")
    doc.text(f"Total: {_brl(total)}", 10, True)

    doc.heading("Defesa e recurso")
    for step in c["instances"]:
        doc.row(f"{step['level']}ª instância: {step['authority']}", step["deadline"],
                None if step["authority_source"] == "lei" else f"autoridade: {step['authority_source']}")
    if not c["instances"]:
        doc.text("A lei municipal não prevê prazo de defesa ou recurso.")
    doc.text("O prazo conta-se a partir do dia seguinte ao da ciência desta notificação (Código Civil, "
             "art. 132). A defesa ou o recurso deve ser apresentado por escrito, no protocolo da Prefeitura.", 8.5)

    if pdf.get_y() > 297 - MARGIN - QR_MM - 4:
        pdf.add_page()
    y = 297 - MARGIN - QR_MM
    _pdf_qr(pdf, note.payload, MARGIN, y, QR_MM)
    pdf.set_xy(MARGIN + QR_MM + 4, y + 6)
    doc.text("Documento assinado digitalmente pela Prefeitura. Para conferir a autenticidade, aponte a "
             "câmera do celular para o código: a página pública mostra os dados desta notificação.",
             9, width=doc.width - QR_MM - 4)
    pdf.set_x(MARGIN + QR_MM + 4)
    doc.text(f"Código de verificação: {note.content_hash[:16].upper()}", 8, width=doc.width - QR_MM - 4)
    return bytes(pdf.output())
