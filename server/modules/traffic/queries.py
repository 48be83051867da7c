"""The communications as the back office, their PDF and their CSV show them: one reading, so the
three say the same (number, when and where, plate, permit, driver and CNH from the registry,
agent, the CTB infractions with their article, and the sending state in words)."""
import json
from datetime import date, datetime, time, timedelta, timezone

from sqlalchemy import func, select

from ...core.clock import local_today, timezone as local_tz, to_local
from ...core.ptbr import plate as plate_text
from ...core.tenancy import in_scope, owned
from ...extensions import db
from ..accounts.models import User
from ..fieldsync.models import FieldRecord
from ..registry.models import Operator
from ..registry.vocabulary import vocabulary
from ..rules.citations import format_citation
from ..rules.service import composed_for
from .models import STATES, TrafficReport

STATE_PT = {"a_comunicar": "A comunicar", "comunicada": "Comunicada", "recebida": "Recebida pelo órgão de trânsito"}


def state_words(report) -> str:
    """The sending state as every surface says it: "a comunicar" until a clerk records the sending,
    never "comunicado" before (issue 34, item 2)."""
    if report.state == "recebida":
        return (f"Recebida pelo órgão de trânsito em {report.acknowledged_on:%d/%m/%Y} "
                f"({report.acknowledged_reference}); enviada em {report.sent_on:%d/%m/%Y} ({report.sent_reference})")
    if report.state == "comunicada":
        return f"Comunicada em {report.sent_on:%d/%m/%Y} ({report.sent_reference}); recebimento não registrado"
    return "A comunicar (envio ainda não registrado)"


def period(first: date | None, last: date | None):
    """(first, last) whole local days; default: the current month up to today."""
    today = local_today()
    first = first or today.replace(day=1)
    last = last or today
    return (first, last) if first <= last else (last, first)


def _bounds(first, last):
    """The period's instants in UTC: SQLite keeps timestamps as UTC wall time and drops an
    offset, so a local bound would be compared as if it were UTC."""
    tz = local_tz()
    return tuple(datetime.combine(day, time.min, tz).astimezone(timezone.utc)
                 for day in (first, last + timedelta(days=1)))


def reports_in(municipality_id, first, last, state=None):
    start, end = _bounds(first, last)
    query = in_scope(TrafficReport, municipality_id).filter(
        TrafficReport.observed_at >= start, TrafficReport.observed_at < end)
    if state in STATES:
        query = query.filter(TrafficReport.state == state)
    return query.order_by(TrafficReport.year, TrafficReport.seq).all()


def counts(municipality_id, first=None, last=None) -> dict:
    """{state: n} of the communications observed in the period (all of them when no period)."""
    query = select(TrafficReport.state, func.count()).where(TrafficReport.municipality_id == municipality_id)
    if first and last:
        start, end = _bounds(first, last)
        query = query.where(TrafficReport.observed_at >= start, TrafficReport.observed_at < end)
    out = {s: 0 for s in STATES}
    out.update(dict(db.session.execute(query.group_by(TrafficReport.state)).all()))
    return out


def report_for_stop(municipality_id, stop_ids):
    """The communication of a stop (inspection id, or an auto's inspection id), or None."""
    ids = [s for s in stop_ids if s]
    if not ids:
        return None
    return in_scope(TrafficReport, municipality_id).filter(TrafficReport.stop_id.in_(ids)).first()


def _auto_of(report):
    """The stop's auto (its place is where the infraction was observed), when there is one."""
    record = owned(FieldRecord, report.record_id, report.municipality_id)
    if record is not None and record.kind == "auto":
        return record
    return (FieldRecord.query.filter_by(municipality_id=report.municipality_id, kind="auto",
                                        inspection_id=report.stop_id).order_by(FieldRecord.received_at).first())


def _body(record):
    try:
        body = json.loads(record.body) if record is not None else {}
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def shown(report, municipality, composed=None):
    """Everything a surface prints of one communication."""
    composed = composed or composed_for(municipality)
    auto = _auto_of(report)
    record = owned(FieldRecord, report.record_id, report.municipality_id)
    operator = owned(Operator, report.operator_id or (record.operator_id if record else None), report.municipality_id)
    fiscal = owned(User, report.user_id, report.municipality_id)
    place = _body(auto).get("place") if auto is not None else None
    gps = f"{report.gps_lat:.6f}, {report.gps_lon:.6f}" if report.gps_lat is not None else None
    items = []
    for item in report.items or []:
        entry = composed.by_id.get(item.get("id")) or {}
        citation = entry.get("citation") or item.get("citation")
        items.append({"label": entry.get("label_pt") or item.get("label_pt") or item.get("id"),
                      "citation": format_citation(composed, citation) if isinstance(citation, dict) else (citation or ""),
                      "observed": "; ".join(item.get("observed") or [])})
    return {
        "report": report, "number": report.number, "at": to_local(report.observed_at),
        "place": place.strip() if isinstance(place, str) and place.strip() else None, "gps": gps,
        "plate": plate_text(report.plate) if report.plate else None,
        "permit": f"{vocabulary(municipality).permit_title} nº {report.permit_number}" if report.permit_number else None,
        "driver": operator.name if operator else None, "cnh": operator.cnh_number if operator else None,
        "agent": (f"{fiscal.name}{f', matrícula {fiscal.registration}' if fiscal.registration else ''}"
                  if fiscal else None),
        "items": items, "state": report.state, "state_pt": STATE_PT[report.state], "state_words": state_words(report),
        "auto_number": auto.auto_number if auto is not None else None,
        "auto_record_id": auto.id if auto is not None else None, "record_id": report.record_id,
    }
