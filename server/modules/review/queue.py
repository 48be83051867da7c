"""The review queue: received inspections and autos of one municipality, newest first, with the
filters a clerk uses. Parsing never trusts the query string: a bad value is ignored (and said so
by the form), never a 500.

Query shape (bench/review_queue.py): one indexed range over field_record (municipality,
received_at, id) with the case outer-joined; filters are EXISTS subqueries on small indexed
tables; the row details of one page (photos missing, conflicts, requests) are fetched in batch.
"""
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone

import math

from flask import current_app, request
from sqlalchemy import String, and_, cast, exists, select, union

from ...core.clock import timezone as local_zone
from ...extensions import db
from ..accounts.models import User
from ...core.pagination import Page, page_number
from ..autos.models import CASE_STATES, AutoCase
from ..fieldsync.models import EvidencePhoto, FieldRecord, FieldRecordConflict, RecordPhoto
from ..registry.models import Permit, Ponto, permit_drivers
from .flags import FILTERABLE
from .models import CancelRequestDecision

STATUSES = {"recebido": "Auto recebido (a revisar)", "homologado": "Auto homologado",
            "insubsistente": "Auto insubsistente", "sem_auto": "Inspeção sem auto",
            "com_auto": "Inspeção com auto"}
KINDS = {"auto": "Autos", "inspection": "Inspeções"}
BASES = {"recebido": "data de recebimento", "aparelho": "data do celular"}
MAX_ID = 2**31 - 1


@dataclass
class Filters:
    kind: str = ""
    fiscal: int | None = None
    ponto: int | None = None
    status: str = ""
    base: str = "recebido"
    start: date | None = None
    end: date | None = None
    conflicts: bool = False
    cancel: bool = False
    flag: str = ""
    ignored: list = field(default_factory=list)  # arguments that made no sense (named on screen)


def _int(name, filters):
    raw = (request.args.get(name) or "").strip()
    if not raw:
        return None
    if raw.isdigit() and len(raw) < 11 and 0 < int(raw) <= MAX_ID:
        return int(raw)
    filters.ignored.append(name)
    return None


def _date(name, filters):
    raw = (request.args.get(name) or "").strip()
    if not raw:
        return None
    try:
        return date.fromisoformat(raw[:10]) if len(raw) == 10 else date.fromisoformat("invalid")
    except ValueError:
        filters.ignored.append(name)
        return None


def _choice(name, options, filters, default=""):
    raw = (request.args.get(name) or "").strip()
    if raw and raw not in options:
        filters.ignored.append(name)
        return default
    return raw or default


def parse_filters():
    f = Filters()
    f.kind = _choice("tipo", KINDS, f)
    f.fiscal = _int("fiscal", f)
    f.ponto = _int("ponto", f)
    f.status = _choice("situacao", STATUSES, f)
    f.base = _choice("base", BASES, f, "recebido")
    f.start = _date("de", f)
    f.end = _date("ate", f)
    f.conflicts = request.args.get("conflitos") == "1"
    f.cancel = request.args.get("cancelamento") == "1"
    f.flag = _choice("indicador", FILTERABLE, f)
    return f


def _utc_start(day):
    return datetime.combine(day, time.min, tzinfo=local_zone()).astimezone(timezone.utc)


def photo_missing_ids(mid):
    """Records referencing a photo the municipality does not hold: one anti-join over the photo
    tables (a per-record EXISTS cost a lookup for each of the municipality's records)."""
    return (select(RecordPhoto.record_id).outerjoin(EvidencePhoto, and_(
        EvidencePhoto.sha256 == RecordPhoto.sha256, EvidencePhoto.municipality_id == mid))
        .where(EvidencePhoto.id.is_(None)))


def open_conflict_clause():
    """The record has an open conflict filed in its own municipality."""
    return exists().where(FieldRecordConflict.record_id == FieldRecord.id,
                          FieldRecordConflict.municipality_id == FieldRecord.municipality_id,
                          FieldRecordConflict.reviewed_at.is_(None))


def _pending_targets(mid, ids):
    """Of these auto ids, those with a cancellation request of the municipality not yet decided
    (a request naming another municipality's auto is nobody's here)."""
    Request = db.aliased(FieldRecord)
    return db.session.execute(
        select(Request.target_id).outerjoin(CancelRequestDecision, CancelRequestDecision.request_id == Request.id)
        .where(Request.kind == "cancel_request", Request.municipality_id == mid, Request.target_id.in_(ids),
               CancelRequestDecision.id.is_(None))
    ).scalars()


def pending_cancel_clause():
    """The record has an undecided cancellation request sent in its own municipality."""
    Request = db.aliased(FieldRecord)
    return exists().where(Request.target_id == FieldRecord.id, Request.kind == "cancel_request",
                          Request.municipality_id == FieldRecord.municipality_id,
                          ~exists().where(CancelRequestDecision.request_id == Request.id))


def query(mid, f):
    """(ids query, count query). The ids query reads only field_record (and auto_case when the
    state is filtered): a deep page skips its offset inside the index (municipality, received_at,
    id, kind) instead of joining every skipped row; `load` then fetches the page's rows."""
    ids = (db.session.query(FieldRecord.id)
           .filter(FieldRecord.municipality_id == mid, FieldRecord.kind.in_(("inspection", "auto"))))
    conditions = []
    if f.kind:
        conditions.append(FieldRecord.kind == f.kind)
    if f.fiscal:
        conditions.append(FieldRecord.user_id == f.fiscal)
    if f.ponto:
        operators = union(
            select(Permit.holder_operator_id).where(Permit.ponto_id == f.ponto, Permit.municipality_id == mid,
                                                   Permit.holder_operator_id.isnot(None)),
            select(permit_drivers.c.operator_id).join(Permit, Permit.id == permit_drivers.c.permit_id)
            .where(Permit.ponto_id == f.ponto, Permit.municipality_id == mid))
        conditions.append(FieldRecord.operator_id.in_(operators))
    if f.status in CASE_STATES:
        ids = ids.join(AutoCase, AutoCase.record_id == FieldRecord.id)
        conditions.append(AutoCase.state == f.status)
    elif f.status in ("sem_auto", "com_auto"):
        Auto = db.aliased(FieldRecord)
        has_auto = exists().where(Auto.inspection_id == FieldRecord.id, Auto.kind == "auto")
        conditions += [FieldRecord.kind == "inspection", ~has_auto if f.status == "sem_auto" else has_auto]
    column = FieldRecord.device_at if f.base == "aparelho" else FieldRecord.received_at
    if f.start:
        conditions.append(column >= _utc_start(f.start))
    if f.end:
        conditions.append(column < _utc_start(f.end + timedelta(days=1)))
    if f.conflicts:
        conditions.append(open_conflict_clause())
    if f.cancel:
        conditions.append(pending_cancel_clause())
    if f.flag == "photo_missing":
        conditions.append(FieldRecord.id.in_(photo_missing_ids(mid)))
    elif f.flag:
        # flags is a JSON list of codes; the codes are plain words, so a quoted match is exact.
        conditions.append(cast(FieldRecord.flags, String).like(f'%"{f.flag}"%'))
    ids = ids.filter(*conditions)
    return ids.order_by(FieldRecord.received_at.desc(), FieldRecord.id.desc()), ids


class TwoEndedPage(Page):
    """Offset pagination that reads a page past the middle from the other end (oldest first,
    then reversed): the last page costs what the first does, the middle one the most. The two
    orders mirror each other exactly (received_at, id), so pages never overlap or skip."""

    def __init__(self, ids, count_query, per_page=None):
        self.per_page = per_page or current_app.config["PAGE_SIZE"]
        self.total = count_query.order_by(None).count()
        self.pages = max(1, math.ceil(self.total / self.per_page))
        self.number = min(max(1, page_number()), self.pages)
        offset = (self.number - 1) * self.per_page
        if offset * 2 > self.total:
            size = min(self.per_page, self.total - offset)
            oldest_first = ids.order_by(None).order_by(FieldRecord.received_at.asc(), FieldRecord.id.asc())
            self.items = oldest_first.limit(size).offset(self.total - offset - size).all()[::-1]
        else:
            self.items = ids.limit(self.per_page).offset(offset).all()


def load(ids):
    """[(FieldRecord, AutoCase | None, fiscal name)] for a list of ids (kept in its order) or for
    an ids query (newest first)."""
    rows = (db.session.query(FieldRecord, AutoCase, User.name)
            .outerjoin(AutoCase, AutoCase.record_id == FieldRecord.id)
            .join(User, User.id == FieldRecord.user_id))
    if isinstance(ids, list):
        if not ids:
            return []
        found = {r[0].id: r for r in rows.filter(FieldRecord.id.in_(ids))}
        return [found[i] for i in ids if i in found]
    return rows.filter(FieldRecord.id.in_(ids.subquery().select())).order_by(
        FieldRecord.received_at.desc(), FieldRecord.id.desc()).all()


def page_details(mid, records):
    """For the records of one page: {id: {"photo_missing", "conflicts", "cancel_pending"}}."""
    ids = [r.id for r in records]
    out = {i: {"photo_missing": False, "conflicts": 0, "cancel_pending": False} for i in ids}
    if not ids:
        return out
    missing = db.session.execute(
        select(RecordPhoto.record_id).outerjoin(EvidencePhoto, and_(
            EvidencePhoto.sha256 == RecordPhoto.sha256, EvidencePhoto.municipality_id == mid))
        .where(RecordPhoto.record_id.in_(ids), EvidencePhoto.id.is_(None)).distinct()).scalars()
    for rid in missing:
        out[rid]["photo_missing"] = True
    for rid, n in db.session.execute(
            select(FieldRecordConflict.record_id, db.func.count()).where(
                FieldRecordConflict.municipality_id == mid, FieldRecordConflict.record_id.in_(ids),
                FieldRecordConflict.reviewed_at.is_(None))
            .group_by(FieldRecordConflict.record_id)):
        out[rid]["conflicts"] = n
    for rid in _pending_targets(mid, ids):
        out[rid]["cancel_pending"] = True
    return out


def options(mid):
    """Choices of the filter form: the municipality's fiscais and pontos."""
    fiscais = (User.query.filter(User.municipality_id == mid, User.role == "fiscal")
               .order_by(User.name).with_entities(User.id, User.name).all())
    pontos = Ponto.query.filter_by(municipality_id=mid).order_by(Ponto.name).with_entities(Ponto.id, Ponto.name).all()
    return fiscais, pontos


def filters_active(f):
    return any([f.kind, f.fiscal, f.ponto, f.status, f.start, f.end, f.conflicts, f.cancel, f.flag])

