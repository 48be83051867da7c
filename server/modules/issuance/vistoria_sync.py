"""Vistorias run on the field app: a signed record of kind "vistoria" accepted by the sync push
(fieldsync/push.py calls `file_vistorias` in the push's transaction) becomes exactly one
issuance Vistoria.

- Once per record: the push files only records it has just inserted (a replay is a duplicate
  and files nothing) and `vistoria.field_record_id` is unique.
- Recorded by the fiscal who signed it; inspector = the fiscal's name; photos by their hashes
  (the evidence store holds them once uploaded: fieldsync/photos).
- The server re-checks the answers with `vistoria_checklist.failed_items`, as the back office
  does. A rejection is kept as signed. An approval whose answers fail a requirement is never
  counted as approved: it is stored with result "em_revisao" and a review note, the field record
  gets the flag `vistoria_approval_failed`, and a clerk settles it by recording the vistoria in
  the back office. A vehicle the municipality does not hold files nothing and flags the record
  `vistoria_vehicle_unknown` (the signed record itself is kept, as every accepted record is).
"""

from datetime import date

from ...core.audit import record, snapshot
from ...core.clock import local_today
from ...extensions import db
from ...rules import RulesError
from ..registry.models import Municipality, Permit, Vehicle
from .models import VISTORIA_IN_REVIEW, Vistoria
from .operations import satisfy_substitution_vistorias, vehicle_changed
from .vistoria_checklist import failed_items

NOT_CHECKED = "nao_verificado"


def _permit_for(municipality, vehicle, body):
    """The permit the vistoria concerns: the one named, when it is this vehicle's, else the
    vehicle's newest permit (none for a vehicle not yet holding one)."""
    if body.get("permit_id"):
        permit = db.session.get(Permit, body["permit_id"]) if 0 < body["permit_id"] < 2**31 else None
        if permit is not None and permit.municipality_id == municipality.id and permit.vehicle_id == vehicle.id:
            return permit
    return (Permit.query.filter_by(municipality_id=municipality.id, vehicle_id=vehicle.id)
            .order_by(Permit.id.desc()).first())


def _items_to_fix(body):
    lines = []
    for item in body.get("items_to_fix") or []:
        label = str(item.get("label_pt") or item.get("fact") or "").strip()
        citation = str(item.get("citation") or "").strip()
        if label:
            lines.append(f"{label} ({citation})" if citation else label)
    return "; ".join(lines) or None


def _photos(body):
    hashes = list(body.get("photos") or [])
    for values in (body.get("item_photos") or {}).values():
        hashes.extend(values)
    return sorted(set(hashes))


def _file_one(municipality, user, row):
    """The flag the record earns, or None."""
    body, record_id = row["body"], row["id"]
    vehicle_id = body.get("vehicle_id")
    vehicle = db.session.get(Vehicle, vehicle_id) if isinstance(vehicle_id, int) and 0 < vehicle_id < 2**31 else None
    if vehicle is None or vehicle.municipality_id != municipality.id:
        return "vistoria_vehicle_unknown"
    inspected_on = date.fromisoformat(body["inspected_on"])
    # A phone clock ahead cannot date a vistoria in the future (the back office refuses it too).
    inspected_on = min(inspected_on, local_today())
    answers = {k: v for k, v in (body.get("answers") or {}).items() if v is not None and v != NOT_CHECKED}
    try:
        failures = failed_items(municipality, inspected_on, answers)
    except RulesError as exc:  # an answer the packs do not know or of the wrong type
        failures = [f"respostas que as regras não aceitam ({exc})"]
    result, note = body["result"], None
    if result == "aprovada" and failures:
        result = VISTORIA_IN_REVIEW
        note = ("Assinada como aprovada no aplicativo de campo, mas as respostas não atendem: "
                + "; ".join(failures) + ". Registre a vistoria de novo para decidir.")
    return_on = body.get("return_on")
    vistoria = Vistoria(
        municipality_id=municipality.id, vehicle_id=vehicle.id, permit_id=getattr(_permit_for(municipality, vehicle, body), "id", None),
        kind=body["vistoria_kind"], inspected_on=inspected_on, result=result, items=answers,
        items_to_fix=_items_to_fix(body) if body["result"] == "reprovada" else None,
        return_on=date.fromisoformat(return_on) if return_on else None,
        inspector_name=(user.name or user.username)[:160], photo_hashes=_photos(body),
        notes=(body.get("notes") or None), recorded_by_id=user.id, field_record_id=record_id, review_note=note)
    db.session.add(vistoria)
    db.session.flush()
    record("create", "vistoria", vistoria.id, None, snapshot(vistoria),
           reason=f"Vistoria do aplicativo de campo (registro {record_id}).", municipality_id=municipality.id)
    if vistoria.result == "aprovada":
        satisfy_substitution_vistorias(vistoria)
    vehicle_changed(municipality, vehicle)
    return "vistoria_approval_failed" if result == VISTORIA_IN_REVIEW else None


def file_vistorias(device, user, accepted_rows):
    """accepted_rows: the push's newly inserted vistoria records ({id, kind, flags, body: dict}),
    filed in the caller's transaction. Returns {record id: [flag]} for the push to add
    (fieldsync/push.py ON_ACCEPT shape)."""
    rows = [r for r in accepted_rows if r["kind"] == "vistoria"]
    if not rows:
        return {}
    municipality = db.session.get(Municipality, device.municipality_id)
    flags = {}
    for row in rows:
        flag = _file_one(municipality, user, row)
        if flag:
            flags[row["id"]] = [flag]
    return flags
