"""The downloadable template of a municipality: its columns (columns.columns_for) as a CSV in the
form a pt-BR spreadsheet opens (core.csv_export) or as an XLSX with a sheet of instructions."""
import io

from ...core.csv_export import csv_text
from ..registry.models import PERMIT_STATUSES
from .cells import ELEVEN_DIGITS
from .columns import columns_for

# Typed as text in the XLSX template: the 11-digit identifiers, and the others whose leading zeros
# or punctuation matter (CNPJ, permit number, taxpayer number, phone).
TEXT_KEYS = set(ELEVEN_DIGITS) | {"company.cnpj", "permit.number", "permit.taxpayer_number", "operator.phone"}
TEXT_ROWS = 1000


def template_csv(municipality):
    return csv_text([c.header for c in columns_for(municipality)], []).encode("utf-8")


def template_xlsx(municipality):
    # local: openpyxl is heavy (0.2–0.7 s to import, measured), only the XLSX template needs it
    from openpyxl import Workbook  # noqa: PLC0415 (local: openpyxl is heavy, only an XLSX template needs it)
    from openpyxl.styles import Font  # noqa: PLC0415 (local: openpyxl is heavy, only an XLSX template needs it)
    from openpyxl.utils import get_column_letter  # noqa: PLC0415 (local: openpyxl is heavy, only an XLSX template needs it)

    columns = columns_for(municipality)
    book = Workbook()
    sheet = book.active
    sheet.title = "Cadastro"
    sheet.append([c.header for c in columns])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    # Identifiers as Text ("@"): in a "Geral" column Excel turns a CPF 012.345.678-90 typed as
    # digits into the number 1234567890 (and a long one into 1,23E+10). The column style covers
    # what the clerk types anywhere below; the first rows' cells carry it too, for LibreOffice.
    for index, column in enumerate(columns, start=1):
        if column.key in TEXT_KEYS:
            letter = get_column_letter(index)
            sheet.column_dimensions[letter].number_format = "@"
            sheet.column_dimensions[letter].width = 16
            for row in range(2, TEXT_ROWS + 2):
                sheet.cell(row=row, column=index).number_format = "@"
    help_sheet = book.create_sheet("Instruções")
    help_sheet.append(["Coluna", "Obrigatória", "Exemplo"])
    for c in columns:
        help_sheet.append([c.header, "sim" if c.required else "não", c.example])
    help_sheet.append([])
    help_sheet.append(["Datas em dd/mm/aaaa. Situação: " + ", ".join(PERMIT_STATUSES) + "."])
    help_sheet.append(["Uma linha por permissão. Reimportar o arquivo mostra as diferenças com o cadastro e só as "
                       "aplica com confirmação (chaves: número, CPF, CNPJ, placa)."])
    help_sheet.append(["CPF, CNH e RENAVAM: colunas em formato Texto, para o Excel não apagar os zeros à esquerda."])
    help_sheet.append(["Não comece um texto com =, +, - ou @ (a planilha o trataria como fórmula)."])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
