"""The notificação de autuação as an A4 PDF, drawn only from the notification's stored content
and payload: the same row prints the same document every time."""
import json
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from ..credentials.render import FONT_DIRS, pdf_qr
from .auto_data import amount_words, total_cents
from .notification_content import steps_title

QR_MM = 42.0
MARGIN = 15


def brl(cents):
    if cents is None:
        return "—"
    text = f"{cents / 100:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    return f"R$ {text}"


# The auto fields whose value is the CNH or the operator's signature (by their declared source,
# shared_rules/SPEC.md §3): printed once, in the header's CNH line and the signature statement.
CNH_SOURCE = "subject_cnh"
SIGNATURE_SOURCE = "operator_signature"


def _amount(inf):
    """Stored since issue 18 as amount_text; older contents are worded the same way here."""
    return inf.get("amount_text") or amount_words(inf.get("amount_brl_cents"), inf.get("amount_value"),
                                                  inf.get("amount_unit"), inf.get("penalty_kind"))


def register_fonts(pdf):
    for folder in FONT_DIRS:
        if (Path(folder) / "DejaVuSans.ttf").exists():
            pdf.add_font("dejavu", "", str(Path(folder) / "DejaVuSans.ttf"))
            pdf.add_font("dejavu", "B", str(Path(folder) / "DejaVuSans-Bold.ttf"))
            return "dejavu"
    return "helvetica"


class Doc:
    def __init__(self):
        self.pdf = FPDF(unit="mm", format="A4")
        self.pdf.set_margins(MARGIN, MARGIN, MARGIN)
        self.pdf.set_auto_page_break(True, MARGIN)
        self.font = register_fonts(self.pdf)
        self.pdf.add_page()
        self.width = 210 - 2 * MARGIN

    def text(self, value, size=9.5, bold=False, height=5, width=None):
        self.pdf.set_font(self.font, "B" if bold else "", size)
        self.pdf.multi_cell(width or self.width, height, value, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    def heading(self, value):
        self.pdf.ln(2)
        self.pdf.set_fill_color(230, 235, 245)
        self.pdf.set_font(self.font, "B", 10.5)
        self.pdf.cell(self.width, 6.5, value, fill=True, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.pdf.ln(1)

    def row(self, label, value, citation=None, label_width=72):
        pdf = self.pdf
        if pdf.get_y() > 297 - MARGIN - 14:
            pdf.add_page()
        y = pdf.get_y()
        pdf.set_font(self.font, "B", 8.5)
        pdf.multi_cell(label_width, 4.4, label, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        if citation:
            pdf.set_font(self.font, "", 7.5)
            pdf.multi_cell(label_width, 3.8, citation, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        bottom = pdf.get_y()
        pdf.set_xy(MARGIN + label_width + 2, y)
        pdf.set_font(self.font, "", 9.5)
        pdf.multi_cell(self.width - label_width - 2, 4.6, value or "—", align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_y(max(pdf.get_y(), bottom) + 0.6)
        self.pdf.set_draw_color(215, 215, 215)
        self.pdf.line(MARGIN, self.pdf.get_y(), MARGIN + self.width, self.pdf.get_y())
        self.pdf.ln(1)


# How the filing is said, the step named as the law names it (steps_title).
FILED = {"Recurso": "O recurso é apresentado", "Defesa": "A defesa é apresentada",
         "Defesa prévia": "A defesa prévia é apresentada", "Defesa e recurso": "A defesa ou o recurso é apresentado"}


def date_text(iso):
    return "/".join(reversed(iso.split("-")))


def _version_note(doc, version):
    """A corrected auto says so at the top (version and date), and what the signed original said
    (issue 34, item 3): the original stays, unchanged, version 0 of the auto."""
    doc.heading(f"Auto corrigido na revisão — versão {version['n']}, de {date_text(version['on'])}")
    doc.text("Esta notificação reproduz o auto como a Prefeitura o mantém após a correção "
             f"(motivo: {version['reason'].rstrip('.')}). A versão original, assinada no local pelo aparelho do "
             "fiscal, é conservada sem alteração; o que ela dizia:", 8.5)
    for field, before, after in version.get("original") or []:
        doc.row(field, f"Original: {before or '(vazio)'}\nCorrigido: {after or '(vazio)'}")


def notification_pdf_bytes(note) -> bytes:
    c = json.loads(note.content)
    auto, muni = c["auto"], c["municipality"]
    doc = Doc()
    pdf = doc.pdf
    pdf.set_title(f"Notificação de autuação {c['number']}")
    pdf.set_creator("Motofiscal")
    pdf.set_creation_date(note.issued_at)  # the same row prints the same bytes
    head = doc.width - QR_MM - 4
    pdf_qr(pdf, note.payload, MARGIN + doc.width - QR_MM, MARGIN - 2, QR_MM)
    doc.text(f"PREFEITURA MUNICIPAL DE {muni['name'].upper()} — {muni['uf']}", 11, True, width=head)
    doc.text("Fiscalização do serviço de moto-táxi", 9.5, width=head)
    if muni.get("example_pt"):  # a synthetic example municipality: never a real notice
        doc.text(muni["example_pt"], 9.5, True, width=head)
    pdf.ln(2)
    doc.text("NOTIFICAÇÃO DE AUTUAÇÃO", 16, True, 8, width=head)
    issued = date_text(c["issued_on"])
    doc.text(f"Notificação nº {c['number']}\nEmitida em {issued}\nAuto de infração nº {auto['number'] or '—'}",
             10, width=head)
    doc.text("Documento assinado digitalmente pela Prefeitura: aponte a câmera do celular para o código ao "
             "lado para conferir a autenticidade.", 8, width=head, height=4)
    pdf.set_y(max(pdf.get_y(), MARGIN - 2 + QR_MM))
    if c.get("version"):
        _version_note(doc, c["version"])

    # One CNH line and one signature statement: the auto fields that ask for them (CTB art. 280
    # IV and VI, the municipal law's signature field) are printed here, with their citations.
    cnh_fields = [f for f in c["fields"] if CNH_SOURCE in f.get("source", ())]
    sign_fields = [f for f in c["fields"] if SIGNATURE_SOURCE in f.get("source", ())]
    doc.heading("Autuado")
    if c.get("operator"):
        doc.row("Nome", c["operator"]["name"])
        doc.row("CNH (prontuário)", c["operator"]["cnh"] or next((f["value"] for f in cnh_fields if f["value"]), None),
                "; ".join(f["citation"] for f in cnh_fields) or "CTB, art. 280, IV")
    else:
        doc.row("Nome", "Não identificado no cadastro")
    doc.row(f"{auto['permit_word']} nº / placa",
            " / ".join(x for x in (auto.get("permit_number"), auto.get("plate")) if x) or "—")

    doc.heading("Infrações")
    for i, inf in enumerate(c["infractions"], 1):
        doc.text(f"{i}. {inf['label']}", 9.5, True)
        doc.text(f"Dispositivo: {inf['citation']} · Penalidade: {inf.get('penalty') or '—'} · "
                 f"Valor: {_amount(inf)}", 9)
        if inf.get("grounds"):
            doc.text("Constatação: " + "; ".join(inf["grounds"]) + ".", 8.5)
        pdf.ln(1)
    how = c.get("answers_how")  # issue 34: how the checklist was answered (absent from older contents)
    if how:
        doc.text(f"Respostas do checklist: {how['text']}." + (
            " Uma declaração de grupo (“Tudo conforme neste grupo”, feita depois de exibidos os itens) só "
            "registra conformidade: as infrações acima resultam de respostas dadas item a item ou do "
            "cadastro." if how["recorded"] else ""), 8.5)
    if not c["infractions"]:
        doc.text("Nenhuma infração municipal confirmada.")
    total = c["total_cents"] if "total_cents" in c else total_cents(c["infractions"])
    if total is not None:
        doc.text(f"Total: {brl(total)}", 10, True)
    elif any(inf.get("penalty_kind") in (None, "multa") for inf in c["infractions"]):
        doc.text("Total: não calculado enquanto houver valor a definir.", 10, True)
    doc.heading(steps_title([s.get("kind") for s in c["instances"]]))
    for step in c["instances"]:
        doc.row(f"{step['level']}ª instância — {step['authority']}", step["deadline"],
                None if step["authority_source"] == "lei" else f"autoridade: {step['authority_source']}")
    if not c["instances"]:
        doc.text("A lei municipal não prevê prazo de defesa nem de recurso.")
    rules = list(dict.fromkeys(s["counting_pt"] for s in c["instances"] if s.get("counting_pt")))
    if rules:  # the counting rule this notification applied (legal_calendar.RULES)
        counted = "; ".join(rules)
        filed = FILED.get(steps_title([s.get("kind") for s in c["instances"]]), FILED["Defesa e recurso"])
        doc.text(f"Contagem do prazo: {counted}. {filed} por escrito, no protocolo da Prefeitura.", 8.5)
    else:  # a notification issued before the counting rule was recorded says what it said then
        doc.text("Os prazos contam-se em dias corridos, excluído o dia do início e incluído o do vencimento "
                 "(Código Civil, art. 132). A defesa ou o recurso é apresentado por escrito, no protocolo da "
                 "Prefeitura.", 8.5)
    doc.heading("Dados do auto de infração (campos exigidos por lei)")
    covered = set(c.get("field_sources") or [])   # printed once: by the law's own field if it has one
    doc.row("Lavrado em", auto.get("at"))
    if "place" not in covered:
        doc.row("Local", auto.get("place"))
    if "agent" not in covered:
        doc.row("Agente autuante", auto.get("fiscal"))
    signed = ("Assinado pelo autuado no local" if auto.get("operator_signed") else
              "O autuado recusou-se a assinar" if auto.get("operator_refused") else "Sem assinatura do autuado")
    doc.row("Assinatura do autuado", signed, "; ".join(f["citation"] for f in sign_fields) or "CTB, art. 280, VI")
    for field in c["fields"]:
        if field in cnh_fields or field in sign_fields:
            continue
        doc.row(field["label"], field["value"] or "—", field["citation"])

    pdf.ln(3)
    doc.text(f"Resumo do conteúdo assinado: {note.content_hash[:16].upper()}", 7.5, height=4)
    return bytes(pdf.output())
