"""Deadlines of an evaluation (SPEC §5, §6): the days a configured deadline has on D, the last day
of a period counted by CC art. 132, the measures' deadlines, the adaptation periods running on D
and the deadlines listed in the result. The JS twin is pwa/js/rules/deadlines.js: keep them in
step, key order included."""
from . import dates, legal_calendar
from .expr import UNKNOWN
from .inputs import in_effect


def config_days(cfg, key, d):
    """The days a configured deadline has on D (SPEC §6): a number, or the dated row in force
    (`[{"valid_from", "days", "act"}]`, the latest `valid_from <= D`); None when unset."""
    value = (cfg.get("deadlines") or {}).get(key)
    if isinstance(value, list):
        row = select_row(value, d)
        return row.get("days") if row is not None else None
    return value


def select_row(rows, d):
    """The dated row in force on D: the latest `valid_from <= D` (decrees, unit values, deadlines)."""
    best = None
    for row in rows or ():
        vf = dates.parse_iso(row["valid_from"])
        if vf is not None and vf <= d and (best is None or vf >= best[0]):
            best = (vf, row)
    return best[1] if best else None


def due(d, days, starts, calendar):
    """The last day of a period starting at the inspection (CC art. 132; SPEC §5): None when it
    starts later, or without a calendar to tell whether the last day has office hours."""
    if days is None or starts != "autuacao" or calendar is None:
        return None
    return legal_calendar.cc_132_days(calendar, dates.to_iso(d), days).isoformat()


def measure(m, d, cfg, owner, undecided, calendar):
    """owner = (undecided kind, id) of the infraction or escalation the measure belongs to."""
    dl = m.get("deadline") or {}
    days = dl.get("days")
    if days is None and dl.get("config_key"):
        days = config_days(cfg, dl["config_key"], d)
        if days is None:
            undecided.append({"kind": owner[0], "id": owner[1], "reason": "unconfigured_deadline",
                              "config_key": dl["config_key"]})
    starts = dl.get("starts")
    return {"kind": m["kind"], "label_pt": m["label_pt"], "citation": m.get("citation"),
            "days": days, "extendable_days": dl.get("extendable_days"), "starts": starts,
            "due": due(d, days, starts, calendar), "only_if_pt": m.get("only_if_pt")}


def grace_periods(rules, d, cfg, calendar):
    """The adaptation periods running on D (SPEC §5), in composition order: a deadline with
    `suspends_enforcement` runs from its start — the date the law states (`starts_on`), or the
    one held by the option `start_option` (the law's publication, a sourced configuration
    setting) — through its last day by CC art. 132 (start + days, moved to the next business
    day; unmoved without a calendar), both ends inclusive. Inside it a failed requirement of its
    pack — of the articles it `covers`, for whom `applies_when` holds — is a notice, not an
    infraction. Of the periods covering a whole pack, only the first counts."""
    out, whole = [], set()
    for dl in rules.deadlines:
        if not dl.get("suspends_enforcement") or dl["_mode"] != "active" or dl.get("days") is None:
            continue
        if not in_effect(dl, d):
            continue
        start = dates.parse_iso(dl.get("starts_on") or (cfg.get("options") or {}).get(dl.get("start_option")))
        if start is None or not start <= d <= _grace_end(start, dl["days"], calendar):
            continue
        if not dl.get("covers"):
            if dl["_pack"] in whole:
                continue
            whole.add(dl["_pack"])
        out.append(dl)
    return out


def grace_for(req, grace, ctx):
    """The running adaptation period that suspends `req`, None, or UNKNOWN when a period covers
    its article but whether it covers this person is not known."""
    unknown = False
    for dl in grace:
        if dl["_pack"] != req["_pack"]:
            continue
        if dl.get("covers") and str((req.get("citation") or {}).get("art")) not in dl["covers"]:
            continue
        applies = dl["_applies"].fn(ctx) if dl["_applies"] is not None else True
        if applies is True:
            return dl
        if applies is UNKNOWN:
            unknown = True
    return UNKNOWN if unknown else None


def _grace_end(start, days, calendar):
    if calendar is None:
        return dates.add_days(start, days)
    return legal_calendar.cc_132_days(calendar, dates.to_iso(start), days).toordinal()


def listed_deadlines(rules, d, cfg, grace, calendar, undecided):
    """The deadlines in force on D as the result lists them (SPEC §5): an adaptation period only
    while it runs; a configured one left unset is listed with `days` None and reported undecided."""
    out = []
    for dl in rules.deadlines:
        if dl["_mode"] == "ignored" or not in_effect(dl, d):
            continue
        if dl.get("suspends_enforcement") and not any(g is dl for g in grace):
            continue  # an adaptation period is listed only while it runs
        if dl["_mode"] == "pending":
            undecided.append({"kind": "deadline", "id": dl["id"], "reason": "vetoed_pending"})
            continue
        days = dl.get("days")
        key = dl.get("config_key")
        if days is None and key:
            days = config_days(cfg, key, d)
            if days is None:
                undecided.append({"kind": "deadline", "id": dl["id"],
                                  "reason": "unconfigured_deadline", "config_key": key})
        out.append({
            "id": dl["id"], "kind": dl["kind"], "label_pt": dl["label_pt"],
            "citation": dl.get("citation"), "days": days, "starts": dl["starts"],
            "instance_pt": dl.get("instance_pt"), "suspensive": dl.get("suspensive"),
            "due": due(d, days, dl["starts"], calendar)})
    return out
