"""Registry rules that come straight from the municipal laws (not roadside facts): the permit is
personal and non-transferable, and the pontos a law itself names. The rule packs cover what a
fiscal checks; these are what the registry must keep true whatever the form says.

See shared_rules/LEGAL.md ("Readings chosen in the legal review", item 10).
"""
from ...core.errors import ApiError
from ...extensions import db
from .models import Ponto

# "caráter pessoal e intransferível" (Nortelândia Lei 030/1998, art. 6º, § 1º);
# "expedido de forma individual, à pessoa física, sendo intransferível" (Sapezal Lei 125/1999, art. 3º).
NON_TRANSFERABLE = {
    "nortelandia": "Lei 030/1998, art. 6º, § 1º",
    "sapezal": "Lei 125/1999, art. 3º",
}

# Pontos and number of vehicles the law fixes "inicialmente" (Sapezal Lei 125/1999, art. 20, I–III);
# a later decree may change them in the registry.
LEGAL_PONTOS = {
    "sapezal": [
        ("Cowtry Lanches", 3, "Lei 125/1999, art. 20, I"),
        ("Loteamento Águas Claras – Lanchonete Queen", 2, "Lei 125/1999, art. 20, II"),
        ("Hospital e Maternidade Renato Sucupira", 1, "Lei 125/1999, art. 20, III"),
    ],
}


def check_holder_unchanged(municipality, permit, data):
    """An edit may not hand an issued permit to another holder where the law makes it
    non-transferable: a new holder needs a new permit (and its own requirements)."""
    basis = NON_TRANSFERABLE.get(municipality.slug)
    if basis is None:
        return
    for field in ("holder_operator_id", "holder_company_id"):
        if field in data and data[field] != getattr(permit, field):
            raise ApiError(422, "validation_error", "Dados inválidos segundo a lei municipal.", {field: [
                f"A permissão é pessoal e intransferível ({basis}): o titular não muda por edição; "
                "emita uma nova permissão para o novo titular."]})


def create_legal_pontos(municipality):
    """Create the pontos the municipality's law names, once (matched by their legal basis).
    Call it wherever a municipality is created. Returns the pontos created now."""
    existing = {p.legal_basis for p in Ponto.query.filter_by(municipality_id=municipality.id)}
    created = []
    for name, capacity, basis in LEGAL_PONTOS.get(municipality.slug, []):
        if basis not in existing:
            created.append(Ponto(municipality_id=municipality.id, name=name, capacity=capacity,
                                 legal_basis=basis, location=f"{name}, {municipality.name}/MT"))
    db.session.add_all(created)
    return created
