"""The downloadable template of a municipality: its columns (columns.columns_for) as a CSV in the
form a pt-BR spreadsheet opens (core.csv_export) or as an XLSX with a sheet of instructions."""
import io

from ...core.csv_export import csv_text
from ..registry.models import PERMIT_STATUSES
from .columns import columns_for


def template_csv(municipality):
    return csv_text([c.header for c in columns_for(municipality)], []).encode("utf-8")


def template_xlsx(municipality):
    from openpyxl import Workbook
    from openpyxl.styles import Font

    columns = columns_for(municipality)
    book = Workbook()
    sheet = book.active
    sheet.title = "Cadastro"
    sheet.append([c.header for c in columns])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    help_sheet = book.create_sheet("Instruções")
    help_sheet.append(["Coluna", "Obrigatória", "Exemplo"])
    for c in columns:
        help_sheet.append([c.header, "sim" if c.required else "não", c.example])
    help_sheet.append([])
    help_sheet.append(["Datas em dd/mm/aaaa. Situação: " + ", ".join(PERMIT_STATUSES) + "."])
    help_sheet.append(["Uma linha por permissão. Reimportar o mesmo arquivo não altera nada (chaves: número, "
                       "CPF, CNPJ, placa)."])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
