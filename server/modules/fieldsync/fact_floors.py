"""Dates the phone needs only until a requirement holds for good (issue 24, LGPD art. 6º III).

The operator's birth date, first CNH date and residence start feed rules that all read them the
same way: "at least N years since that date" (Lei 12.009/2009 art. 2º I and II, Paranatinga Lei
311/2007 art. 11 XII, Nortelândia Lei 30/1998 art. 12 II). Once an operator is past the largest N
of the composed rules, every such rule holds on every later day whatever the exact date was, so
the phone gets a floor date instead: 1 January of the year (today − N − 1). A person born in
1980 travels as "born on or before 2004-01-01"; the verdict is the same on every day from today
on, the phone no longer holds the real date, and 10,000 identical dates compress to nothing
(bench/field_data.py). Dates not yet past the floor travel exactly.

That holds only while the rules read these facts in one of the two monotone shapes below. The
plan is worked out from the composed rules themselves: any other use of the fact (a maximum age,
a comparison with a fixed date, …) turns its floor off and the real date travels. A change of the
rules marks every operator changed (field_data.current_state), so phones never keep floors that
new rules would read differently.
"""
from datetime import date

# Row column (field_data.operator_rows) → the fact the packs read (registry/facts.py; the phone's
# twin is pwa/js/fiscal/inspection.js registryFactsOf).
FLOORED = {"birth_date": "operator.birth_date", "cnh_first_issue_date": "operator.cnh_first_issue_date",
           "residence_since": "operator.resident_since"}

_TODAY = {"var": "$date"}


def _years_at_least(node, fact):
    """{">=": [{"years_between_cc": [{"var": fact}, {"var": "$date"}]}, N]} → N."""
    args = node.get(">=") if isinstance(node, dict) and len(node) == 1 else None
    if not (isinstance(args, list) and len(args) == 2 and isinstance(args[1], int)):
        return None
    inner = args[0]
    if isinstance(inner, dict) and inner.get("years_between_cc") == [{"var": fact}, _TODAY]:
        return args[1]
    return None


def _strictly_after_years(node, fact):
    """{">": [{"days_between": [{"add_years_cc": [{"var": fact}, N]}, {"var": "$date"}]}, 0]} → N."""
    args = node.get(">") if isinstance(node, dict) and len(node) == 1 else None
    if not (isinstance(args, list) and len(args) == 2 and args[1] == 0):
        return None
    inner = args[0]
    between = inner.get("days_between") if isinstance(inner, dict) and len(inner) == 1 else None
    if not (isinstance(between, list) and len(between) == 2 and between[1] == _TODAY):
        return None
    added = between[0].get("add_years_cc") if isinstance(between[0], dict) else None
    if isinstance(added, list) and len(added) == 2 and added[0] == {"var": fact} and isinstance(added[1], int):
        return added[1]
    return None


SHAPES = (_years_at_least, _strictly_after_years)


def floor_years(tree, fact):
    """The largest N of the monotone shapes that read `fact` anywhere in `tree` (packs and
    configuration), 0 when nothing reads it, None when anything reads it any other way."""
    largest, other_use = 0, False

    def walk(node):
        nonlocal largest, other_use
        if isinstance(node, dict):
            for shape in SHAPES:
                years = shape(node, fact)
                if years is not None and years >= 0:
                    largest = max(largest, years)
                    return  # the fact's one occurrence inside is accounted for
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif node == fact:  # {"var": fact} or any other mention ({"missing": [fact]}, …)
            other_use = True

    walk(tree)
    return None if other_use else largest


def date_floors(rules_json, today):
    """{row column: floor date} for the columns whose facts are read only by the shapes above.
    A fact nobody reads gets no floor either (it should not travel at all, not as a floor)."""
    floors = {}
    for column, fact in FLOORED.items():
        years = floor_years(rules_json, fact)
        if years:
            floors[column] = date(today.year - years - 1, 1, 1)
    return floors


def apply_floors(rows, floors):
    """Operator rows (ISO dates) with each floored column raised to its floor."""
    if not floors:
        return rows
    iso = {column: floor.isoformat() for column, floor in floors.items()}
    for row in rows:
        for column, floor in iso.items():
            value = row.get(column)
            if value is not None and value < floor:
                row[column] = floor
    return rows
