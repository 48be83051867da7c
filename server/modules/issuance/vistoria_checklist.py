"""The items of a vistoria: the checklist questions the composed packs ask about the vehicle and
its equipment (the same engine and prompts as the roadside checklist, rules.checklist), and
which of the law's requirements the answers fail."""
from ...core.errors import ApiError
from ...rules import checklist, evaluate
from ..rules.citations import format_citation
from ..rules.service import composed_for

VEHICLE_PREFIXES = ("vehicle.", "equipment.")


def vistoria_items(municipality, day):
    """[{fact, label_pt, input, unit, citations}] for the vehicle, in the packs' order. The field
    app selects the same items with vistoriaItems (pwa/js/fiscal/vistoria-model.js)."""
    try:
        composed = composed_for(municipality)
    except ApiError:
        return []
    items = []
    for item in checklist(composed, day):
        if not item["fact"].startswith(VEHICLE_PREFIXES) or item["input"] not in ("yes_no", "yes_no_na", "number"):
            continue
        items.append({"fact": item["fact"], "label_pt": item["label_pt"], "input": item["input"],
                      "unit": item.get("unit"),
                      "citation": "; ".join(dict.fromkeys(format_citation(composed, c) for c in item["citations"] if c))})
    return items


def failed_requirements(composed, day, answers):
    """The evaluator's failed requirements that the answers decide (every fact the requirement
    holds on was answered). Twin of failedRequirements in pwa/js/fiscal/vistoria-model.js
    (tests/test_vistoria_js_agrees.py compares them)."""
    facts = {k: v for k, v in answers.items() if v is not None}
    result = evaluate(composed, day, facts)
    out = []
    for failed in result["failed"]:
        requirement = composed.by_id[failed["requirement"]]
        refs = {r for r in requirement["_holds"].refs if not r.startswith("$")}
        if refs and refs <= set(facts):
            out.append(failed)
    return out


def failed_items(municipality, day, answers):
    """Labels (with article) of the requirements the answers fail: a vistoria that fails one
    cannot be approved."""
    composed = composed_for(municipality)
    return [f"{failed['label_pt']} ({format_citation(composed, failed['citation'])})"
            for failed in failed_requirements(composed, day, answers)]
