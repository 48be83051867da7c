"""The auto's field texts as the municipality now holds the auto: the phone recorded the texts
its fields were joined from (`auto_sources`, pwa/js/fiscal/auto-sources.js), and the server
writes again those that depend on what the review may correct or what belongs to another
authority — the place, the plate, the permit number and the confirmed infractions of the
municipal auto (never a CTB/SNT infraction, issue 34 item 2) — in the same words as the phone.

`field_rows` then prints one row per merged group (rules.auto_form): a reviewer's correction of the
field itself wins; a group whose source texts are unchanged keeps the phone's own value; a group
whose texts changed (a corrected place, a CTB infraction taken out) is joined again."""
from ...core.ptbr import plate as plate_text
from ...rules.checklist import auto_form
from ..rules.citations import format_citation
from .auto_data import confirmed_infractions
from .versions import signed_body


def corrected_atoms(composed, data) -> dict:
    """{source: text} the server writes from the current data (auto_data)."""
    def cite(item):
        entry = composed.by_id.get(item.get("id")) or {}
        return format_citation(composed, entry.get("citation") or item.get("citation"))

    def label(item):
        entry = composed.by_id.get(item.get("id")) or {}
        return item.get("label_pt") or entry.get("label_pt") or item.get("id")

    confirmed = confirmed_infractions(data)
    place = data.get("place") if isinstance(data.get("place"), str) else ""
    plate = data.get("plate") if isinstance(data.get("plate"), str) else ""
    permit = data.get("permit_number") if isinstance(data.get("permit_number"), str) else ""
    labels = [label(i) for i in confirmed]
    return {
        "place": place.strip(),
        "plate": f"placa {plate_text(plate)}" if plate.strip() else "",
        "permit_number": f"nº {permit.strip()}" if permit.strip() else "",
        "infractions_typification": "; ".join(f"{label(i)} ({cite(i)})" for i in confirmed),
        "infractions_description": "; ".join(labels),
        "infractions_provision": "; ".join(cite(i) for i in confirmed),
        "infractions_remedy": f"Sanar: {'; '.join(labels)}" if labels else "",
    }


def _texts(mapping):
    mapping = mapping if isinstance(mapping, dict) else {}
    return {k: v for k, v in mapping.items() if isinstance(k, str) and isinstance(v, str)}


def field_rows(composed, day, data, case=None):
    """[{label, source, citation, value}] of the auto as it stands (see the module's docstring).
    `case` gives the signed body, whose field values tell a reviewer's correction apart."""
    recorded = _texts(data.get("auto_sources"))
    atoms = {**recorded, **{k: v for k, v in corrected_atoms(composed, data).items() if k in recorded}}
    values = _texts(data.get("auto_fields"))
    signed = _texts(signed_body(case).get("auto_fields")) if case is not None else values
    rows = []
    for g in auto_form(composed, day.isoformat(), atoms):
        corrected = next((values[i].strip() for i in g["ids"]
                          if values.get(i, "").strip() and values.get(i) != signed.get(i)), "")
        changed = any(atoms.get(s, "") != recorded.get(s, "") for s in g["source"])
        phone = next((values[i].strip() for i in g["ids"] if values.get(i, "").strip()), "")
        value = corrected or (g["value"] if changed else phone or g["value"])
        rows.append({"label": g["label_pt"], "source": g["source"],
                     "citation": "; ".join(format_citation(composed, c) for c in g["citations"] if c),
                     "value": value})
    return rows
