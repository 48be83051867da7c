"""Registry validation that comes from the rule packs, citing the article.

An operator's or vehicle's registry data is evaluated as registry facts (`operator.*`,
`vehicle.*`) against the municipality's composed packs on today's date. A registration-scope
requirement that fails, and that depends only on facts we supplied, refuses the record with the
requirement's label and citation next to the form field. Vetoed provisions whose outcome is
pending never refuse anything (the engine reports them as undecided).
"""

import copy

from ...core.clock import local_today
from ...core.errors import ApiError
from ...rules import evaluate
from ..calendar.service import calendar_of
from ..registry.facts import FACT_FIELDS, OPERATOR_FACTS, VEHICLE_FACTS, entity_facts
from ..rules.citations import format_citation
from ..rules.service import composed_for


def _holds_refs(requirement):
    # Fact references only ("$option:<key>" names configuration, not data).
    return [r for r in (requirement["_holds"].refs if requirement.get("_holds") is not None else [])
            if not r.startswith("$")]


def registry_ruleset(municipality):
    """The municipality's composed rules reduced to what registry_problems can refuse with (the
    registration requirements judged on operator/vehicle registry facts alone), for checking many
    records in a row (the registry import): the same requirements evaluated by the same engine, without
    the hundreds a registry record can never fail. None when the municipality has no rules."""
    try:
        composed = composed_for(municipality)
    except ApiError:
        return None
    registry_facts = set(OPERATOR_FACTS) | set(VEHICLE_FACTS)
    reduced = copy.copy(composed)
    reduced.requirements = [r for r in composed.requirements if r.get("scope") != "roadside" and _holds_refs(r)
                            and all(ref in registry_facts for ref in _holds_refs(r))]
    reduced.escalations, reduced.deadlines = [], []
    return reduced


def registry_problems(municipality, entity, data, today=None, composed=None):
    """{form field: [messages]}; `composed` may be given (registry_ruleset) when checking many."""
    problems = {}
    for failure in registry_failures(municipality, entity, data, today, composed):
        for field in failure["fields"]:
            if failure["message"] not in problems.get(field, []):
                problems.setdefault(field, []).append(failure["message"])
    return problems


_UNSET = object()


def registry_failures(municipality, entity, data, today=None, composed=None, calendar=_UNSET):
    """The registration requirements `data` fails, each as {"requirement", "label", "citation",
    "message", "fields", "grace"}: `grace` is the law's own adaptation period running today (its
    deadline id, SPEC §5 "Adaptation periods"), or None. The import records an existing permit's
    failures as transitions instead of refusing it (registry_import.importer). `calendar` may be
    given (calendar_of, read once) when checking many: reading it is a query, ~45 % of a row's check."""
    if entity not in ("operator", "vehicle"):
        return []
    if composed is None:
        try:
            composed = composed_for(municipality)
        except ApiError:  # no rule pack for this municipality: nothing to check
            return []
    facts = entity_facts(entity, data, composed.facts)
    if not facts:
        return []
    if calendar is _UNSET:
        calendar = calendar_of(municipality)
    result = evaluate(composed, today or local_today(), facts, (), calendar)
    out = []
    for failed in result["failed"]:
        requirement = composed.by_id[failed["requirement"]]
        refs = _holds_refs(requirement)
        if requirement.get("scope") == "roadside" or not refs or any(ref not in facts for ref in refs):
            continue
        citation = format_citation(composed, failed["citation"])
        fields = []
        for ref in refs:
            field = FACT_FIELDS.get(ref, ref)
            if field not in fields:
                fields.append(field)
        out.append({"requirement": failed["requirement"], "label": failed["label_pt"], "citation": citation,
                    "message": f"{failed['label_pt']} ({citation}).", "fields": fields,
                    "grace": failed.get("grace")})
    return out
