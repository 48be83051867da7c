"""Pure: a record body (dict) → the dashboard's stat row and items. No Flask, no database, so
the push and migration 0010_dash's backfill derive exactly the same values."""
from datetime import datetime, timedelta, timezone
from decimal import Decimal, InvalidOperation

from ...rules.jurisdiction import traffic_infraction_ids


def _text(value, limit):
    return value[:limit] if isinstance(value, str) and value else None


# A single amount above this (R$ 10 trillion) is no fine: it is not counted, and the sums of a
# record's items stay far inside the BIGINT columns they are added into.
MAX_CENTS = 10**15


def _cents(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        cents = int((Decimal(str(value)) * 100).to_integral_value())
    except (InvalidOperation, ValueError, OverflowError):
        return None
    return cents if abs(cents) <= MAX_CENTS else None


# A device clock outside [2000-01-01, receipt + 1 day] is no date to file a record under (a phone
# reset to 1970, a clock years ahead): such a record is filed on the day it was received and its
# clock is flagged on the record (clock_behind / clock_ahead), counted apart by those flags.
EARLIEST_FILING = datetime(2000, 1, 1, tzinfo=timezone.utc)
AHEAD_TOLERANCE = timedelta(days=1)


def filing_moment(device_at, received_at):
    """The instant the dashboard files a record under: its device clock when plausible, else its
    receipt (both aware or both naive UTC, as stored)."""
    if device_at is None:
        return received_at
    aware = device_at if device_at.tzinfo else device_at.replace(tzinfo=timezone.utc)
    received = received_at if received_at.tzinfo else received_at.replace(tzinfo=timezone.utc)
    return device_at if EARLIEST_FILING <= aware <= received + AHEAD_TOLERANCE else received_at


def traffic_ids():
    """Ids of the infractions the packs give to the traffic authority (`jurisdiction: "snt"`, CTB
    art. 244), read from the packs that ship with the code (rules.jurisdiction), so derive stays
    pure. Such an infraction is no municipal auto's: neither counted among its infractions nor in
    its amounts (issues 18 and 34); the communications to the traffic authority count it."""
    return traffic_infraction_ids()


def item_amount(item, traffic=frozenset()):
    """(amount in centavos or None, unpriced 0/1) of one confirmed infraction of an auto body.
    Unpriced: a municipal fine (the body carries its `amount`) whose reais nobody configured —
    shown as "a definir (decreto não configurado)", never R$ 0,00, and no total is shown over it.
    A traffic (SNT) infraction has neither: it is communicated, not charged by this auto."""
    if item.get("id") in traffic:
        return None, 0
    cents = _cents(item.get("amount_brl"))
    return cents, int(cents is None and isinstance(item.get("amount"), dict))


def confirmed_infractions(body):
    items = body.get("infractions") if isinstance(body.get("infractions"), list) else []
    return [i for i in items if isinstance(i, dict) and i.get("decision", "confirmed") == "confirmed"]


def failed_requirements(body):
    evaluation = body.get("evaluation") if isinstance(body.get("evaluation"), dict) else {}
    failed = evaluation.get("failed") if isinstance(evaluation.get("failed"), list) else []
    return [f for f in failed if isinstance(f, dict) and isinstance(f.get("requirement"), str)]


def derive(body, kind, local_moment, traffic=None):
    """(stat, items) for an inspection or auto; None for other kinds. `local_moment` is the
    record's time in the municipality's zone (device clock, else receipt); `traffic`: the
    infraction ids of the traffic authority (default: traffic_ids(); empty where the municipality
    recorded its integration into the SNT, which makes them its auto's), left out of the items."""
    traffic = traffic_ids() if traffic is None else traffic
    if kind not in ("inspection", "auto") or not isinstance(local_moment, datetime):
        return None
    day = local_moment.date()
    items = []
    if kind == "auto":
        for item in confirmed_infractions(body):
            code = _text(item.get("id"), 120)
            if code and code not in traffic:
                cents, unpriced = item_amount(item, traffic)
                items.append({"kind": "infraction", "code": code, "label": _text(item.get("label_pt"), 300),
                              "amount_cents": cents, "unpriced": unpriced})
    else:
        for failed in failed_requirements(body):
            items.append({"kind": "nonconformity", "code": failed["requirement"][:120],
                          "label": _text(failed.get("label_pt"), 300), "amount_cents": None,
                          "unpriced": 0})
    amounts = [i["amount_cents"] for i in items if i["amount_cents"] is not None]
    stat = {"kind": kind, "day": day, "month": day.strftime("%Y-%m"),
            "amount_cents": sum(amounts) if kind == "auto" else None,
            "unpriced": sum(i["unpriced"] for i in items)}
    return stat, [{**item, "position": n, "day": day} for n, item in enumerate(items)]


def permit_number(body):
    return _text(body.get("permit_number"), 40)
