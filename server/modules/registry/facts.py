"""Registry data → rule-pack facts (source "registry"). The one place that maps our columns to
the fact names the packs declare; a test checks that every name here is declared in a pack.

Only facts the registry really knows are produced: anything else stays absent, so the engine
reports it as undecided rather than guessing (e.g. the validity of a vistoria depends on a
period the registry does not hold).
"""
from datetime import date


def _iso(value):
    return value.isoformat() if isinstance(value, date) else value


OPERATOR_FACTS = {
    "operator.birth_date": lambda d: _iso(d.get("birth_date")),
    "operator.cnh_first_issue_date": lambda d: _iso(d.get("cnh_first_issue_date")),
    "operator.resident_since": lambda d: _iso(d.get("residence_since")),
    # Every category we accept (A, AB, AC, AD, AE) includes A, the one for motorcycles.
    "operator.cnh_category_ok": lambda d: ("A" in d["cnh_category"]) if d.get("cnh_category") else None,
}

VEHICLE_FACTS = {
    "vehicle.engine_cc": lambda d: d.get("engine_cc"),
    "vehicle.manufacture_year": lambda d: d.get("year_manufacture"),
}

# Which form field each fact comes from, to put a refusal next to the right input.
FACT_FIELDS = {
    "operator.birth_date": "birth_date", "operator.cnh_first_issue_date": "cnh_first_issue_date",
    "operator.resident_since": "residence_since", "operator.cnh_category_ok": "cnh_category",
    "vehicle.engine_cc": "engine_cc", "vehicle.manufacture_year": "year_manufacture",
}


def _collect(mapping, data, declared):
    facts = {}
    for name, get in mapping.items():
        if name in declared:
            value = get(data)
            if value is not None:
                facts[name] = value
    return facts


def entity_facts(entity, data, declared):
    """Facts for an operator or vehicle given as a dict of column values (e.g. a form)."""
    mapping = {"operator": OPERATOR_FACTS, "vehicle": VEHICLE_FACTS}.get(entity, {})
    return _collect(mapping, data, declared)
