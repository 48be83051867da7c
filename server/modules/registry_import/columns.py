"""The import template's columns for one municipality, following its law: who holds the permit
(a person, or a company as in Nortelândia Lei 030/1998, art. 6º), what the act is called
(Paranatinga's "termo de permissão", Lei 311/2007, art. 2º, II) and what it must carry (Sapezal's
taxpayer number, Lei 125/1999, art. 9º, III). One row per permit, with its holder/driver and
vehicle: the registry a secretariat keeps on paper or in a spreadsheet is a list of permits."""
from dataclasses import dataclass

from ...core.validation import fold
from ..registry.vocabulary import vocabulary


@dataclass(frozen=True)
class Column:
    key: str            # entity.field, e.g. "operator.cpf"
    header: str         # pt-BR header of the template
    required: bool
    example: str        # shown in the template's second line ("exemplo")


def holder_is_company(municipality):
    return (municipality.settings or {}).get("holder") == "company"


def columns_for(municipality):
    """[Column] of the municipality's template, in order."""
    words = vocabulary(municipality)
    act = "Termo" if "termo_permissao" in words.kinds and "alvara" not in words.kinds else "Alvará"
    person = "condutor" if holder_is_company(municipality) else "titular"
    cols = [
        Column("permit.number", f"Número do {act.lower()}", True, "001/2025"),
        Column("permit.status", "Situação", True, "ativo"),
        Column("permit.issued_on", "Data de emissão", True, "10/02/2025"),
        Column("permit.valid_from", "Início da validade", True, "10/02/2025"),
        Column("permit.valid_until", "Validade", True, "31/03/2026"),
    ]
    if municipality.slug == "sapezal":
        # Lei 125/1999, art. 9º, III: inscrição no cadastro de contribuintes do município.
        cols.append(Column("permit.taxpayer_number", "Inscrição municipal (cadastro de contribuintes)", True, "12345-6"))
    cols.append(Column("permit.ponto", "Ponto", False, ""))
    if holder_is_company(municipality):
        # Lei 030/1998, art. 6º: the autorização is given to a company; its drivers are linked to it.
        cols += [Column("company.cnpj", "CNPJ da empresa", True, "11.222.333/0001-81"),
                 Column("company.legal_name", "Razão social da empresa", True, "Norte Moto Táxi Ltda.")]
    cols += [
        Column("operator.name", f"Nome do {person}", True, "João da Silva"),
        Column("operator.cpf", f"CPF do {person}", True, "529.982.247-25"),
        Column("operator.birth_date", "Data de nascimento", True, "15/04/1985"),
        Column("operator.cnh_number", "Número da CNH", True, "02650306461"),
        Column("operator.cnh_category", "Categoria da CNH", True, "A"),
        Column("operator.cnh_first_issue_date", "Primeira habilitação", True, "20/05/2005"),
        Column("operator.cnh_expiry", "Validade da CNH", True, "20/05/2028"),
        Column("operator.address", "Endereço", False, "Rua das Palmeiras, 100"),
        Column("operator.residence_since", "Reside no município desde", False, "01/01/2010"),
        Column("operator.phone", "Telefone", False, "(65) 99999-0000"),
        Column("vehicle.plate", "Placa", True, "QBC1D23"),
        Column("vehicle.renavam", "RENAVAM", True, "00123456789"),
        Column("vehicle.chassis", "Chassi", True, "9C2KC1670KR123456"),
        Column("vehicle.make", "Marca", True, "Honda"),
        Column("vehicle.model", "Modelo", True, "CG 160 Fan"),
        Column("vehicle.year_manufacture", "Ano de fabricação", True, "2024"),
        Column("vehicle.engine_cc", "Cilindrada (cc)", True, "162"),
    ]
    return cols


def header_key(text):
    """Headers are matched ignoring case, accents and surrounding blanks."""
    return fold(str(text or "")).strip()


def permit_kind(municipality):
    kinds = vocabulary(municipality).kinds
    return "termo_permissao" if "termo_permissao" in kinds and "alvara" not in kinds else "alvara"
