"""Field data for phones: a compacted snapshot of the municipality's registry, then deltas.

cursor 0 (or a cursor the server does not know) → snapshot: the current state of every permit,
operator, vehicle, ponto and applied penalty, read from the registry tables themselves. Any other
cursor → the entities whose FieldDataEntity version is above it, each once, in its current state
(rows replace the phone's rows whole), plus `removed` ids. The composed rules travel with a
snapshot and with a delta only when they changed. The version is read before the data, so a
change committed meanwhile is at worst sent twice, never skipped.

Size (issue 24: 10,000 permits toward 150 KB of gzip): rows carry only what the verdict, the
search, the rule facts and the auto read on the phone (LGPD art. 6º III: no CPF, no CNH expiry,
no permit kind, no ponto address), leave out null values, and with format=packed each entity
list travels column by column, each column encoded once (field_codec.py; docs/sync-api.md;
measured per part in bench/field_data.py).
"""
from sqlalchemy import select

from ...core.clock import local_now, local_today
from ...core.signals import gather
from ...extensions import db
from ..calendar.service import field_calendar
from ..issuance.records import vehicle_record_dates
from ..registry.public_address import own_public_base_url
from ..registry.change_models import FieldDataEntity, FieldDataState
from ..registry.changes import mark_changed
from ..registry.models import Company, Municipality, Operator, Permit, Ponto, Vehicle, permit_drivers
from ..registry.transition_models import PermitTransition, transition_text
from ..rules.service import composed_for
from .fact_floors import apply_floors, date_floors
from .field_codec import pack_table, to_columns
from .models import AppliedPenalty
from .photo_size import photo_size
from .signals import field_data_sections

KINDS = ("permit", "operator", "vehicle", "ponto", "penalty")
PLURAL = {"permit": "permits", "operator": "operators", "vehicle": "vehicles", "ponto": "pontos",
          "penalty": "penalties"}


def _iso(value):
    return value.isoformat() if value is not None else None


def _compact(row: dict) -> dict:
    return {k: v for k, v in row.items() if v is not None and v != []}


# Operators with a photo carry `photo: 1`; the thumbnail is at PHOTO_URL with their id (a URL per
# row would cost ~25 KB per 10,000 operators). A new photo changes the operator row, so the phone
# fetches again the thumbnails of the operators a delta brings.
PHOTO_URL = "/api/v1/field/photos/{id}"


# --- rows -------------------------------------------------------------------------------------

def permit_rows(municipality_id, ids=None):
    # Verdict and rule facts only (status, validity, issue date, who and what it covers); the
    # kind, the suspension's end, insurance, vistoria and tax dates stay in the back office.
    query = (select(Permit.id, Permit.number, Permit.status, Permit.issued_on, Permit.valid_until,
                    Permit.holder_operator_id, Company.legal_name, Permit.vehicle_id,
                    Permit.ponto_id)
             .outerjoin(Company, Company.id == Permit.holder_company_id)
             .where(Permit.municipality_id == municipality_id).order_by(Permit.id))
    drivers_query = (select(permit_drivers.c.permit_id, permit_drivers.c.operator_id)
                     .join(Permit, Permit.id == permit_drivers.c.permit_id)
                     .where(Permit.municipality_id == municipality_id)
                     .order_by(permit_drivers.c.permit_id, permit_drivers.c.operator_id))
    if ids is not None:
        query = query.where(Permit.id.in_(ids))
        drivers_query = drivers_query.where(Permit.id.in_(ids))
    drivers = {}
    for permit_id, operator_id in db.session.execute(drivers_query):
        drivers.setdefault(permit_id, []).append(operator_id)
    transitions = _transitions(municipality_id, ids)
    return [_compact({
        "id": r.id, "number": r.number, "status": r.status, "issued_on": _iso(r.issued_on),
        "valid_until": _iso(r.valid_until), "holder_operator_id": r.holder_operator_id, "holder_company": r.legal_name, "vehicle_id": r.vehicle_id,
        "ponto_id": r.ponto_id, "driver_ids": drivers.get(r.id, []), "transitions": transitions.get(r.id, []),
    }) for r in db.session.execute(query)]


def _transitions(municipality_id, ids=None):
    """{permit id: [{"r": requirement id, "l": its label, "u": last day or absent, "t": pt-BR text}]}: the existing
    fleet's requirements in transition (registry.transition_models), which the roadside verdict
    shows instead of proposing the infraction. No personal data: a rule id, a date, a sentence."""
    query = (select(PermitTransition.permit_id, PermitTransition.requirement_id, PermitTransition.label,
                    PermitTransition.kind, PermitTransition.act, PermitTransition.until)
             .where(PermitTransition.municipality_id == municipality_id).order_by(PermitTransition.id))
    if ids is not None:
        query = query.where(PermitTransition.permit_id.in_(ids))
    out = {}
    for permit_id, requirement, label, kind, act, until in db.session.execute(query):
        out.setdefault(permit_id, []).append(_compact({"r": requirement, "l": label, "u": _iso(until),
                                                       "t": transition_text(kind, act, until)}))
    return out


def operator_rows(municipality_id, ids=None):
    """Only what the roadside needs: name and face, and the rule facts (CNH category and first
    issue, age, residence; the dates floored by field_data() where the rules allow, fact_floors.py).
    No CPF, CNH number, CNH expiry, address, phone or blood type: name and face identify at the
    roadside, and the server puts the CNH number (CTB art. 280 IV, "sempre que possível") on the
    notificação from the registry (autos/notification_content.py), so 10,000 CNH numbers do not
    ride on every phone (LGPD art. 6º III; 52 KB of the 10,000-permit download, issue 24)."""
    query = (select(Operator.id, Operator.name, Operator.photo_path, Operator.cnh_category,
                    Operator.cnh_first_issue_date, Operator.birth_date,
                    Operator.residence_since, Operator.disqualified_on, Operator.disqualified_basis,
                    Operator.rehabilitation_course_on)
             .where(Operator.municipality_id == municipality_id).order_by(Operator.id))
    if ids is not None:
        query = query.where(Operator.id.in_(ids))
    return [_compact({
        "id": r.id, "name": r.name, "photo": 1 if r.photo_path else None,
        "cnh_category": r.cnh_category, "cnh_first_issue_date": _iso(r.cnh_first_issue_date), "birth_date": _iso(r.birth_date),
        "residence_since": _iso(r.residence_since),
        # inabilitação reached by applied penalties, until the curso de reabilitação (issue 19)
        "disqualified_on": _iso(r.disqualified_on), "disqualified_basis": r.disqualified_basis,
        "rehabilitation_course_on": _iso(r.rehabilitation_course_on),
    }) for r in db.session.execute(query)]


def vehicle_rows(municipality_id, ids=None):
    query = (select(Vehicle.id, Vehicle.plate, Vehicle.make, Vehicle.model, Vehicle.year_manufacture,
                    Vehicle.engine_cc, Vehicle.plate_category)
             .where(Vehicle.municipality_id == municipality_id).order_by(Vehicle.id))
    if ids is not None:
        query = query.where(Vehicle.id.in_(ids))
    # Vistoria and insurance validity feed the roadside rules (vehicle.inspection_valid_until,
    # insurance.valid_until): "vistoria vencida" and "seguro vencido" on the verdict.
    dates = vehicle_record_dates(db.session.get(Municipality, municipality_id), ids)
    return [_compact({"id": r.id, "plate": r.plate, "make": r.make, "model": r.model,
                      "year_manufacture": r.year_manufacture, "engine_cc": r.engine_cc,
                      "plate_category": r.plate_category,
                      "vistoria_until": _iso(dates.get(r.id, {}).get("vistoria_until")),
                      "vistoria_on": _iso(dates.get(r.id, {}).get("vistoria_on")),
                      "vistoria_result": dates.get(r.id, {}).get("vistoria_result"),
                      "insurance_until": _iso(dates.get(r.id, {}).get("insurance_until"))})
            for r in db.session.execute(query)]


def ponto_rows(municipality_id, ids=None):
    query = select(Ponto).where(Ponto.municipality_id == municipality_id).order_by(Ponto.id)
    if ids is not None:
        query = query.where(Ponto.id.in_(ids))
    # The verdict shows the ponto's name; its address, position and capacity are back-office data.
    return [{"id": p.id, "name": p.name} for p in db.session.execute(query).scalars()]


def penalty_rows(municipality_id, ids=None):
    """Applied penalties as rule-engine history: infraction id, the day it was committed (the
    history `date`), the day the penalty became applied, penalty kind."""
    query = select(AppliedPenalty).where(AppliedPenalty.municipality_id == municipality_id).order_by(AppliedPenalty.id)
    if ids is not None:
        query = query.where(AppliedPenalty.id.in_(ids))
    return [_compact({"id": p.id, "operator_id": p.operator_id, "permit_id": p.permit_id,
                      "infraction_id": p.infraction_id, "penalty": p.penalty,
                      "committed_on": _iso(p.committed_on), "applied_on": _iso(p.applied_on),
                      "cancelled": p.cancelled, "auto_record_id": p.auto_record_id})
            for p in db.session.execute(query).scalars()]


ROWS = {"permit": permit_rows, "operator": operator_rows, "vehicle": vehicle_rows, "ponto": ponto_rows,
        "penalty": penalty_rows}


# --- versions ---------------------------------------------------------------------------------

def current_state(municipality):
    """(version, changed_at, rules) for the municipality, bumping the version first when the
    composed rules differ from those last sent (a configuration change or a new pack release)."""
    rules = composed_for(municipality)
    rules_etag = rules.etag
    state = db.session.get(FieldDataState, municipality.id)
    if state is None or state.rules_etag != rules_etag:
        connection = db.session.connection()
        # New rules may read the floored dates differently (fact_floors.py): every operator row
        # travels again, floored by the new rules (the next delta then weighs about a snapshot's
        # operators; rule changes are a configuration change or a pack release).
        operators = db.session.scalars(select(Operator.id).where(Operator.municipality_id == municipality.id))
        mark_changed(connection, municipality.id,
                     [("rules", 0, False)] + [("operator", operator_id, False) for operator_id in operators])
        db.session.execute(FieldDataState.__table__.update()
                           .where(FieldDataState.municipality_id == municipality.id)
                           .values(rules_etag=rules_etag))
        state = db.session.get(FieldDataState, municipality.id, populate_existing=True)
    return state.version, state.changed_at, rules, rules_etag


FORMAT_TAG = {"rows": "r", "columns": "c", "packed": "p", "packed2": "p2"}  # one ETag per representation
PACKED_FORMATS = ("packed", "packed2")  # no rules inside: GET /api/v1/rules/<slug>


def data_tag(municipality, version, cursor, rules_etag, fmt="rows"):
    """The strong validator of one response body (before content coding)."""
    snapshot = cursor == 0 or cursor > version
    return (f"fd-{municipality.id}-{version}-{'s' if snapshot else cursor}-{FORMAT_TAG[fmt]}-"
            f"{rules_etag.strip(chr(34))[:16]}")


def _municipality(municipality):
    offset = municipality.setting("utc_offset_minutes", int(local_now().utcoffset().total_seconds() // 60))
    return {"slug": municipality.slug, "name": municipality.name, "ibge": municipality.ibge_code,
            "timezone_offset": int(offset),
            # Its own "Endereço público" (registry.public_address), or None: the operator's copy
            # (/a/#…) then names the field app's own origin, as before.
            "public_base_url": own_public_base_url(municipality)}


ENCODE = {"rows": lambda kind, rows: rows, "columns": lambda kind, rows: to_columns(rows),
          "packed": pack_table, "packed2": lambda kind, rows: pack_table(kind, rows, "packed2")}


def field_data(municipality, cursor, version, changed_at, rules, fmt="rows"):
    snapshot = cursor == 0 or cursor > version
    mid = municipality.id
    out = {"cursor": version, "snapshot": snapshot,
           "generated_at": changed_at.isoformat() if changed_at else None,
           "municipality": _municipality(municipality), "photo_url": PHOTO_URL}
    removed = {PLURAL[k]: [] for k in KINDS}
    include_rules = snapshot
    include_calendar = snapshot
    if snapshot:
        for kind in KINDS:
            out[PLURAL[kind]] = ROWS[kind](mid)
    else:
        changed = {kind: [] for kind in KINDS}
        rows = db.session.execute(select(FieldDataEntity.kind, FieldDataEntity.entity_id, FieldDataEntity.removed)
                                  .where(FieldDataEntity.municipality_id == mid,
                                         FieldDataEntity.version > cursor)
                                  .order_by(FieldDataEntity.kind, FieldDataEntity.entity_id))
        for kind, entity_id, is_removed in rows:
            if kind == "rules":
                include_rules = True
            elif kind == "calendar":
                include_calendar = True
            elif kind in changed:
                (removed[PLURAL[kind]] if is_removed else changed[kind]).append(entity_id)
        for kind in KINDS:
            out[PLURAL[kind]] = ROWS[kind](mid, changed[kind]) if changed[kind] else []
    apply_floors(out["operators"], date_floors(rules.to_json(), local_today()))
    for kind in KINDS:
        out[PLURAL[kind]] = ENCODE[fmt](kind, out[PLURAL[kind]])
    out["format"] = fmt
    out["removed"] = removed
    # format=packed(2) never repeats the rules: the phone takes them from GET /api/v1/rules/<slug>
    # (ETag) in the same download, and compares rules_etag.
    out["rules"] = rules.to_json() if include_rules and fmt not in PACKED_FORMATS else None
    out["rules_etag"] = rules.etag.strip('"')
    # What features above fieldsync add (signals.field_data_sections, server/subscriptions.py):
    # "tariff", the table in force (tariffs.operations.field_data_section).
    out.update(gather(field_data_sections, municipality))
    # The legal calendar (holiday data and the municipality's closures), so the phone counts
    # deadlines and due dates on the same days as the server: whole (a few kilobytes) in a
    # snapshot, when a closure changed or with the rules; null otherwise (the phone keeps its copy).
    out["calendar"] = field_calendar(municipality) if include_calendar or include_rules else None
    # The evidence photo size the municipality chose (photo_size.py): whole in every answer, a
    # few bytes, apart from the registry rows so it never mixes with their encoding.
    out["photo_size"] = photo_size(municipality)
    return out
