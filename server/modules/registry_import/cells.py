"""What Excel does to a clerk's sheet, undone or refused cell by cell before the schemas see it:
identifiers that lost their leading zeros (a CPF typed in a "Geral" column becomes a number),
numbers turned into scientific notation (digits lost for good), and text a spreadsheet would run
as a formula (=, +, -, @ at the start: "=HYPERLINK(…)" as a name, "@SUM(…)" as a phone)."""
import re

# Column keys of the 11-digit identifiers (CPF; CNH registration number; RENAVAM).
ELEVEN_DIGITS = {"operator.cpf": "CPF", "operator.cnh_number": "CNH", "vehicle.renavam": "RENAVAM"}
FORMULA_START = ("=", "+", "-", "@")
_SCIENTIFIC = re.compile(r"^\d+(?:[.,]\d+)?[eE]\+?\d+$")


def formula_problem(value):
    """A pt-BR message when a text cell would be run as a formula, else None."""
    if not isinstance(value, str) or not value.startswith(FORMULA_START):
        return None
    return (f"Texto começando com “{value[0]}” é lido como fórmula pelas planilhas e não é aceito "
            "(segurança): digite o valor sem esse sinal inicial.")


def identifier(key, value):
    """(text, error or None): an identifier as a spreadsheet may have left it, made whole again.
    Only bare digits are padded (Excel keeps the zeros of a formatted "012.345.678-90")."""
    if key not in ELEVEN_DIGITS or not isinstance(value, str):
        return value, None
    name = ELEVEN_DIGITS[key]
    if _SCIENTIFIC.match(value):
        return None, (f"{name} em notação científica ({value}): a planilha arredondou o número e perdeu dígitos. "
                      "Formate a coluna como Texto e digite-o de novo.")
    if value.isdigit() and len(value) < 11:
        return value.zfill(11), None
    return value, None
