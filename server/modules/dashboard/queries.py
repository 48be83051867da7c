"""The dashboard's aggregates: GROUP BY over the derived tables (models.py), scoped to one
municipality and one period, never a record loaded into Python; two scans per page. Amounts
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


def _in(model, mid, first, last):
    return and_(model.municipality_id == mid, model.day >= first, model.day <= last)


_INSPECTIONS = func.count(case((FieldStat.kind == "inspection", 1)))
_AUTOS = func.count(case((FieldStat.kind == "auto", 1)))
_VOID = func.count(case((FieldStat.void.is_(True), 1)))


def activity(mid, first, last):
    """Everything the page shows from field_stat, in ONE scan: GROUP BY (bucket, fiscal, ponto)
    — at most buckets × fiscals × pontos groups, a few thousand — summed three ways here.
    Returns (series, daily?, totals, per fiscal, per ponto)."""
    daily = (last - first).days < DAILY_SPAN_DAYS
    bucket = FieldStat.day if daily else FieldStat.month
    rows = db.session.execute(
        select(bucket, FieldStat.user_id, FieldStat.ponto_id, _INSPECTIONS, _AUTOS,
               _live_amount(FieldStat), _VOID)
        .where(_in(FieldStat, mid, first, last))
        .group_by(bucket, FieldStat.user_id, FieldStat.ponto_id)).all()
    by_bucket, by_user, by_ponto = {}, {}, {}
    totals = {"inspections": 0, "autos": 0, "amount_cents": 0, "void": 0}
    for key, uid, pid, inspections, autos, amount, void in rows:
        amount = int(amount)
        for table, k in ((by_bucket, key.isoformat() if daily else key), (by_user, uid), (by_ponto, pid)):
            i, a, m = table.get(k, (0, 0, 0))
            table[k] = (i + inspections, a + autos, m + amount)
        totals["inspections"] += inspections
        totals["autos"] += autos
        totals["amount_cents"] += amount
        totals["void"] += void
    series = [(label, *by_bucket.get(key, (0, 0, 0))) for key, label in _buckets(first, last, daily)]
    user_names = dict(db.session.execute(select(User.id, User.name).where(
        User.id.in_(list(by_user)))).all()) if by_user else {}
    pontos = [p for p in by_ponto if p is not None]
    ponto_names = dict(db.session.execute(select(Ponto.id, Ponto.name).where(
        Ponto.id.in_(pontos), Ponto.municipality_id == mid)).all()) if pontos else {}
    fiscal = _named(by_user, lambda uid: user_names.get(uid) or f"Usuário {uid}")
    ponto = _named(by_ponto, lambda pid: ponto_names.get(pid) or "Sem ponto identificado")
    return series, daily, totals, fiscal, ponto


def _named(table, name):
    """[(name, inspections, autos, amount_cents)], busiest first."""
    return sorted(((name(k), *v) for k, v in table.items()), key=lambda r: (-r[1] - r[2], r[0]))


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


def items(mid, first, last):
    """(by infraction [(code, label, autos, amount_cents)] most frequent first,
    nonconformities [(code, label, inspections)] top ten), from ONE GROUP BY (kind, code)."""
    count = func.count()
    rows = db.session.execute(
        select(FieldStatItem.kind, FieldStatItem.code, func.max(FieldStatItem.label), count,
               _live_amount(FieldStatItem))
        .where(_in(FieldStatItem, mid, first, last))
        .group_by(FieldStatItem.kind, FieldStatItem.code)).all()
    ordered = sorted(rows, key=lambda r: (-r[3], r[1]))
    infractions = [(code, label or code, n, int(amount)) for kind, code, label, n, amount in ordered
                   if kind == "infraction"]
    failed = [(code, label or code, n) for kind, code, label, n, _ in ordered if kind == "nonconformity"]
    return infractions, failed[:TOP]


def expiring(mid, today):
    """{30: n, 60: n, 90: n}: active permits whose validity ends within the next N days."""
    row = db.session.execute(select(*(
        func.count(case((Permit.valid_until <= today + timedelta(days=n), 1))) for n in EXPIRY_HORIZONS))
        .where(Permit.municipality_id == mid, Permit.status == "ativo",
               Permit.valid_until >= today, Permit.valid_until <= today + timedelta(days=max(EXPIRY_HORIZONS)))).one()
    return dict(zip(EXPIRY_HORIZONS, row))
