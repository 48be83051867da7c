"""The legal calendar of one municipality: the shared holiday data plus its recorded closures."""
from ...rules import legal_calendar
from .models import CalendarClosure


def closures_of(municipality_id):
    rows = CalendarClosure.query.filter_by(municipality_id=municipality_id).order_by(CalendarClosure.day).all()
    return [r.as_dict() for r in rows]


def calendar_of(municipality):
    """legal_calendar.Calendar for a Municipality row (or anything with .id and .uf)."""
    return legal_calendar.calendar_for(municipality.uf, closures_of(municipality.id))


def field_calendar(municipality):
    """What the phone needs to count the same days: the holiday data, the state, the closures."""
    return {"holidays": legal_calendar.load_data(), "state": municipality.uf or "MT",
            "closures": closures_of(municipality.id)}
