"""The dashboard's aggregates: GROUP BY over the derived tables (models.py), scoped to one
municipality and one period, never a record loaded into Python; four scans per page. Amounts
leave out autos declared insubsistente (the `void` flag), which no longer charge anybody."""
from datetime import date, timedelta

from sqlalchemy import and_, case, func, select

from ...extensions import db
from ..accounts.models import User
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


def _live_amount(model):
    """Sum of the amounts that still charge somebody: autos not declared insubsistente."""
    return func.coalesce(func.sum(case((model.void.is_(False), model.amount_cents))), 0)


def _in(model, mid, first, last, kind=None):
    conditions = [model.municipality_id == mid, model.day >= first, model.day <= last]
    return and_(*conditions, *([model.kind == kind] if kind else []))


_INSPECTIONS = func.count(case((FieldStat.kind == "inspection", 1)))
_AUTOS = func.count(case((FieldStat.kind == "auto", 1)))


def by_time(mid, first, last):
    """([(bucket label, inspections, autos, amount_cents)], daily?, totals): a bucket per day
    or per month; the period's totals are the sum of the buckets (one scan, not two)."""
    daily = (last - first).days < DAILY_SPAN_DAYS
    bucket = FieldStat.day if daily else FieldStat.month
    rows = db.session.execute(
        select(bucket, _INSPECTIONS, _AUTOS, _live_amount(FieldStat),
               func.count(case((FieldStat.void.is_(True), 1))))
        .where(_in(FieldStat, mid, first, last)).group_by(bucket)).all()
    found = {(r[0].isoformat() if daily else r[0]): r[1:] for r in rows}
    series = []
    for key, label in _buckets(first, last, daily):
        inspections, autos, amount, _ = found.get(key, (0, 0, 0, 0))
        series.append((label, inspections, autos, int(amount)))
    totals = {"inspections": sum(r[1] for r in rows), "autos": sum(r[2] for r in rows),
              "amount_cents": sum(int(r[3]) for r in rows), "void": sum(r[4] for r in rows)}
    return series, daily, totals


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
        select(FieldStatItem.code, func.max(FieldStatItem.label), count, _live_amount(FieldStatItem))
        .where(_in(FieldStatItem, mid, first, last, "infraction"))
        .group_by(FieldStatItem.code).order_by(count.desc(), FieldStatItem.code)).all()
    return [(code, label or code, n, int(amount)) for code, label, n, amount in rows]


def nonconformities(mid, first, last):
    """[(code, label, inspections)]: the checklist requirements most often failed."""
    count = func.count()
    rows = db.session.execute(
        select(FieldStatItem.code, func.max(FieldStatItem.label), count)
        .where(_in(FieldStatItem, mid, first, last, "nonconformity"))
        .group_by(FieldStatItem.code).order_by(count.desc(), FieldStatItem.code).limit(TOP)).all()
    return [(code, label or code, n) for code, label, n in rows]


def by_fiscal_and_ponto(mid, first, last):
    """(per fiscal, per ponto), each [(name, inspections, autos, amount_cents)] busiest first.
    One GROUP BY (fiscal, ponto) — a few hundred groups — summed both ways here."""
    rows = db.session.execute(
        select(FieldStat.user_id, FieldStat.ponto_id, _INSPECTIONS, _AUTOS, _live_amount(FieldStat))
        .where(_in(FieldStat, mid, first, last)).group_by(FieldStat.user_id, FieldStat.ponto_id)).all()
    users = {r[0] for r in rows}
    pontos = {r[1] for r in rows if r[1] is not None}
    user_names = dict(db.session.execute(select(User.id, User.name).where(User.id.in_(users))).all()) if users else {}
    ponto_names = dict(db.session.execute(select(Ponto.id, Ponto.name).where(
        Ponto.id.in_(pontos), Ponto.municipality_id == mid)).all()) if pontos else {}
    fiscal, ponto = {}, {}
    for uid, pid, inspections, autos, amount in rows:
        for table, name in ((fiscal, user_names.get(uid) or f"Usuário {uid}"),
                            (ponto, ponto_names.get(pid) or "Sem ponto identificado")):
            i, a, m = table.get(name, (0, 0, 0))
            table[name] = (i + inspections, a + autos, m + int(amount))
    ordered = lambda table: sorted(((n, *v) for n, v in table.items()), key=lambda r: (-r[1] - r[2], r[0]))  # noqa: E731
    return ordered(fiscal), ordered(ponto)


def expiring(mid, today):
    """{30: n, 60: n, 90: n}: active permits whose validity ends within the next N days."""
    row = db.session.execute(select(*(
        func.count(case((Permit.valid_until <= today + timedelta(days=n), 1))) for n in EXPIRY_HORIZONS))
        .where(Permit.municipality_id == mid, Permit.status == "ativo",
               Permit.valid_until >= today, Permit.valid_until <= today + timedelta(days=max(EXPIRY_HORIZONS)))).one()
    return dict(zip(EXPIRY_HORIZONS, row))
