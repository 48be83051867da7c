"""Every write of the communications to the traffic authority: opened by the sync push (its
records_accepted signal, connected by server/subscriptions.py, inside the push's transaction),
then their sending and acknowledgement recorded by a clerk, each audited. Nothing is deleted."""
from datetime import date

from sqlalchemy import select, update

from ...core.audit import record as audit
from ...core.clock import local_today, to_local
from ...core.errors import ApiError
from ...core.validation import DATE_RANGE_MESSAGE, EARLIEST_DATE, LATEST_DATE
from ...core.upsert import dialect_insert
from ...extensions import db
from ...rules.jurisdiction import traffic_infraction_ids
from ..autos.auto_data import traffic_authority_act
from ..fieldsync.bulk import insert_new
from ..registry.models import Municipality
from .derive import gps_of, observed_items, stop_id, text
from .models import TrafficReport, TrafficReportSeries

REFERENCE_MIN, REFERENCE_MAX = 3, 200


def open_reports_of_push(device, records, **_):
    """Receiver of fieldsync.signals.records_accepted: one communication per stop whose records
    carry CTB/SNT observations (see derive.py); a stop already communicated is left as it is."""
    open_reports(device.municipality_id, records)


def open_reports(municipality_id, records):
    """records: [{"id", "kind", "user_id", "operator_id", "device_at", "received_at", "body": dict}]."""
    ids = traffic_infraction_ids()
    municipality = None
    candidates = {}
    for r in records:
        if r["kind"] not in ("inspection", "auto") or not isinstance(r.get("body"), dict):
            continue
        if not _may_carry(r["body"], ids):  # most pushes: no query at all
            continue
        municipality = municipality or db.session.get(Municipality, municipality_id)
        items = observed_items(r["body"], r["kind"], ids, bool(traffic_authority_act(municipality)))
        stop = stop_id(r["body"], r["kind"], r["id"])
        if items and (stop not in candidates or r["kind"] == "inspection"):
            candidates[stop] = (r, items)
    if not candidates:
        return []
    held = set(db.session.scalars(select(TrafficReport.stop_id).where(
        TrafficReport.municipality_id == municipality_id, TrafficReport.stop_id.in_(sorted(candidates)))))
    new = [(stop, *candidates[stop]) for stop in sorted(candidates) if stop not in held]
    if not new:
        return []
    year = local_today().year
    first = _take_numbers(municipality_id, year, len(new))
    rows = []
    for n, (stop, r, items) in enumerate(new):
        lat, lon = gps_of(r["body"])
        rows.append({"municipality_id": municipality_id, "year": year, "seq": first + n, "stop_id": stop,
                     "record_id": r["id"], "user_id": r.get("user_id"), "operator_id": r.get("operator_id"),
                     "observed_at": r.get("device_at") or r["received_at"],
                     "plate": text(r["body"].get("plate"), 10), "permit_number": text(r["body"].get("permit_number"), 40),
                     "gps_lat": lat, "gps_lon": lon, "items": items, "state": "a_comunicar",
                     "created_at": r["received_at"]})
    inserted = insert_new(db.session.connection(), TrafficReport.__table__, rows,
                          ("municipality_id", "stop_id"), "seq")
    if inserted:
        audit("traffic_report_open", "traffic_report", None, None,
              {"numbers": [f"{seq:04d}/{year}" for seq in sorted(inserted)]}, municipality_id=municipality_id)
    return inserted


def _may_carry(body, ids):
    """Cheap first look (no database): does the body name a CTB/SNT infraction at all?"""
    evaluation = body.get("evaluation") if isinstance(body.get("evaluation"), dict) else {}
    items = (evaluation.get("infractions") if isinstance(evaluation.get("infractions"), list) else []) + \
        (body.get("infractions") if isinstance(body.get("infractions"), list) else [])
    return any(isinstance(i, dict) and (i.get("id") in ids or i.get("jurisdiction") == "snt") for i in items)


def _take_numbers(municipality_id, year, count):
    """The first of `count` consecutive numbers of the municipality's series of `year`."""
    table = TrafficReportSeries.__table__
    connection = db.session.connection()
    connection.execute(dialect_insert(connection, table).values(
        municipality_id=municipality_id, year=year, last_seq=0).on_conflict_do_nothing())
    # The UPDATE takes the row lock: two pushes at once queue here and never share a number.
    connection.execute(update(table).where(table.c.municipality_id == municipality_id, table.c.year == year)
                       .values(last_seq=table.c.last_seq + count))
    last = connection.execute(select(table.c.last_seq).where(
        table.c.municipality_id == municipality_id, table.c.year == year)).scalar_one()
    return last - count + 1


# --- the clerk's records --------------------------------------------------------------------------

def _invalid(field, message):
    return ApiError(422, "validation_error", "Dados inválidos.", {field: [message]})


def _day(value, field):
    if not isinstance(value, date):
        try:
            value = date.fromisoformat((value or "").strip())
        except ValueError:
            raise _invalid(field, "Informe a data (dd/mm/aaaa).") from None
    if not EARLIEST_DATE <= value <= LATEST_DATE:
        raise _invalid(field, DATE_RANGE_MESSAGE)
    return value


def _reference(value, field):
    value = (value or "").strip()
    if not REFERENCE_MIN <= len(value) <= REFERENCE_MAX:
        raise _invalid(field, f"Informe como foi feito (ofício, protocolo, e-mail), de {REFERENCE_MIN} a "
                              f"{REFERENCE_MAX} caracteres.")
    return value


def record_sending(reports, sent_on, reference, actor):
    """The clerk sent these communications (state a_comunicar) to the traffic authority on
    `sent_on`, by `reference` (the ofício or protocol): they become "comunicada". Until then every
    screen and document says "a comunicar"."""
    sent_on, reference = _day(sent_on, "sent_on"), _reference(reference, "sent_reference")
    pending = [r for r in reports if r.state == "a_comunicar"]
    if not pending:
        raise _invalid("reports", "Nenhuma comunicação a comunicar foi escolhida.")
    if sent_on > local_today():
        raise _invalid("sent_on", "A data do envio não pode ser futura.")
    for r in pending:
        if sent_on < to_local(r.observed_at).date():
            raise _invalid("sent_on", f"A comunicação nº {r.number} é de {to_local(r.observed_at):%d/%m/%Y}: "
                                      "o envio não pode ser anterior.")
    for r in pending:
        r.state, r.sent_on, r.sent_reference, r.sent_by_id = "comunicada", sent_on, reference, actor.id
        audit("traffic_report_send", "traffic_report", r.id, {"state": "a_comunicar"},
              {"state": "comunicada", "sent_on": sent_on.isoformat(), "sent_reference": reference},
              municipality_id=r.municipality_id, actor=actor)
    return pending


def record_acknowledgement(reports, acknowledged_on, reference, actor):
    """The traffic authority acknowledged these communications (state comunicada): "recebida"."""
    acknowledged_on = _day(acknowledged_on, "acknowledged_on")
    reference = _reference(reference, "acknowledged_reference")
    sent = [r for r in reports if r.state == "comunicada"]
    if not sent:
        raise _invalid("reports", "Nenhuma comunicação enviada foi escolhida: registre o envio antes.")
    if acknowledged_on > local_today():
        raise _invalid("acknowledged_on", "A data do recebimento não pode ser futura.")
    for r in sent:
        if acknowledged_on < r.sent_on:
            raise _invalid("acknowledged_on", f"A comunicação nº {r.number} foi enviada em {r.sent_on:%d/%m/%Y}: "
                                              "o recebimento não pode ser anterior.")
    for r in sent:
        r.state, r.acknowledged_on, r.acknowledged_reference = "recebida", acknowledged_on, reference
        r.acknowledged_by_id = actor.id
        audit("traffic_report_acknowledge", "traffic_report", r.id, {"state": "comunicada"},
              {"state": "recebida", "acknowledged_on": acknowledged_on.isoformat(),
               "acknowledged_reference": reference}, municipality_id=r.municipality_id, actor=actor)
    return sent
