"""Demo selection history of Paranatinga (Lei 311/2007, arts. 21, 33 and 34), through the real
operations: the population figure, one edital per year in which demo permits were issued, whose
selected candidates are those permits' holders (same CPF), the register of suplentes (with a tie
broken by a public draw and one inapto candidate), and the suplente called when the demo's
desistência opened a vacancy (art. 27).

Each edital is published 60 days before the first permit of its year; its classification 25 days
later. A holder whose motorcycle is newer than the edital competed without one (art. 8º § 1º)
when the permit came within the 90 days, else with an older one.
"""
import random
from datetime import timedelta

from ...core.clock import to_local
from ...core.validation import cpf_check_digits
from ...extensions import db
from ..registry.models import Municipality, Permit, PermitStatusChange
from ..selection import operations, rules
from ..selection.models import Candidate, Edital

DEMO_SOURCE = "Demonstração: população fictícia (registre a estimativa do IBGE, art. 4º, § 2º)"
SUPLENTES = [("Valdir Nunes Prado", 6), ("Cleide Matos Reis", 5), ("Otávio Brito Sales", 5)]
INAPTO = ("Rui Teles Nogueira", 4)


def _morning(day):
    from .dataset import local_morning  # noqa: PLC0415 (local: dataset.py imports this module (load_selection_demo))
    return local_morning(day)


def _conditions(missing=()):
    return {c.key: c.key not in missing for c in rules.CHECKED_CONDITIONS}


def load_selection_demo(today):
    muni = Municipality.query.filter_by(slug="paranatinga").first()
    if muni is None or Edital.query.filter_by(municipality_id=muni.id).first() is not None:
        return None
    permits = (Permit.query.filter(Permit.municipality_id == muni.id, Permit.holder_operator_id.isnot(None))
               .order_by(Permit.valid_from, Permit.id).all())
    if not permits:
        return None
    years = sorted({p.valid_from.year for p in permits})
    first_published = permits[0].valid_from - timedelta(days=60)
    operations.record_population(muni, {"population": 21_500, "reference_date": first_published - timedelta(days=30),
                                        "source": DEMO_SOURCE})
    rng = random.Random(3112007)
    editais = []
    for index, year in enumerate(years):
        group = [p for p in permits if p.valid_from.year == year]
        last = index == len(years) - 1
        editais.append(_edital(muni, year, group, rng, with_suplentes=last))
    _call_for_desistencia(muni, today)
    return editais


def _edital(muni, year, group, rng, with_suplentes):
    published = group[0].valid_from - timedelta(days=60)
    same_year = Edital.query.filter(Edital.municipality_id == muni.id, Edital.number.like(f"%/{published.year}")).count()
    edital = operations.create_edital(muni, {
        "number": f"SINFRA {same_year + 1:03d}/{published.year}", "published_on": published,
        "registration_until": published + timedelta(days=20), "vacancies_offered": len(group), "extra_criteria": []})
    classified_on = published + timedelta(days=25)
    holders = {}
    for k, permit in enumerate(group):
        op = permit.holder_operator
        year = permit.vehicle.year_manufacture if permit.vehicle is not None else None
        if year is None or year > published.year:
            # Competed without a motorcycle when the permit came inside the 90 days of art. 8º § 1º;
            # otherwise with an older one, replaced before the permit.
            in_time = permit.valid_from <= classified_on + timedelta(days=rules.MOTORCYCLE_DAYS)
            year = None if in_time else published.year - 3
        cand = operations.register_candidate(edital, {
            "name": op.name, "cpf": op.cpf, "profession_since": published - timedelta(days=365 * (12 - k)),
            "cnh_first_issue_date": op.cnh_first_issue_date,
            "vehicle_year": year,
            "schooling": 4 - k % 3, **_conditions()})
        holders[cand.id] = permit
    if with_suplentes:
        since = published - timedelta(days=365 * 2)
        for name, schooling in SUPLENTES:
            operations.register_candidate(edital, {
                "name": name, "cpf": _cpf(rng), "profession_since": since,
                "cnh_first_issue_date": since - timedelta(days=400),
                "vehicle_year": published.year - 2, "schooling": schooling, **_conditions()})
        name, schooling = INAPTO
        operations.register_candidate(edital, {
            "name": name, "cpf": _cpf(rng), "profession_since": published - timedelta(days=365 * 8),
            "cnh_first_issue_date": published - timedelta(days=365 * 9), "vehicle_year": published.year - 1,
            "schooling": schooling, **_conditions(missing=("art7_iv",))})
        ranking = rules.rank(edital.candidates, edital.extra_criteria, edital.published_on)
        for group_tied in ranking.unresolved:
            operations.resolve_tie(edital, [c.id for c in sorted(group_tied, key=lambda c: c.name)],
                                   f"Sorteio público em {published + timedelta(days=22):%d/%m/%Y}, ata nº "
                                   f"{published.year}/01, com o Sindicato dos Moto-taxistas (art. 33, § 2º).")
    operations.publish_classification(edital, today=classified_on)
    edital.classification_published_at = _morning(classified_on)
    for cand_id, permit in holders.items():
        cand = db.session.get(Candidate, cand_id)
        if cand.status == "selecionado":
            operations.mark_permit_granted(cand, permit)
    db.session.flush()
    return edital


def _cpf(rng):
    return cpf_check_digits("".join(str(rng.randint(0, 9)) for _ in range(9)))


def _call_for_desistencia(muni, today):
    """The demo's extinct permit ended by desistência (art. 27): the next suplente is called."""
    change = (PermitStatusChange.query.join(Permit).filter(Permit.municipality_id == muni.id,
                                                           PermitStatusChange.action == "extinguish")
              .order_by(PermitStatusChange.id).first())
    if change is None:
        return None
    day = to_local(change.at).date()
    cand = operations.call_next_suplente(
        muni, f"Vaga aberta pela desistência da permissão {change.permit.number} (Lei 311/2007, arts. 27 e 34).",
        today=day)
    db.session.flush()
    return cand
