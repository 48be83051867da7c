"""The municipality's calendar day. Permits expire, suspensions end and rules are judged on the
local date (America/Cuiaba for Mato Grosso), not the server's UTC date: between 20:00 and
midnight in Cuiabá the UTC date is already tomorrow.
"""
from datetime import date, datetime, timezone as _tz
from zoneinfo import ZoneInfo

from flask import current_app, has_app_context

DEFAULT_TIMEZONE = "America/Cuiaba"


def timezone():
    name = current_app.config.get("TIMEZONE", DEFAULT_TIMEZONE) if has_app_context() else DEFAULT_TIMEZONE
    return ZoneInfo(name)


def local_now() -> datetime:
    return datetime.now(timezone())


def local_today() -> date:
    return local_now().date()


def as_utc(moment):
    """A stored instant as an aware datetime: SQLite hands timestamps back naive, and they are
    UTC (PostgreSQL's come back aware). None stays None."""
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=_tz.utc)


def to_local(moment: datetime) -> datetime:
    """A stored instant in the municipality's time zone."""
    return as_utc(moment).astimezone(timezone())


def isoformat_utc(moment: datetime) -> str:
    """An instant for the API, always with its offset ("2026-01-01T12:00:00+00:00"): a phone
    must not read a stored UTC timestamp as local time."""
    return as_utc(moment).astimezone(_tz.utc).isoformat()
