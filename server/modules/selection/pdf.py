"""The published lists of an edital as PDF (art. 33 §§ 1º–2º): the classification with the
selected and the register of suplentes in order, the ties and how they were broken, and the
candidates found inapto. Only masked CPFs: the list is public."""
from pathlib import Path

from fpdf import FPDF

from ...core.clock import to_local
from ...core.validation import mask_cpf
from ..credentials.render import FONT_DIRS
from .models import CANDIDATE_STATUSES
from .rules import SCHOOLING


def _fonts(pdf):
    for folder in FONT_DIRS:
        regular, bold = Path(folder) / "DejaVuSans.ttf", Path(folder) / "DejaVuSans-Bold.ttf"
        if regular.exists() and bold.exists():
            pdf.add_font("dejavu", "", str(regular))
            pdf.add_font("dejavu", "B", str(bold))
            return "dejavu"
    return "helvetica"


def _date(d):
    return d.strftime("%d/%m/%Y") if d else "—"


def classification_pdf(municipality, edital, ranking):
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_margins(15, 15, 15)
    pdf.set_auto_page_break(True, 15)
    font = _fonts(pdf)
    pdf.add_page()
    pdf.set_title(f"Edital {edital.number} - classificação")
    pdf.set_font(font, "B", 13)
    _para(pdf, 7, f"Prefeitura Municipal de {municipality.name} – {municipality.uf}\n"
                         f"Edital nº {edital.number} – Seleção pública de moto-taxistas", align="C")
    pdf.set_font(font, "", 9)
    published = to_local(edital.classification_published_at).strftime("%d/%m/%Y") \
        if edital.classification_published_at else "não publicada (prévia)"
    _para(pdf, 5, f"Lei Municipal 311/2007, arts. 21, 33 e 34. Edital publicado em {_date(edital.published_on)}; "
                         f"vagas oferecidas: {edital.vacancies_offered}. Classificação publicada em {published}.\n"
                         "Critérios (art. 33, § 1º): a) anterioridade na profissão; b) anterioridade da habilitação; "
                         "c) tempo de uso do veículo; d) maior escolaridade"
                   + "".join(f"; {c['label']} (edital)" for c in edital.extra_criteria or []) + ".")
    pdf.ln(2)
    widths = (12, 54, 28, 30, 26, 30)
    heads = ("Class.", "Nome", "CPF", "Profissão desde", "Habilitação", "Situação")
    _table_head(pdf, font, widths, heads)
    for cand in ranking.ordered:
        row = (str(cand.classification or "—"), cand.name, mask_cpf(cand.cpf), _date(cand.profession_since),
               _date(cand.cnh_first_issue_date), CANDIDATE_STATUSES.get(cand.status, cand.status))
        _table_row(pdf, font, widths, row)
    if not ranking.ordered:
        pdf.cell(0, 6, "Nenhum candidato classificado.", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    pdf.set_font(font, "B", 10)
    pdf.cell(0, 6, "Empates e desempates", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(font, "", 9)
    if not ranking.ties:
        _para(pdf, 5, "Nenhum empate: os critérios bastaram para ordenar todos os candidatos.")
    for group in ranking.ties:
        names = ", ".join(f"{c.tie_break or '?'}º {c.name}" for c in sorted(group, key=lambda c: c.tie_break or 0))
        _para(pdf, 5, f"Empatados em todos os critérios: {names}. Desempate: {group[0].tie_break_reason or 'pendente'}.")
    pdf.ln(3)
    pdf.set_font(font, "B", 10)
    pdf.cell(0, 6, "Inscrições não habilitadas (art. 33, caput)", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(font, "", 9)
    for cand in ranking.inaptos:
        _para(pdf, 5, f"{cand.name} – CPF {mask_cpf(cand.cpf)}")
    if not ranking.inaptos:
        _para(pdf, 5, "Nenhuma.")
    pdf.ln(2)
    pdf.set_font(font, "", 8)
    _para(pdf, 4, "Selecionados: os primeiros classificados até o número de vagas. Os demais formam o "
                         "cadastro de suplentes, na ordem de classificação (art. 33, § 2º), convocados quando "
                         "abrir vaga (arts. 27 e 34). Quem não tiver motocicleta deverá apresentá-la em 90 dias "
                         "(art. 8º, § 1º). Escolaridade considerada: " + "; ".join(SCHOOLING) + ".")
    return bytes(pdf.output())


def _para(pdf, height, text, **kwargs):
    pdf.multi_cell(0, height, text, new_x="LMARGIN", new_y="NEXT", **kwargs)


def _table_head(pdf, font, widths, heads):
    pdf.set_font(font, "B", 8)
    pdf.set_fill_color(230, 230, 230)
    for w, h in zip(widths, heads):
        pdf.cell(w, 6, h, border=1, fill=True)
    pdf.ln()


def _table_row(pdf, font, widths, row):
    pdf.set_font(font, "", 8)
    if pdf.will_page_break(6):
        pdf.add_page()
    for w, value in zip(widths, row):
        text = value
        while pdf.get_string_width(text) > w - 2 and len(text) > 3:
            text = text[:-2] + "…"
        pdf.cell(w, 6, text, border=1)
    pdf.ln()
