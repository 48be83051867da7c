"""Reading the issuance records as they stand on a day: the vistoria in force, the insurance
policy in force, the documents checked, a company's ISSQN arrears. Read-only; writes are in
operations.py."""
from datetime import timedelta
from decimal import Decimal

from sqlalchemy import func, select

from ...core.clock import local_today
from ..registry.facts import permit_row_facts
from .models import COVERED_PERSONS, DocumentCheck, InsurancePolicy, IssqnCharge, Vistoria
from .validity import add_months
from ..registry.models import Municipality
from ...extensions import db

# Sapezal Lei 125/1999, art. 4º, § 1º: minimum coverages in reais (I, II, III), owed to third
# parties, the driver and the passenger, individually; IV (personal accidents) is a yes/no cover.
SAPEZAL_MINIMUMS = {"temporary_disability": Decimal("2000"), "permanent_disability": Decimal("8000"),
                    "death": Decimal("15000")}
SAPEZAL_MINIMUMS_BASIS = "Lei 125/1999, art. 4º, § 1º, I a IV"
# Nortelândia Lei 030/1998, art. 11, § único: 220 SM (death), 220 SM (disability), 10 SM (medical).
# The law counts in salários mínimos: the clerk attests the policy against the minimum wage of the day.
NORTELANDIA_LIFE_BASIS = "Lei 030/1998, art. 11, § único"
# No law sets how long a vistoria lasts: the municipality configures it (Municipality.settings).
VISTORIA_PERIOD_SETTING = "vistoria_validity_months"
MAIN_KINDS = ("terceiros_app", "outro")


def vistoria_period_months(municipality):
    value = municipality.setting(VISTORIA_PERIOD_SETTING)
    return int(value) if value else None


def latest_vistoria(vehicle_id):
    if vehicle_id is None:
        return None
    return (Vistoria.query.filter_by(vehicle_id=vehicle_id)
            .order_by(Vistoria.inspected_on.desc(), Vistoria.id.desc()).first())


def vistoria_valid_until(municipality, vistoria):
    """Until when an approved vistoria counts; None when rejected or while no period is configured."""
    months = vistoria_period_months(municipality)
    if vistoria is None or vistoria.result != "aprovada" or months is None:
        return None
    return add_months(vistoria.inspected_on, months)


def policies(vehicle_id, kind=None):
    if vehicle_id is None:
        return []
    query = InsurancePolicy.query.filter_by(vehicle_id=vehicle_id)
    if kind:
        query = query.filter_by(kind=kind)
    return query.order_by(InsurancePolicy.ends_on.desc(), InsurancePolicy.id.desc()).all()


def policy_in_force(vehicle_id, today, kinds=None):
    for policy in policies(vehicle_id):
        if (kinds is None or policy.kind in kinds) and policy.starts_on <= today <= policy.ends_on:
            return policy
    return None


def person_covered(policy, person):
    """Sapezal art. 4º § 1º for one covered person (a COVERED_PERSONS key): True when I to IV reach
    the minimums, False when one recorded cover falls short, None while any is unrecorded."""
    amounts = {cover: getattr(policy, f"{person}_{cover}") for cover in SAPEZAL_MINIMUMS}
    accidents = getattr(policy, f"{person}_personal_accidents")
    if accidents is False or any(a is not None and a < SAPEZAL_MINIMUMS[c] for c, a in amounts.items()):
        return False
    if accidents is None or any(a is None for a in amounts.values()):
        return None
    return True


def sapezal_uncovered(policy):
    """(not covered, unrecorded): pt-BR names of the persons the policy fails, and of those whose
    covers are not recorded (a policy entered with one set of amounts before 0026: all three)."""
    states = {label: person_covered(policy, person) for person, label in COVERED_PERSONS.items()}
    return ([p for p, ok in states.items() if ok is False], [p for p, ok in states.items() if ok is None])


def main_policy(vehicle_id, today):
    """The policy in force against third parties and for personal accidents (not the life policy)."""
    return policy_in_force(vehicle_id, today, kinds=MAIN_KINDS)


def coverage_ok(municipality, policy):
    """Does the policy meet the law's minimum coverages? None = cannot tell (not stated/attested).
    Sapezal: True only when third parties, driver and passenger are each covered (art. 4º § 1º)."""
    if policy is None:
        return None
    if municipality.slug == "sapezal":
        failing, unrecorded = sapezal_uncovered(policy)
        return False if failing else (None if unrecorded else True)
    return policy.coverage_attested


def coverage_detail(municipality, policy):
    """pt-BR words on whom the policy leaves uncovered or unrecorded (Sapezal); "" elsewhere."""
    if policy is None or municipality.slug != "sapezal":
        return ""
    failing, unrecorded = sapezal_uncovered(policy)
    if failing:
        return "sem a cobertura mínima individual: " + ", ".join(failing)
    if unrecorded:
        single = len(unrecorded) == len(COVERED_PERSONS) and any(
            getattr(policy, f"cover_{c}") is not None for c in SAPEZAL_MINIMUMS)
        return ("apólice registrada com um só conjunto de valores — " if single else "") + \
            "coberturas por pessoa a confirmar: " + ", ".join(unrecorded)
    return ""


def renewal_filed(policy):
    """A policy that starts when (or before) the current one ends is the renewal (Sapezal art. 4º § 2º)."""
    if policy is None:
        return None
    return any(p.id != policy.id and p.starts_on <= policy.ends_on + timedelta(days=1) and p.ends_on > policy.ends_on
               for p in policies(policy.vehicle_id))


def document_values(subject, subject_id, today):
    """{fact: value} of the latest check of each fact for one subject, ignoring expired ones."""
    if subject_id is None:
        return {}
    values = {}
    rows = (DocumentCheck.query.filter_by(subject=subject, subject_id=subject_id)
            .order_by(DocumentCheck.checked_on, DocumentCheck.id).all())
    for row in rows:
        if row.valid_until is not None and row.valid_until < today:
            values.pop(row.fact, None)
        else:
            values[row.fact] = row.value
    return values


def issqn_arrears(company_id, today):
    """Charges past their due date and not paid (Nortelândia art. 14)."""
    return (IssqnCharge.query.filter(IssqnCharge.company_id == company_id, IssqnCharge.paid_on.is_(None),
                                     IssqnCharge.due_on < today)
            .order_by(IssqnCharge.month).all())


def record_facts(permit, today=None):
    """Rule facts from the records about a permit's vehicle and people (None = unknown)."""
    today = today or local_today()
    municipality = db.session.get(Municipality, permit.municipality_id)
    vehicle_id = permit.vehicle.id if permit.vehicle is not None else permit.vehicle_id
    vistoria = latest_vistoria(vehicle_id)
    approved = vistoria if vistoria is not None and vistoria.result == "aprovada" else None
    valid_until = vistoria_valid_until(municipality, vistoria)
    main = main_policy(vehicle_id, today)
    life = policy_in_force(vehicle_id, today, kinds=("vida",))
    facts = {
        # A rejected latest vistoria means the vehicle has no valid one, whatever came before.
        "vehicle.inspection_valid_until": valid_until.isoformat() if valid_until else (
            (vistoria.inspected_on - timedelta(days=1)).isoformat() if vistoria is not None and vistoria.result == "reprovada" else None),
        "vehicle.equipment_inspection_date": approved.inspected_on.isoformat() if approved else None,
        "insurance.valid_until": main.ends_on.isoformat() if main else None,
        "insurance.coverage_ok": coverage_ok(municipality, main),
        "insurance.renewal_filed": renewal_filed(main),
        "operator.insurance_life_ok": coverage_ok(municipality, life) if life else None,
    }
    if main is None and policies(vehicle_id, None):
        # Policies exist but none covers today: the insurance has ended.
        last = policies(vehicle_id)[0]
        facts["insurance.valid_until"] = last.ends_on.isoformat()
    person = permit.holder_operator or permit.main_driver
    facts.update(document_values("vehicle", vehicle_id, today))
    if person is not None:
        facts.update(document_values("operator", person.id, today))
    return facts


def permit_facts(permit, declared, today=None):
    """Registry facts of a permit row (and of its vehicle and holder when a person), with what
    the back office recorded about them: documents checked, vistorias, insurance."""
    facts = permit_row_facts(permit, declared)
    facts.update({k: v for k, v in record_facts(permit, today).items() if k in declared and v is not None})
    return facts


def issqn_arrears_count(municipality, today):
    """Unpaid charges past due in a municipality that charges monthly ISSQN; None elsewhere."""
    from .operations import ISSQN_MUNICIPALITIES  # noqa: PLC0415 (local: operations.py imports this module)
    if municipality.slug not in ISSQN_MUNICIPALITIES:
        return None
    return IssqnCharge.query.filter(IssqnCharge.municipality_id == municipality.id, IssqnCharge.paid_on.is_(None),
                                    IssqnCharge.due_on < today).count()


def vehicle_record_dates(municipality, vehicle_ids=None):
    """{vehicle_id: {"vistoria_until", "vistoria_on", "vistoria_result", "insurance_until"}} for the field data: until when the
    latest vistoria counts (the day before it, when rejected; absent while no period is
    configured) and the end of the last policy recorded (a renewal filed extends it). Nothing
    here depends on the day, so the phones' cached extract stays right until a record changes."""
    out = {}
    query = (select(Vistoria.vehicle_id, Vistoria.inspected_on, Vistoria.result)
             .where(Vistoria.municipality_id == municipality.id)
             .order_by(Vistoria.vehicle_id, Vistoria.inspected_on, Vistoria.id))
    if vehicle_ids is not None:
        query = query.where(Vistoria.vehicle_id.in_(vehicle_ids))
    latest = {row.vehicle_id: row for row in db.session.execute(query)}
    months = vistoria_period_months(municipality)
    for vehicle_id, row in latest.items():
        until = None
        if row.result == "reprovada":
            until = row.inspected_on - timedelta(days=1)
        elif row.result == "aprovada":  # an approval in review (em_revisao) vouches for nothing
            until = add_months(row.inspected_on, months) if months else None
        # The crachá verdict tells "reprovada" and "em revisão" from a lapsed approval.
        out.setdefault(vehicle_id, {}).update({"vistoria_on": row.inspected_on, "vistoria_result": row.result})
        if until is not None:
            out[vehicle_id]["vistoria_until"] = until
    query = (select(InsurancePolicy.vehicle_id, func.max(InsurancePolicy.ends_on))
             .where(InsurancePolicy.municipality_id == municipality.id,
                    InsurancePolicy.kind.in_(MAIN_KINDS))
             .group_by(InsurancePolicy.vehicle_id))
    if vehicle_ids is not None:
        query = query.where(InsurancePolicy.vehicle_id.in_(vehicle_ids))
    for vehicle_id, ends_on in db.session.execute(query):
        out.setdefault(vehicle_id, {})["insurance_until"] = ends_on
    return out
