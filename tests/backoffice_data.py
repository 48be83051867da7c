"""Helpers for the back-office tests: look up demo rows and add registry rows in bulk.

Rows are written through the models (not the screens under test) so that list, capacity and
vacancy tests can start from a known registry size.
"""
from datetime import date, timedelta

from server.core.clock import local_today
from server.core.validation import cpf_check_digits
from server.extensions import db
from server.modules.registry.models import Municipality, Operator, Permit, Ponto, Vehicle


def cpf_for(n):
    """A valid CPF derived from n (check digits computed by the official algorithm)."""
    return cpf_check_digits(f"{n % 10**9:09d}")


def plate_for(n):
    """An old-format plate, unique for n < 26*26*10000."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return f"Q{letters[n // 260000 % 26]}{letters[n // 10000 % 26]}{n % 10000:04d}"


def muni(slug):
    return Municipality.query.filter_by(slug=slug).one()


def free_operator_and_vehicle(app, slug, n=1):
    """A new operator and vehicle without any permit, in `slug`. Returns (operator_id, vehicle_id)."""
    with app.app_context():
        m = muni(slug)
        op, vehicle = _operator(m, 900000 + n, f"Condutor Livre {n}"), _vehicle(m, 900000 + n)
        db.session.add_all([op, vehicle])
        db.session.commit()
        return op.id, vehicle.id


def record_requirements(app, slug, operator_id, vehicle_id, skip=(), on=None):
    """Record, through the real issuance operations, everything the law asks before a permit is
    issued to this operator with this vehicle: documents, an approved vistoria, the insurance.
    `skip` leaves some out ("documents", "vistoria", "insurance")."""
    from server.modules.issuance.operations import record_documents, record_vistoria, save_policy
    from server.modules.issuance.requirements import EXTRA_CHECKS
    from server.modules.registry.facts import DOCUMENT_CHECKS

    with app.app_context():
        m = muni(slug)
        today = on or local_today()
        vehicle = db.session.get(Vehicle, vehicle_id)
        if "documents" not in skip:
            for subject, ident in (("operator", operator_id), ("vehicle", vehicle_id)):
                answers = {f: (1 if f == "operator.licences_count" else True)
                           for f in DOCUMENT_CHECKS if f.startswith(subject + ".")}
                answers.update({f: True for s, f, _, _ in EXTRA_CHECKS.get(slug, []) if s == subject})
                if ident is not None:
                    record_documents(m, subject, ident, answers, today)
        if "vistoria" not in skip:
            record_vistoria(m, vehicle, {"kind": "inicial", "inspected_on": today, "result": "aprovada",
                                         "inspector_name": "Fiscal de teste"})
        if "insurance" not in skip:
            save_policy(m, vehicle, {"kind": {"sapezal": "terceiros_app", "nortelandia": "vida"}.get(slug, "outro"),
                                     "insurer": "Seguradora Teste", "policy_number": "AP-123",
                                     "starts_on": today - timedelta(days=1), "ends_on": today + timedelta(days=364),
                                     "cover_temporary_disability": 2000, "cover_permanent_disability": 8000,
                                     "cover_death": 15000, "cover_personal_accidents": True,
                                     "coverage_attested": True, "copy_filed": True, **per_person_covers()})
        db.session.commit()  # the test plays the requests that would have committed these


def per_person_covers(persons=("third_parties", "driver", "passenger")):
    """Sapezal art. 4º § 1º covers at the law's minimums for each of `persons` (the policy form's fields)."""
    minimums = {"temporary_disability": 2000, "permanent_disability": 8000, "death": 15000, "personal_accidents": True}
    return {f"{person}_{cover}": value for person in persons for cover, value in minimums.items()}


def record_renewal_documents(app, permit_id, on=None, valid_days=60):
    """Present, through the real operation, every document the permit's law wants for its
    renewal (issuance.renewal), checked on `on`, certidões valid `valid_days` after it."""
    from server.modules.issuance.operations import record_renewal_documents as record
    from server.modules.issuance.renewal import documents_for

    with app.app_context():
        permit = db.session.get(Permit, permit_id)
        m = db.session.get(Municipality, permit.municipality_id)
        day = on or local_today()
        answers = {d.fact: {"value": True, "valid_until": day + timedelta(days=valid_days) if d.certidao else None}
                   for d in documents_for(m, permit)}
        if answers:
            record(m, permit, day, answers)
            db.session.commit()  # the test plays the request that would have committed it


def _operator(m, n, name):
    return Operator(municipality_id=m.id, name=name, cpf=cpf_for(n + m.id * 10**7),
                    cnh_number="12345678900", cnh_category="A", cnh_first_issue_date=date(2000, 1, 1),
                    cnh_expiry=local_today() + timedelta(days=900), birth_date=date(1980, 5, 5),
                    residence_since=date(2000, 1, 1))


def _vehicle(m, n):
    return Vehicle(municipality_id=m.id, plate=plate_for(n), renavam="12345678901",
                   chassis="9C2KC1670AR000000", make="Honda", model="CG 160", year_manufacture=local_today().year,
                   engine_cc=160)


def add_permits(app, slug, count, status="ativo", name="Titular Extra", ponto_name=None, start=0):
    """Add `count` permits (each with its own holder and vehicle) to municipality `slug`."""
    with app.app_context():
        m = muni(slug)
        ponto = Ponto.query.filter_by(municipality_id=m.id, name=ponto_name).one() if ponto_name else None
        today = local_today()
        for i in range(start, start + count):
            op, vehicle = _operator(m, i, f"{name} {i:03d}"), _vehicle(m, i)
            db.session.add_all([op, vehicle])
            db.session.flush()
            db.session.add(Permit(
                municipality_id=m.id, number=f"X{i:04d}/2026", kind="alvara", holder_operator_id=op.id,
                vehicle_id=vehicle.id, ponto=ponto, issued_on=today, valid_from=today,
                valid_until=today + timedelta(days=100 + i), status=status))
        db.session.commit()


def row(app, model, **filters):
    with app.app_context():
        return model.query.filter_by(**filters).first()


def selected_candidate_id(operator_id, status="selecionado"):
    """(Inside an app context.) A candidate of a published edital, with the operator's CPF, who may
    receive a Paranatinga permit (Lei 311/2007, arts. 21 and 33). Rows written directly: the
    selection itself is tested in test_selection.py. Reused when the operator already has one."""
    from server.modules.selection.models import Candidate, Edital
    from server.modules.registry.models import utcnow

    op = db.session.get(Operator, operator_id)
    cand = Candidate.query.filter_by(municipality_id=op.municipality_id, cpf=op.cpf, status=status).first()
    if cand is not None:
        return cand.id
    edital = Edital.query.filter_by(municipality_id=op.municipality_id, number="TESTE-001/2026").first()
    if edital is None:
        edital = Edital(municipality_id=op.municipality_id, number="TESTE-001/2026", published_on=local_today(),
                        registration_until=local_today(), vacancies_offered=45, extra_criteria=[],
                        classification_published_at=utcnow())
        db.session.add(edital)
        db.session.flush()
    position = Candidate.query.filter_by(edital_id=edital.id).count() + 1
    cand = Candidate(municipality_id=op.municipality_id, edital_id=edital.id, name=op.name, cpf=op.cpf,
                     profession_since=date(2015, 1, 1), cnh_first_issue_date=date(2014, 1, 1), vehicle_year=2024,
                     schooling=3, extra_values={}, conditions={}, classification=position, status=status,
                     selected_on=local_today())
    db.session.add(cand)
    db.session.commit()
    return cand.id
