"""evaluate() (SPEC §5, §8), the entry point: requirements checked, infractions proposed (withheld,
displaced) with their amounts, then escalations and deadlines. Inputs are checked in inputs.py,
deadlines and adaptation periods are counted in deadlines.py, what the penalty history changes
(recidivism, escalation) is decided in recidivism.py, the checklist is built in checklist.py. The
JS twins are pwa/js/rules/{evaluation,deadlines,recidivism,inputs,checklist}.js: keep them in
step, key order included."""
from . import dates, money
from .compose import SPEC_VERSION
from .deadlines import grace_for, grace_periods, listed_deadlines, measure, select_row
from .errors import FactError
from .expr import CALENDAR_VAR, DATE_VAR, UNKNOWN
from .inputs import (PENALTIES, SELECTED, fact_values, applied_history, in_effect, parse_date_arg,
                     chosen_penalties, add_options)
from .recidivism import alternatives_of, escalation, has_prior, recidivism


def _missing(ctx, compiled_list):
    out = []
    for c in compiled_list:
        if c is None:
            continue
        for name in c.refs:
            if name not in ctx and name not in out:
                out.append(name)
    return out


def _citation(entry):
    return entry.get("citation")


def evaluate(rules, date, facts, history=(), calendar=None):
    """`calendar`: the municipality's legal calendar (legal_calendar.Calendar: holidays and its
    closures), which every period counted by CC art. 132 reads (SPEC §5 "Counting")."""
    d = parse_date_arg(date)
    ctx, na, selected = fact_values(rules, facts, d)
    ctx[DATE_VAR] = d
    if calendar is not None:
        ctx[CALENDAR_VAR] = calendar
    add_options(ctx, rules.config)
    chosen = chosen_penalties(rules, (facts or {}).get(PENALTIES), d)
    hist = applied_history(rules, history, d)
    cfg = rules.config
    result = {
        "spec_version": SPEC_VERSION, "municipality": rules.municipality,
        "date": dates.to_iso(d),
        "packs": [{"id": p["id"], "version": p["version"]} for p in rules.packs],
        "failed": [], "passed": [], "not_applicable": [], "undecided": [],
        "infractions": [], "displaced": [], "escalations": [], "deadlines": [],
    }
    undecided = result["undecided"]
    triggered = {}                          # infraction id -> [requirement ids]
    for sel in selected:
        triggered.setdefault(sel, []).append(SELECTED)

    grace = grace_periods(rules, d, rules.config, calendar)
    for req in rules.requirements:
        if req["_mode"] == "ignored" or not in_effect(req, d):
            continue
        if any(f in na for f in req["_na_facts"]):
            result["not_applicable"].append(req["id"])
            continue
        applies = req["_applies"].fn(ctx)
        if applies is False:
            result["not_applicable"].append(req["id"])
            continue
        holds = UNKNOWN if applies is UNKNOWN else req["_holds"].fn(ctx)
        if req["_mode"] == "pending":
            undecided.append({"kind": "requirement", "id": req["id"], "reason": "vetoed_pending",
                              "facts": _missing(ctx, [req["_applies"], req["_holds"]]),
                              "would_fail": None if holds is UNKNOWN else (not holds)})
            continue
        if applies is UNKNOWN or holds is UNKNOWN:
            undecided.append({"kind": "requirement", "id": req["id"], "reason": "missing_fact",
                              "facts": _missing(ctx, [req["_applies"], req["_holds"]])})
        elif holds:
            result["passed"].append(req["id"])
        else:
            in_grace = grace_for(req, grace, ctx)
            if in_grace is UNKNOWN:
                # Whether the adaptation period covers this person is unknown: not yet an infraction.
                undecided.append({"kind": "requirement", "id": req["id"], "reason": "missing_fact",
                                  "facts": _missing(ctx, [dl["_applies"] for dl in grace if dl["_applies"]])})
                continue
            proposed = []
            for ref in req.get("on_fail") or [] if in_grace is None else []:
                inf = rules.at(ref, d)
                if inf is not None and inf["_mode"] != "ignored":
                    triggered.setdefault(ref, []).append(req["id"])
                    if inf["_mode"] == "active":
                        proposed.append(ref)
            entry = {"requirement": req["id"], "pack": rules.packs[req["_pack"]]["id"],
                     "citation": _citation(req), "label_pt": req["label_pt"], "infractions": proposed}
            if in_grace is not None:
                entry["grace"] = in_grace["id"]  # a notice: the law still gives time to comply
            result["failed"].append(entry)

    _withhold(rules, ctx, triggered, result, d, hist)
    _displace(rules, d, triggered, result)
    for inf in rules.infractions:
        if inf["id"] not in triggered or not in_effect(inf, d):
            continue
        if inf["_mode"] == "pending":
            undecided.append({"kind": "infraction", "id": inf["id"], "reason": "vetoed_pending"})
            continue
        if inf["_mode"] == "ignored":
            continue
        result["infractions"].append(_infraction(rules, inf, d, triggered[inf["id"]], hist, cfg,
                                                 undecided, chosen.get(inf["id"]), calendar))

    for esc in rules.escalations:
        if esc["_mode"] != "active" or not in_effect(esc, d):
            continue
        out = escalation(esc, rules.packs[esc["_pack"]]["id"], d, hist, result["infractions"], cfg, undecided, ctx)
        if out is not None:
            result["escalations"].append(out)

    result["deadlines"] = listed_deadlines(rules, d, cfg, grace, calendar, undecided)
    return result


def _withhold(rules, ctx, triggered, result, d, hist):
    """An infraction whose `proposed_when` is not true is not proposed (SPEC §5), e.g. a
    regularize-or-lose-the-permit rule to a driver with no alvará: dropped from the failed
    requirements' lists; when the condition is unknown, listed as undecided. One that
    `requires_prior` (e.g. "reincidir, em 12 meses, na infração X") is proposed only when the
    applied history holds such an infraction committed inside the window."""
    for inf in rules.infractions:
        if inf["id"] not in triggered or not in_effect(inf, d):
            continue
        cond = inf.get("_proposed_when")
        value = cond.fn(ctx) if cond is not None else True
        if value is True and inf.get("requires_prior"):
            value = has_prior(inf["requires_prior"], d, hist)
        if value is True:
            continue
        del triggered[inf["id"]]
        for failed in result["failed"]:
            failed["infractions"] = [i for i in failed["infractions"] if i != inf["id"]]
        if value is UNKNOWN:
            result["undecided"].append({"kind": "infraction", "id": inf["id"], "reason": "missing_fact",
                                        "facts": _missing(ctx, [cond])})


def _displace(rules, d, triggered, result):
    """Specific over general (SPEC §5): an infraction proposed with `displaces` removes the
    general infractions it lists from this evaluation, so one fact is not fined twice."""
    for inf in rules.infractions:
        if inf["id"] not in triggered or inf["_mode"] != "active" or not in_effect(inf, d):
            continue
        for ref in inf.get("displaces") or []:
            if ref in triggered:
                del triggered[ref]
                result["displaced"].append({"id": ref, "by": inf["id"]})
    gone = {x["id"] for x in result["displaced"]}
    for failed in result["failed"]:
        failed["infractions"] = [ref for ref in failed["infractions"] if ref not in gone]


def _infraction(rules, inf, d, triggered_by, hist, cfg, undecided, chosen=None, calendar=None):
    rec_out, effect, extra_measures, window_undecided = None, None, [], None
    if inf.get("recidivism"):
        rule = rules.at(inf["recidivism"], d) or rules.by_id[inf["recidivism"]]
        rec_out, applied, window_undecided = recidivism(rule, inf, d, hist, cfg)
        if applied:
            effect = rule["effect"]
            extra_measures = rule.get("add_measures") or []
    alternatives, withheld = alternatives_of(inf, d, hist)
    if chosen is not None and withheld is not None and chosen in withheld["alternatives"]:
        raise FactError(PENALTIES, "not_an_alternative",
                        {"type": "enum", "values": [inf["penalty"]["kind"], *alternatives]})
    kind = chosen or inf["penalty"]["kind"]
    # A written warning carries no fine: no amount when the fiscal chose it.
    amount = None if kind == "advertencia" else _amount(inf, d, cfg, effect, undecided)
    if window_undecided:
        undecided.append(window_undecided)
    measures = [measure(m, d, cfg, ("infraction", inf["id"]), undecided, calendar)
                for m in list(inf.get("measures") or []) + list(extra_measures)]
    return {
        "id": inf["id"], "pack": rules.packs[inf["_pack"]]["id"], "citation": _citation(inf),
        "label_pt": inf["label_pt"], "group": inf.get("group"), "item": inf.get("item"),
        "jurisdiction": inf.get("jurisdiction", "municipal"), "triggered_by": triggered_by,
        "penalty": {"kind": kind, "alternatives": alternatives,
                    "default": inf["penalty"]["kind"], "chosen": chosen is not None, "withheld": withheld},
        "amount": amount, "recidivism": rec_out, "measures": measures,
    }


def _amount(inf, d, cfg, effect, undecided):
    a = inf.get("amount")
    if a is None:
        return None
    out = {"basis": None, "unit": None, "value": None, "max": None, "brl_cents": None,
           "max_brl_cents": None, "unit_value_brl": None, "unit_value_from": None, "decree": None}
    value = maximum = None
    key = a.get("decree_key")
    row = select_row((cfg.get("decree_amounts") or {}).get(key), d) if key else None
    if "max" in a:
        out["basis"], unit, maximum = "cap", a["unit"], money.dec(a["max"])
        if row is not None and "value" in row:
            # The law's ceiling binds the decree: a value in another unit or above the cap is
            # never output (SPEC §5 "Caps"); the cap stays, the value is left to the authority.
            if row.get("unit") != a["unit"]:
                undecided.append({"kind": "infraction", "id": inf["id"],
                                  "reason": "decree_unit_mismatch", "config_key": key})
            elif row["value"] > a["max"]:
                undecided.append({"kind": "infraction", "id": inf["id"],
                                  "reason": "decree_above_cap", "config_key": key})
            else:
                value, out["decree"] = money.dec(row["value"]), row.get("decree")
    elif key:
        out["basis"] = "decree"
        if row is None:
            undecided.append({"kind": "infraction", "id": inf["id"],
                              "reason": "unconfigured_amount", "config_key": key})
            return out
        unit, out["decree"] = row["unit"], row.get("decree")
        value = money.dec(row["value"]) if "value" in row else None
        maximum = money.dec(row["max"]) if "max" in row else None
        if maximum is not None:
            out["basis"] = "cap"
            if value is not None and row["value"] > row["max"]:
                undecided.append({"kind": "infraction", "id": inf["id"],
                                  "reason": "decree_above_cap", "config_key": key})
                value = None
    else:
        out["basis"], unit, value = "fixed", a["unit"], money.dec(a["value"])
    if effect is not None and "multiply" in effect:
        value = money.mul(value, effect["multiply"]) if value is not None else None
        maximum = money.mul(maximum, effect["multiply"]) if maximum is not None else None
    elif effect is not None and "set_max" in effect:
        maximum = money.dec(effect["set_max"])
    out["unit"] = unit
    out["value"] = money.to_number(value) if value is not None else None
    out["max"] = money.to_number(maximum) if maximum is not None else None
    if unit == "BRL":
        uv, uv_from = money.dec(1), None
    else:
        urow = select_row((cfg.get("unit_values") or {}).get(unit), d)
        if urow is None:
            undecided.append({"kind": "infraction", "id": inf["id"],
                              "reason": "unit_value_missing", "unit": unit})
            return out
        uv, uv_from = money.dec(urow["brl"]), urow["valid_from"]
    out["unit_value_brl"] = money.to_number(uv) if unit != "BRL" else 1
    out["unit_value_from"] = uv_from
    if value is not None:
        out["brl_cents"] = money.cents(value, uv)
    if maximum is not None:
        out["max_brl_cents"] = money.cents(maximum, uv)
    return out
