"""What an evaluation takes in (SPEC §5): the date argument, declared facts checked against their
declarations (type, range, choices), selections and the penalty history. The JS twin is
pwa/js/rules/inputs.js."""
import datetime
import math

from . import dates
from .errors import FactError, HistoryError, expected_of
from .expr import DATE_VAR, OPTION_PREFIX

SELECTED = "$selected"
PENALTIES = "$penalties"


def add_options(ctx, config):
    """Configuration options are visible to {"option": key} as "$option:<key>"."""
    for key, value in ((config or {}).get("options") or {}).items():
        ctx[OPTION_PREFIX + key] = value


def in_effect(entry, d):
    return entry["_from"] <= d <= entry["_to"]


def parse_date_arg(date):
    if isinstance(date, datetime.date):
        return date.toordinal()
    d = dates.parse_iso(date)
    if d is None:
        raise FactError(DATE_VAR, "invalid_date")
    return d


def _version(rules, ref, d):
    """The entry `ref` as in force on `d` (an ordinal; None: its first version)."""
    if d is None or not hasattr(rules, "at"):
        return rules.by_id.get(ref)
    return rules.at(ref, d)


def fact_values(rules, facts, d=None):
    """Validate facts; returns (ctx, na_facts, selected). `d`: the evaluation day, which decides
    the version of an infraction named in `$selected` / `$penalties` (SPEC §3 "Amendments")."""
    ctx, na, selected = {}, set(), []
    if facts is not None and not isinstance(facts, dict):
        raise FactError("$facts", "wrong_type")
    for name, value in (facts or {}).items():
        if name == SELECTED:
            selected = _selected(rules, value, d)
            continue
        if name == PENALTIES:
            chosen_penalties(rules, value, d)
            continue
        decl = rules.facts.get(name)
        if decl is None:
            raise FactError(name, "unknown_fact")
        if value is None:
            continue
        if value == "na" and (decl.get("na_allowed") or decl["type"] in ("bool", "number", "date")):
            if not decl.get("na_allowed"):
                raise FactError(name, "na_not_allowed", expected_of(decl))
            na.add(name)
            continue
        ctx[name] = _convert(name, decl, value)
    return ctx, na, selected


def _convert(name, decl, value):
    t = decl["type"]

    def refuse(reason):
        return FactError(name, reason, expected_of(decl))

    if t == "bool":
        if not isinstance(value, bool):
            raise refuse("wrong_type")
        return value
    if t == "number":
        return _number(decl, value, refuse)
    if not isinstance(value, str):
        raise refuse("wrong_type")
    if t == "enum" and value not in decl["values"]:
        raise refuse("not_in_values")
    if t == "date":
        d = dates.parse_iso(value)
        if d is None:
            raise refuse("invalid_date")
        return d
    return value


def _number(decl, value, refuse):
    """A number fact must be finite and within [min, max] (min defaults to 0: every quantity
    the laws measure — cc, years, km/h, metres, kg, people — is non-negative). NaN, ±Infinity
    and literals too large for a double (1e400) are refused, never turned into a verdict."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise refuse("wrong_type")
    try:
        number = float(value)
    except OverflowError:               # a JSON integer literal beyond the double range
        raise refuse("not_finite") from None
    if not math.isfinite(number):
        raise refuse("not_finite")
    if decl.get("integer") and not number.is_integer():
        raise refuse("not_integer")
    lo, hi = decl.get("min", 0), decl.get("max")
    if (lo is not None and number < lo) or (hi is not None and number > hi):
        raise refuse("out_of_range")
    return number


def _selected(rules, value, d=None):
    if not isinstance(value, list):
        raise FactError(SELECTED, "wrong_type")
    for ref in value:
        inf = _version(rules, ref, d) if isinstance(ref, str) else None
        if inf is None or inf["_section"] != "infractions" or not inf.get("selectable"):
            raise FactError(SELECTED, "not_selectable")
    return value


def chosen_penalties(rules, value, d=None):
    """{"<infraction id>": "<kind>"}: the penalty the fiscal chose among those the law allows."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FactError(PENALTIES, "wrong_type")
    for ref, kind in value.items():
        inf = _version(rules, ref, d) or rules.by_id.get(ref)
        if inf is None or inf["_section"] != "infractions":
            raise FactError(PENALTIES, "unknown_infraction")
        allowed = [inf["penalty"]["kind"]] + list(inf["penalty"].get("alternatives") or [])
        if kind not in allowed:
            raise FactError(PENALTIES, "not_an_alternative", {"type": "enum", "values": allowed})
    return value


HISTORY_STATES = ("applied", "pending", "annulled")


def applied_history(rules, history, d):
    """The APPLIED penalties of the history (SPEC §5): entries whose state is "applied" (the
    default) and, when given, applied on or before D. Pending or annulled entries are validated
    but never counted by recidivism, escalation or cancellation. Each kept entry is
    (date committed, infraction — the version in force when it was committed —, penalty kind, date
    applied — the date committed when not given, the auto it came from or None)."""
    kept = []
    if history is not None and not isinstance(history, (list, tuple)):
        raise HistoryError(-1, "not_a_list")
    for i, h in enumerate(history or ()):
        if not isinstance(h, dict):
            raise HistoryError(i, "not_an_object")
        inf = rules.by_id.get(h.get("infraction"))
        if inf is None or inf["_section"] != "infractions":
            raise HistoryError(i, "unknown_infraction")
        hd = dates.parse_iso(h.get("date"))
        if hd is None:
            raise HistoryError(i, "invalid_date")
        inf = rules.as_of(inf["id"], hd) if hasattr(rules, "as_of") else inf
        penalty = h.get("penalty") or inf["penalty"]["kind"]
        if not isinstance(penalty, str):
            raise HistoryError(i, "wrong_type")
        state = h.get("state", "applied")
        if state not in HISTORY_STATES:
            raise HistoryError(i, "invalid_state")
        applied_on = h.get("applied_on")
        if applied_on is not None:
            applied_on = dates.parse_iso(applied_on)
            if applied_on is None:
                raise HistoryError(i, "invalid_date")
        auto = h.get("auto")
        if auto is not None and not isinstance(auto, str):
            raise HistoryError(i, "wrong_type")
        if state == "applied" and hd <= d and (applied_on is None or applied_on <= d):
            kept.append((hd, inf, penalty, applied_on or hd, auto))
    kept.sort(key=lambda e: e[0])
    for rule in rules.history_cancellation:
        period = rule["quiet_period"]
        cut = 0
        for i, entry in enumerate(kept):
            nxt = kept[i + 1][0] if i + 1 < len(kept) else d
            # the quiet period runs from the day the penalty was applied ("contados da data da
            # última aplicação de penalidade") to the next infraction
            if dates.period_end(entry[3], period) < nxt:   # the anniversary is inside the year
                cut = i + 1
        kept = kept[cut:]
    return kept
