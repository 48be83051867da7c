"""The dashboard's aggregates: GROUP BY over the derived tables (models.py), scoped to one
municipality and one period, never a record loaded into Python. Amounts leave out autos
declared insubsistente (AutoCase), which no longer charge anybody."""
from datetime import date, timedelta

from sqlalchemy import and_, case, func, or_, select

from ...extensions import db
from ..accounts.models import User
from ..autos.models import AutoCase
from ..registry.models import Permit, Ponto
from .models import FieldStat, FieldStatItem

PERIODS = {"mes": "Este mês", "12m": "Últimos 12 meses", "outro": "Outro período"}
EXPIRY_HORIZONS = (30, 60, 90)
TOP = 10
DAILY_SPAN_DAYS = 62  # up to two months a bar per day, beyond a bar per month


def period_range(key, today, start=None, end=None):
    """(first day, last day) of a period key; "outro" uses the dates given."""
    if key == "12m":
        first = date(today.year - 1, today.month, 1)
        first = date(first.year + (first.month == 12), first.month % 12 + 1, 1)
        return first, today
    if key == "outro" and start and end:
        return min(start, end), max(start, end)
    return today.replace(day=1), today


def _live_amount(column):
    """An amount that counts: its auto is not insubsistente."""
    return func.coalesce(func.sum(case((or_(AutoCase.state.is_(None), AutoCase.state != "insubsistente"), column))), 0)


def _in(model, mid, kind, first, last):
    return and_(model.municipality_id == mid, model.kind == kind, model.day >= first, model.day <= last)


def _stats_with_case(*columns):
    return select(*columns).select_from(FieldStat).outerjoin(AutoCase, AutoCase.record_id == FieldStat.record_id)


def totals(mid, first, last):
    row = db.session.execute(
        _stats_with_case(
            func.count(case((FieldStat.kind == "inspection", 1))),
            func.count(case((FieldStat.kind == "auto", 1))),
            func.count(case((AutoCase.state == "insubsistente", 1))),
            _live_amount(FieldStat.amount_cents))
        .where(FieldStat.municipality_id == mid, FieldStat.day >= first, FieldStat.day <= last)).one()
    return {"inspections": row[0], "autos": row[1], "void": row[2], "amount_cents": int(row[3])}


def by_time(mid, first, last):
    """[(bucket label, inspections, autos, amount_cents)], a bucket per day or per month."""
    daily = (last - first).days < DAILY_SPAN_DAYS
    bucket = FieldStat.day if daily else FieldStat.month
    rows = db.session.execute(
        _stats_with_case(bucket, func.count(case((FieldStat.kind == "inspection", 1))),
                         func.count(case((FieldStat.kind == "auto", 1))), _live_amount(FieldStat.amount_cents))
        .where(FieldStat.municipality_id == mid, FieldStat.day >= first, FieldStat.day <= last)
        .group_by(bucket)).all()
    found = {(r[0].isoformat() if daily else r[0]): r[1:] for r in rows}
    out = []
    for key, label in _buckets(first, last, daily):
        inspections, autos, amount = found.get(key, (0, 0, 0))
        out.append((label, inspections, autos, int(amount)))
    return out, daily


def _buckets(first, last, daily):
    """Every day or month of the period, empty ones too (a gap in a chart reads as no work)."""
    if daily:
        return [((first + timedelta(n)).isoformat(), (first + timedelta(n)).strftime("%d/%m"))
                for n in range((last - first).days + 1)]
    out, year, month = [], first.year, first.month
    while (year, month) <= (last.year, last.month):
        out.append((f"{year:04d}-{month:02d}", f"{month:02d}/{year:04d}"))
        year, month = year + (month == 12), month % 12 + 1
    return out


def by_infraction(mid, first, last):
    """[(code, label, autos, amount_cents)], most frequent first."""
    count = func.count()
    rows = db.session.execute(
        select(FieldStatItem.code, func.max(FieldStatItem.label), count, _live_amount(FieldStatItem.amount_cents))
        .select_from(FieldStatItem).outerjoin(AutoCase, AutoCase.record_id == FieldStatItem.record_id)
        .where(_in(FieldStatItem, mid, "infraction", first, last))
        .group_by(FieldStatItem.code).order_by(count.desc(), FieldStatItem.code)).all()
    return [(code, label or code, n, int(amount)) for code, label, n, amount in rows]


def nonconformities(mid, first, last):
    """[(code, label, inspections)]: the checklist requirements most often failed."""
    count = func.count()
    rows = db.session.execute(
        select(FieldStatItem.code, func.max(FieldStatItem.label), count)
        .where(_in(FieldStatItem, mid, "nonconformity", first, last))
        .group_by(FieldStatItem.code).order_by(count.desc(), FieldStatItem.code).limit(TOP)).all()
    return [(code, label or code, n) for code, label, n in rows]


def _by(column, mid, first, last):
    return db.session.execute(
        _stats_with_case(column, func.count(case((FieldStat.kind == "inspection", 1))),
                         func.count(case((FieldStat.kind == "auto", 1))), _live_amount(FieldStat.amount_cents))
        .where(FieldStat.municipality_id == mid, FieldStat.day >= first, FieldStat.day <= last)
        .group_by(column)).all()


def by_fiscal(mid, first, last):
    """[(name, inspections, autos, amount_cents)], busiest first."""
    rows = _by(FieldStat.user_id, mid, first, last)
    names = dict(db.session.execute(select(User.id, User.name).where(User.id.in_([r[0] for r in rows]))).all()) if rows else {}
    out = [(names.get(uid) or f"Usuário {uid}", i, a, int(m)) for uid, i, a, m in rows]
    return sorted(out, key=lambda r: (-r[1] - r[2], r[0]))


def by_ponto(mid, first, last):
    """[(ponto name or "Sem ponto identificado", inspections, autos, amount_cents)]."""
    rows = _by(FieldStat.ponto_id, mid, first, last)
    ids = [r[0] for r in rows if r[0] is not None]
    names = dict(db.session.execute(select(Ponto.id, Ponto.name).where(
        Ponto.id.in_(ids), Ponto.municipality_id == mid)).all()) if ids else {}
    out = [(names.get(pid) or "Sem ponto identificado", i, a, int(m)) for pid, i, a, m in rows]
    return sorted(out, key=lambda r: (-r[1] - r[2], r[0]))


def expiring(mid, today):
    """{30: n, 60: n, 90: n}: active permits whose validity ends within the next N days."""
    row = db.session.execute(select(*(
        func.count(case((Permit.valid_until <= today + timedelta(days=n), 1))) for n in EXPIRY_HORIZONS))
        .where(Permit.municipality_id == mid, Permit.status == "ativo",
               Permit.valid_until >= today, Permit.valid_until <= today + timedelta(days=max(EXPIRY_HORIZONS)))).one()
    return dict(zip(EXPIRY_HORIZONS, row))
