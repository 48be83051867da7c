"""The dashboard page's data: the period the clerk chose (query string, validated here: a bad
date is named on screen, never a 500) and every aggregate for it."""
from datetime import date

from ...core.clock import local_today
from ...core.validation import DATE_RANGE_MESSAGE, EARLIEST_DATE, LATEST_DATE
from ..traffic.queries import counts as traffic_counts
from . import queries

MAX_SPAN_DAYS = 3660  # ten years: a wider range is a typo, not a question


def _date(text):
    try:
        return date.fromisoformat(text) if text else None
    except (TypeError, ValueError):
        return None


def chosen_period(args, today):
    """(key, first, last, problem message or None) from ?periodo=mes|12m|outro&de=&ate=."""
    key = args.get("periodo", "mes")
    if key not in queries.PERIODS:
        key = "mes"
    start, end = _date(args.get("de")), _date(args.get("ate"))
    problem = None
    if key == "outro":
        if start is None or end is None:
            problem = "Informe as datas inicial e final (dd/mm/aaaa) do período."
        elif not (EARLIEST_DATE <= start <= LATEST_DATE and EARLIEST_DATE <= end <= LATEST_DATE):
            problem = f"Período: {DATE_RANGE_MESSAGE}"  # no record is filed outside it (derive.filing_moment)
        elif abs((end - start).days) > MAX_SPAN_DAYS:
            problem = "O período pode ter no máximo 10 anos."
        if problem:
            key = "mes"
    first, last = queries.period_range(key, today, start, end)
    return key, first, last, problem


def dashboard_data(mid, args):
    today = local_today()
    key, first, last, problem = chosen_period(args, today)
    series, daily, totals, fiscals, pontos = queries.activity(mid, first, last)
    infractions, nonconformities = queries.items(mid, first, last)
    return {"period": key, "periods": queries.PERIODS, "first": first, "last": last,
            "period_problem": problem, "totals": totals,
            "series": series, "daily": daily,
            "infraction_rows": [(label, n, amount) for _, label, n, amount in infractions],
            "fiscals": fiscals, "pontos": pontos,
            "nonconformity_rows": [(label, n) for _, label, n in nonconformities],
            "expiring_by_horizon": queries.expiring(mid, today), "today": today,
            # CTB infractions are no municipal auto's: counted apart, as communications (issue 34).
            "traffic": traffic_counts(mid, first, last)}
