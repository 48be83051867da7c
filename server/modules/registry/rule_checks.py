"""Registry validation that comes from the rule packs, citing the article.

An operator's or vehicle's registry data is evaluated as registry facts (`operator.*`,
`vehicle.*`) against the municipality's composed packs on today's date. A registration-scope
requirement that fails, and that depends only on facts we supplied, refuses the record with the
requirement's label and citation next to the form field. Vetoed provisions whose outcome is
pending never refuse anything (the engine reports them as undecided).
"""

from ...core.errors import ApiError
from ...rules import evaluate
from .facts import FACT_FIELDS, entity_facts
from ...core.clock import local_today


def registry_problems(municipality, entity, data, today=None):
    from ..rules.citations import format_citation
    from ..rules.service import composed_for

    if entity not in ("operator", "vehicle"):
        return {}
    try:
        composed = composed_for(municipality)
    except ApiError:  # no rule pack for this municipality: nothing to check
        return {}
    facts = entity_facts(entity, data, composed.facts)
    if not facts:
        return {}
    result = evaluate(composed, today or local_today(), facts)
    problems = {}
    for failed in result["failed"]:
        requirement = composed.by_id[failed["requirement"]]
        # Fact references only ("$option:<key>" names configuration, not data).
        refs = [r for r in (requirement["_holds"].refs if requirement.get("_holds") is not None else [])
                if not r.startswith("$")]
        if requirement.get("scope") == "roadside" or not refs or any(ref not in facts for ref in refs):
            continue
        message = f"{failed['label_pt']} ({format_citation(composed, failed['citation'])})."
        for ref in refs:
            field = FACT_FIELDS.get(ref, ref)
            if message not in problems.get(field, []):
                problems.setdefault(field, []).append(message)
    return problems
