"""Which motorcycles are "em atividade" in a month, for a law that charges ISSQN per motorcycle in
activity per month. A reading (shared_rules/readings/readings.json), chosen by a pack option that
the caller reads (issuance.operations):
- `ultimo_dia` (default): the permits in force (ativo, suspenso or vencido) on the month's last day;
- `algum_dia`: the same permits in force on any day of the month (one that ended mid-month is charged).
The JS twin is pwa/js/rules/issqn_activity.js; both run the vectors of shared_rules/vectors/calendar.json."""
import calendar
import datetime

READINGS = ("ultimo_dia", "algum_dia")
STATUSES = ("ativo", "suspenso", "vencido")


def _d(value):
    return value if isinstance(value, datetime.date) else datetime.date.fromisoformat(value)


def in_activity(valid_from, valid_until, status, first_day, last_day, reading="ultimo_dia"):
    """Whether one permit counts for the month [first_day, last_day] under `reading`."""
    if status not in STATUSES:
        return False
    valid_from, valid_until, first_day, last_day = map(_d, (valid_from, valid_until, first_day, last_day))
    if reading == "algum_dia":
        return valid_from <= last_day and valid_until >= first_day
    return valid_from <= last_day <= valid_until


def month_bounds(month):
    """('2026-03') -> (first day, last day) of that month."""
    year, mon = (int(x) for x in month.split("-"))
    return datetime.date(year, mon, 1), datetime.date(year, mon, calendar.monthrange(year, mon)[1])
