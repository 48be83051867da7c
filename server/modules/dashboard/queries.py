"""The dashboard's aggregates: GROUP BY over the rollups (models.FieldStatDay, FieldStatItemDay,
and per month FieldStatMonth, FieldStatItemMonth), scoped to one municipality and one period of
whole days, never a record loaded into Python. A period of two months or more reads its whole
months from the monthly rollups and only its partial first and last months from the daily ones
(`_split`): 24 months at a million autos are ~14,000 rows instead of ~438,000. Amounts leave out
autos declared insubsistente, which no longer charge anybody.
A fine whose amount is not configured is counted apart (`unpriced`): any row, and the period's
total, with one has no sum (None, shown "a definir (decreto não configurado)"), never a partial
sum that reads as the whole (issue 18, item 5)."""
from datetime import date, timedelta

from sqlalchemy import and_, case, func, literal, or_, select, union_all

from ...extensions import db
from ..accounts.models import User
from ..registry.models import Permit, Ponto
from .derive import traffic_ids
from .models import FieldStatDay, FieldStatItemDay, FieldStatItemMonth, FieldStatMonth

# What the amount column says for a CTB infraction counted where the municipality recorded its
# integration into the SNT (elsewhere none is counted here: the communications count them).
TRAFFIC_AMOUNT = "valor do CTB (fora dos valores municipais)"
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


def _in(model, mid, first, last):
    return and_(model.municipality_id == mid, model.day >= first, model.day <= last)


def _month(d):
    return f"{d.year:04d}-{d.month:02d}"


def _month_end(d):
    return date(d.year + (d.month == 12), d.month % 12 + 1, 1) - timedelta(days=1)


def _split(first, last):
    """(whole months as (first "YYYY-MM", last "YYYY-MM") or None, [(first day, last day)] of the
    partial months at the edges): the period read from the monthly rollups where it can be."""
    start = first if first.day == 1 else _month_end(first) + timedelta(days=1)
    end = last if last == _month_end(last) else last.replace(day=1) - timedelta(days=1)
    if start > end:  # no whole month inside: every day from the daily rollup
        return None, [(first, last)]
    edges = [r for r in ((first, start - timedelta(days=1)), (end + timedelta(days=1), last)) if r[0] <= r[1]]
    return (_month(start), _month(end)), edges


def _sources(day_model, month_model, mid, first, last, subtract=False):
    """[(model, where, sign)] covering the period once: whole months from the monthly rollup, the
    edge days from the daily one. `subtract` (sums that add up, never a max): an edge month whose
    days left out are fewer than its days inside is read as its month row minus the days left out
    (sign -1): 24 months from the 5th read 4 days of day rows instead of 27."""
    months, edges = _split(first, last)
    extra_months, plus_days, minus_days = [], [], []
    for a, b in edges:
        month_first, month_last = a.replace(day=1), _month_end(a)
        outside = [r for r in ((month_first, a - timedelta(days=1)), (b + timedelta(days=1), month_last)) if r[0] <= r[1]]
        if subtract and b <= month_last and sum((y - x).days + 1 for x, y in outside) < (b - a).days + 1:
            extra_months.append(_month(a))
            minus_days += outside
        else:
            plus_days.append((a, b))
    out = []
    month_ranges = ([and_(month_model.month >= months[0], month_model.month <= months[1])] if months else []) + (
        [month_model.month.in_(extra_months)] if extra_months else [])
    if month_ranges:
        out.append((month_model, and_(month_model.municipality_id == mid, or_(*month_ranges)), 1))
    for days, sign in ((plus_days, 1), (minus_days, -1)):
        if days:
            out.append((day_model, and_(day_model.municipality_id == mid,
                                        or_(*(and_(day_model.day >= a, day_model.day <= b) for a, b in days))), sign))
    return out


def _sum(column):
    return func.coalesce(func.sum(column), 0)


def _priced(values):
    """(…, amount_cents, unpriced) → (…, amount_cents or None while any amount is unknown)."""
    *rest, amount, unpriced = values
    return (*rest, None if unpriced else amount)


def activity(mid, first, last):
    """Everything the page shows from the activity rollups: the sums per bucket (day or month), per
    fiscal and per ponto — a few dozen rows (_three_ways), never the bucket × fiscal × ponto
    cross product (15,000 rows over 24 months, whose fetch and Python summing were most of the
    page: docs/benchmarks/dashboard.md), in one statement over the whole months and the edge days
    together (_rows). Returns (series, daily?, totals, per fiscal, per ponto)."""
    daily = (last - first).days < DAILY_SPAN_DAYS
    sources = ([(FieldStatDay, _in(FieldStatDay, mid, first, last), 1)] if daily
               else _sources(FieldStatDay, FieldStatMonth, mid, first, last, subtract=True))
    rows = _rows(lambda s: (s.day if daily else s.month).label("bucket"), ACTIVITY_COLUMNS, sources)
    by_bucket, by_user, by_ponto = {}, {}, {}
    totals = {"inspections": 0, "autos": 0, "amount_cents": 0, "unpriced": 0, "void": 0}
    names = {}
    for way, key, name, inspections, autos, amount, unpriced, void in _three_ways(rows, mid):
        values = (int(inspections), int(autos), int(amount), int(unpriced))
        if not values[0] and not values[1]:
            continue  # only in the days subtracted: no record of the period (a rollup row holds ≥ 1 record)
        if way == "bucket":
            by_bucket[key.isoformat() if daily else key] = values
            for total, value in zip(("inspections", "autos", "amount_cents", "unpriced", "void"),
                                    (*values, int(void))):
                totals[total] += value
        elif way == "user":
            by_user[key] = values
            names[way, key] = name or f"Usuário {key}"
        else:  # ponto_key 0: no ponto identified
            by_ponto[key or None] = values
            names[way, key or None] = name or "Sem ponto identificado"
    if totals["unpriced"]:
        totals["amount_cents"] = None
    by_bucket, by_user, by_ponto = ({k: _priced(v) for k, v in t.items()} for t in (by_bucket, by_user, by_ponto))
    series = [(label, *by_bucket.get(key, (0, 0, 0))) for key, label in _buckets(first, last, daily)]
    fiscal = _named(by_user, lambda uid: names["user", uid])
    ponto = _named(by_ponto, lambda pid: names["ponto", pid])
    return series, daily, totals, fiscal, ponto


ACTIVITY_COLUMNS = ("user_id", "ponto_key", "inspections", "autos", "amount_cents", "unpriced", "void")
ITEM_COLUMNS = ("kind", "code", "label", "count", "amount_cents", "unpriced")


SIGNED = ("inspections", "autos", "amount_cents", "unpriced", "void")


def _rows(first_column, columns, sources):
    """The rows of every source (whole months, edge days; negated where subtracted) as one
    relation: UNION ALL of the same columns, so one statement sums them (a round trip less per
    source, and the database adds the rollups instead of Python)."""
    parts = [select(*((first_column(m),) if first_column else ()), *(
        (-getattr(m, c)).label(c) if sign < 0 and c in SIGNED else getattr(m, c) for c in columns)).where(where)
        for m, where, sign in sources]
    return (parts[0] if len(parts) == 1 else union_all(*parts)).subquery("rollup_rows")


def _three_ways(rows, mid):
    """[(way "bucket" | "user" | "ponto", key, name, inspections, autos, amount, unpriced, void)]:
    the rows summed by bucket, by fiscal and by ponto, with the fiscal's or the ponto's name (None
    when there is none: a bucket, a ponto of another municipality, no ponto) joined in the same
    statement. PostgreSQL does it in one scan (GROUPING SETS); SQLite, which has none, in three
    GROUP BYs of the same sums."""
    c = rows.c
    sums = [_sum(column).label(f"sum_{n}") for n, column in enumerate(
        (c.inspections, c.autos, c.amount_cents, c.unpriced, c.void))]
    if db.session.get_bind().dialect.name == "postgresql":
        # GROUPING(bucket, user, ponto): a bit set per column summed away (bucket = 4, user = 2, ponto = 1).
        grouped = select(func.grouping(c.bucket, c.user_id, c.ponto_key).label("mask"), c.bucket, c.user_id,
                         c.ponto_key, *sums).group_by(func.grouping_sets(c.bucket, c.user_id, c.ponto_key)).subquery()
        g = grouped.c
        result = db.session.execute(_with_names(grouped, g.user_id, g.ponto_key, mid, g.mask == 0b101, g.mask == 0b110,
                                                (g.mask, g.bucket, g.user_id, g.ponto_key))).all()
        ways = {0b011: ("bucket", 0), 0b101: ("user", 1), 0b110: ("ponto", 2)}
        # row: mask, bucket, user_id, ponto_key, name, sums…
        return [(ways[r[0]][0], r[1 + ways[r[0]][1]], r[4], *r[5:]) for r in result]
    out = []
    for way, column in (("bucket", c.bucket), ("user", c.user_id), ("ponto", c.ponto_key)):
        grouped = select(column.label("key"), *sums).group_by(column).subquery()
        g = grouped.c
        result = db.session.execute(_with_names(grouped, g.key, g.key, mid, literal(way == "user"),
                                                literal(way == "ponto"), (g.key,))).all()
        out += [(way, key, name, *values) for key, name, *values in result]
    return out


def _with_names(grouped, user_id, ponto_key, mid, is_user, is_ponto, keys):
    """SELECT keys, the fiscal's or the ponto's name, the sums FROM grouped (LEFT JOINs: a key
    without a name keeps its row)."""
    name = func.coalesce(User.name, Ponto.name).label("name")
    sums = [column for column in grouped.c if column.name.startswith("sum_")]
    return (select(*keys, name, *sums).select_from(grouped)
            .outerjoin(User, and_(is_user, User.id == user_id))
            .outerjoin(Ponto, and_(is_ponto, Ponto.id == ponto_key, Ponto.municipality_id == mid)))


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
    nonconformities [(code, label, inspections)] top ten), from one GROUP BY (kind, code) over the
    rollups the period reads (_sources, as one relation: _rows)."""
    rows = _rows(None, ITEM_COLUMNS, _sources(FieldStatItemDay, FieldStatItemMonth, mid, first, last)).c
    summed = db.session.execute(
        select(rows.kind, rows.code, func.max(rows.label), _sum(rows.count), _sum(rows.amount_cents),
               _sum(rows.unpriced)).group_by(rows.kind, rows.code)).all()
    ordered = sorted(((k, c, label, int(n), None if u else int(a)) for k, c, label, n, a, u in summed if n),
                     key=lambda r: (-r[3], r[1]))
    traffic = traffic_ids()
    infractions = [(code, label or code, n, TRAFFIC_AMOUNT if code in traffic else amount)
                   for kind, code, label, n, amount in ordered if kind == "infraction"]
    failed = [(code, label or code, n) for kind, code, label, n, _ in ordered if kind == "nonconformity"]
    return infractions, failed[:TOP]


def expiring(mid, today):
    """{30: n, 60: n, 90: n}: active permits whose validity ends within the next N days."""
    row = db.session.execute(select(*(
        func.count(case((Permit.valid_until <= today + timedelta(days=n), 1))) for n in EXPIRY_HORIZONS))
        .where(Permit.municipality_id == mid, Permit.status == "ativo",
               Permit.valid_until >= today, Permit.valid_until <= today + timedelta(days=max(EXPIRY_HORIZONS)))).one()
    return dict(zip(EXPIRY_HORIZONS, row))
