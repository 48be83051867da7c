"""The legal calendar of one municipality: the shared holiday data plus its recorded closures."""
from ...rules import legal_calendar
from .models import CalendarClosure


def closures_of(municipality_id):
    rows = CalendarClosure.query.filter_by(municipality_id=municipality_id).order_by(CalendarClosure.day).all()
    return [r.as_dict() for r in rows]


def good_friday_of(municipality):
    """The municipality's reading of Lei 9.093/1995 art. 2º: its pack option `<slug>.good_friday`,
    saved with its act in Configuração das regras (rules.settings.save_value writes it into
    settings["rules"]["options"]; read here directly because the calendar sits below the rules
    feature). Unset: `holiday`, the shipped default of shared_rules/config/<slug>.json."""
    slug = getattr(municipality, "slug", None)
    options = ((getattr(municipality, "settings", None) or {}).get("rules") or {}).get("options")
    return legal_calendar.good_friday_reading(options, f"{slug}.good_friday")


def calendar_of(municipality):
    """legal_calendar.Calendar for a Municipality row (or anything with .id and .uf)."""
    return legal_calendar.calendar_for(municipality.uf, closures_of(municipality.id), good_friday_of(municipality))


def field_calendar(municipality):
    """What the phone needs to count the same days: the holiday data, the state, the closures and
    the municipality's reading of Good Friday."""
    return {"holidays": legal_calendar.load_data(), "state": municipality.uf or "MT",
            "closures": closures_of(municipality.id), "good_friday": good_friday_of(municipality)}


def move_stored_days(municipality, rows, recount, stored, move):
    """The loop of every closure_added receiver that keeps a period's last day on a row (a renewal
    suspension's `suspended_until`, a candidate's `motorcycle_due`, a filing's `due_on`): each
    row's day is counted again on the calendar that now holds the new closure —
    `recount(row, calendar)`, None when the row has no such period — and, when that is later than
    `stored(row)`, `move(row, new_day)` stores and audits it. Only ever later: removing a closure
    does not shorten a period already announced (CC art. 132 § 1º moves a last day without office
    hours forward). The calendar is read once, at the first row. Returns how many moved."""
    calendar, moved = None, 0
    for row in rows:
        if calendar is None:
            calendar = calendar_of(municipality)
        new_day = recount(row, calendar)
        if new_day is None or new_day <= stored(row):
            continue
        move(row, new_day)
        moved += 1
    return moved
