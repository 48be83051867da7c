"""An auto's data as corrected: the signed body is version 0 and never changes; each correction
is an AutoCaseVersion holding every correctable field as it now stands.

What may be corrected (CORRECTABLE) and why:
- `plate`, `permit_number`: typed by hand at the roadside; a mistyped character is the commonest
  error, and the photos and the registry show the right value.
- `place` and `auto_fields` (the law's descriptive fields: local, descrição…): transcription.
- an infraction's `decision` from "confirmed" to "removed" with a `removal_reason`: the clerk may
  drop an infraction the facts do not support (a wrong infraction). Never the reverse, and never
  a new infraction: what the agent did not record at the scene cannot be added at the desk; that
  needs a new auto.
Never corrected: the number, the clocks, GPS, signatures, public token, device, chain (they are
the proof the signature covers), and amounts (the server's re-evaluation computes them).

The versions belong to the auto (autos); the review writes them (review/operations.py) and shows
them. `current_data(case)` is the one reader (autos/auto_data.py: the notification and the process).
"""
import json

from ...extensions import db
from .models import AutoCaseVersion
from ..registry.models import Municipality
from ..rules.service import composed_for

CORRECTABLE = ("plate", "permit_number", "place", "auto_fields", "infractions")
# Labels of the correctable fields (pt-BR), for the form and the diffs.
FIELD_NAMES = {"plate": "Placa", "permit_number": "Número da permissão/alvará", "place": "Local da infração",
               "auto_fields": "Campos do auto", "infractions": "Infrações"}
DECISION_NAMES = {"confirmed": "confirmada", "removed": "removida"}


def signed_body(case):
    try:
        body = json.loads(case.record.body)
    except (TypeError, ValueError):
        return {}
    return body if isinstance(body, dict) else {}


def correctable_of(body):
    """The correctable fields of a body (signed or divergent), normalised."""
    infractions = []
    for inf in body.get("infractions") or []:
        if isinstance(inf, dict) and isinstance(inf.get("id"), str):
            infractions.append({"id": inf["id"], "decision": inf.get("decision") or "confirmed",
                                "removal_reason": inf.get("removal_reason")})
    auto_fields = body.get("auto_fields") if isinstance(body.get("auto_fields"), dict) else {}
    return {"plate": _text(body.get("plate")), "permit_number": _text(body.get("permit_number")),
            "place": _text(body.get("place")),
            "auto_fields": {str(k): _text(v) for k, v in auto_fields.items()},
            "infractions": infractions}


def _text(value):
    return None if value is None else str(value)


def versions(case):
    return (AutoCaseVersion.query.filter_by(case_id=case.id).order_by(AutoCaseVersion.n).all())


def latest(case):
    return (AutoCaseVersion.query.filter_by(case_id=case.id).order_by(AutoCaseVersion.n.desc()).first())


def current_data(case):
    """The auto as the municipality now holds it: the signed body with the correctable fields of
    the latest version applied (infraction decisions merged by id, amounts and citations kept
    from the signed body). Adds `_version` (0 = as signed)."""
    body = signed_body(case)
    last = latest(case)
    if last is None:
        return {**body, "_version": 0}
    data = dict(body)
    fixed = last.data
    for key in ("plate", "permit_number", "place", "auto_fields"):
        data[key] = fixed.get(key)
    decisions = {i["id"]: i for i in fixed.get("infractions") or []}
    data["infractions"] = [{**inf, "decision": decisions.get(inf.get("id"), {}).get("decision", inf.get("decision")),
                            "removal_reason": decisions.get(inf.get("id"), {}).get(
                                "removal_reason", inf.get("removal_reason"))}
                           for inf in body.get("infractions") or [] if isinstance(inf, dict)]
    data["_version"] = last.n
    return data


def labels_of(case):
    """{pack id: pt-BR label} of the case's municipality (auto fields, infractions): diffs name
    "Tipificação da infração", never `fed.auto.tipificacao` (issue 18, item 7)."""
    municipality = db.session.get(Municipality, case.municipality_id)
    try:
        rules = composed_for(municipality)
    except Exception:  # noqa: BLE001 — no rule pack: the keys stay readable as they are
        return {}
    return {eid: entry["label_pt"] for eid, entry in rules.by_id.items()
            if isinstance(entry, dict) and isinstance(entry.get("label_pt"), str)}


def flatten(data, labels=None):
    """{label path: text} for diffs: one line per scalar field, named by its pt-BR label."""
    labels = labels or {}
    out = {}
    for key in CORRECTABLE:
        value = data.get(key)
        if key == "auto_fields":
            for name, text in sorted((value or {}).items()):
                out[f"Campos do auto › {labels.get(name, name)}"] = text or ""
        elif key == "infractions":
            for inf in value or []:
                name = inf.get("label_pt") or labels.get(inf["id"]) or inf["id"]
                out[f"Infração {name}"] = DECISION_NAMES.get(inf.get("decision"), inf.get("decision") or "")
                out[f"Infração {name} › motivo da remoção"] = inf.get("removal_reason") or ""
        else:
            out[FIELD_NAMES[key]] = value or ""
    return out


def diff(before, after, labels=None):
    """[(field, before, after)] for every field that differs between two correctable dicts."""
    a, b = flatten(before, labels), flatten(after, labels)
    return [(k, a.get(k, ""), b.get(k, "")) for k in list(dict.fromkeys([*a, *b])) if a.get(k, "") != b.get(k, "")]


def history(case):
    """[(n, data, version row or None, diff against the previous)] from the signed original on."""
    labels = labels_of(case)
    rows = [(0, correctable_of(signed_body(case)), None)]
    rows += [(v.n, v.data, v) for v in versions(case)]
    out = []
    for i, (n, data, row) in enumerate(rows):
        out.append({"n": n, "data": data, "row": row, "diff": diff(rows[i - 1][1], data, labels) if i else []})
    return out


def next_number(case):
    last = db.session.query(db.func.max(AutoCaseVersion.n)).filter(AutoCaseVersion.case_id == case.id).scalar()
    return (last or 0) + 1
