"""Calendar arithmetic on day numbers (SPEC §4). Dates are proleptic Gregorian ordinals
(date.toordinal()), so comparisons and differences are plain integer operations."""
import calendar
import datetime
import re

from .errors import EvalError

_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
MIN_ORD = 1                                   # 0001-01-01
MAX_ORD = datetime.date(9999, 12, 31).toordinal()


def parse_iso(text):
    """ISO YYYY-MM-DD -> ordinal, or None when the text is not a valid date."""
    if not isinstance(text, str):
        return None
    m = _ISO.match(text)
    if not m:
        return None
    try:
        return datetime.date(int(m[1]), int(m[2]), int(m[3])).toordinal()
    except ValueError:
        return None


def to_iso(ordinal):
    return datetime.date.fromordinal(ordinal).isoformat()


def to_br(ordinal):
    d = datetime.date.fromordinal(ordinal)
    return f"{d.day:02d}/{d.month:02d}/{d.year:04d}"


def _check(ordinal):
    if ordinal < MIN_ORD or ordinal > MAX_ORD:
        raise EvalError("date_out_of_range")
    return ordinal


def _int(n):
    if n != n or n != int(n):
        raise EvalError("not_integer")
    return int(n)


def add_days(d, n):
    return _check(d + _int(n))


def add_months(d, n, civil=False):
    """Calendar months. A day the target month lacks is clamped to the month's end, or with
    civil=True moved to the next day, the 1st of the following month (Código Civil art. 132 §3:
    "no imediato, se faltar exata correspondência")."""
    date = datetime.date.fromordinal(d)
    total = date.year * 12 + (date.month - 1) + _int(n)
    year, month = divmod(total, 12)
    month += 1
    if year < 1 or year > 9999:
        raise EvalError("date_out_of_range")
    last = calendar.monthrange(year, month)[1]
    if date.day <= last:
        return datetime.date(year, month, date.day).toordinal()
    if civil:
        return _check(datetime.date(year, month, last).toordinal() + 1)
    return datetime.date(year, month, last).toordinal()


def add_months_cc(d, n):
    return add_months(d, n, civil=True)


def add_years_cc(d, n):
    return add_months(d, _int(n) * 12, civil=True)


def years_between_cc(a, b):
    """Whole years completed under CC art. 132 §3 (29 Feb anniversaries fall on 1 Mar)."""
    da, db = datetime.date.fromordinal(a), datetime.date.fromordinal(b)
    k = db.year - da.year
    while _add_months_unchecked(a, k * 12, True) > b:
        k -= 1
    while _add_months_unchecked(a, (k + 1) * 12, True) <= b:
        k += 1
    return k


def add_years(d, n):
    return add_months(d, _int(n) * 12)


def days_between(a, b):
    return b - a


def months_between(a, b):
    da, db = datetime.date.fromordinal(a), datetime.date.fromordinal(b)
    k = (db.year - da.year) * 12 + (db.month - da.month)
    # add_months clamps, so the candidate may overshoot by one; step down until it fits.
    while _add_months_unchecked(a, k) > b:
        k -= 1
    while _add_months_unchecked(a, k + 1) <= b:
        k += 1
    return k


def years_between(a, b):
    da, db = datetime.date.fromordinal(a), datetime.date.fromordinal(b)
    k = db.year - da.year
    while _add_months_unchecked(a, k * 12) > b:
        k -= 1
    while _add_months_unchecked(a, (k + 1) * 12) <= b:
        k += 1
    return k


def _add_months_unchecked(d, n, civil=False):
    try:
        return add_months(d, n, civil)
    except EvalError:
        return MAX_ORD + 1 if n > 0 else MIN_ORD - 1


def year(d):
    return datetime.date.fromordinal(d).year


def month(d):
    return datetime.date.fromordinal(d).month


def day(d):
    return datetime.date.fromordinal(d).day


def make_date(y, m, dd):
    y, m, dd = _int(y), _int(m), _int(dd)
    if m < 1 or m > 12 or dd < 1:
        raise EvalError("invalid_date")
    if y < 1 or y > 9999:
        raise EvalError("date_out_of_range")
    return datetime.date(y, m, min(dd, calendar.monthrange(y, m)[1])).toordinal()


def period_end(d, period):
    """The last day of a period that starts on d (SPEC §5 "Periods"): months and years to the
    corresponding day, or the next day when that month lacks it (Lei 810/1949 arts. 1º–3º, the
    `lei_810` rule of legal_calendar); days: d + N. Every recidivism, escalation and quiet
    window reads this one function, so they agree on the anniversary day (it is inside)."""
    if "days" in period:
        return add_days(d, period["days"])
    if "months" in period:
        return add_months(d, period["months"], civil=True)
    return add_months(d, _int(period["years"]) * 12, civil=True)


def window_start(d, period):
    """The first day P whose period still runs on d (period_end(P) >= d): the entries committed
    from P through d are "within" the period before d."""
    p = add_period(d, period, -1)          # clamped: within a few days of the answer
    while p > MIN_ORD and period_end(p - 1, period) >= d:
        p -= 1
    while period_end(p, period) < d:
        p += 1
    return p


def add_period(d, period, sign=1):
    """period = {"days"|"months"|"years": N}; sign -1 subtracts."""
    if "days" in period:
        return add_days(d, sign * period["days"])
    if "months" in period:
        return add_months(d, sign * period["months"])
    return add_years(d, sign * period["years"])
