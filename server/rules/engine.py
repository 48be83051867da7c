"""evaluate() (SPEC §5, §8): proposals, amounts, recidivism and escalation. Inputs are checked in
inputs.py, the checklist is built in checklist.py. The JS twins are pwa/js/rules/{engine,inputs,
checklist}.js: keep them in step, key order included."""
from . import dates, legal_calendar, money
from .expr import CALENDAR_VAR, DATE_VAR, UNKNOWN
from .compose import SPEC_VERSION
from .errors import FactError
from .inputs import (PENALTIES, SELECTED, fact_values, applied_history, in_effect, parse_date_arg,
                     chosen_penalties, add_options)


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

    grace = _grace(rules, d, rules.config, calendar)
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
            in_grace = _grace_for(req, grace, ctx)
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
        out = _escalation(esc, rules.packs[esc["_pack"]]["id"], d, hist, result["infractions"], cfg, undecided, ctx)
        if out is not None:
            result["escalations"].append(out)

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
        result["deadlines"].append({
            "id": dl["id"], "kind": dl["kind"], "label_pt": dl["label_pt"],
            "citation": _citation(dl), "days": days, "starts": dl["starts"],
            "instance_pt": dl.get("instance_pt"), "suspensive": dl.get("suspensive"),
            "due": _due(d, days, dl["starts"], calendar)})
    return result


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


def _due(d, days, starts, calendar):
    """The last day of a period starting at the inspection (CC art. 132; SPEC §5): None when it
    starts later, or without a calendar to tell whether the last day has office hours."""
    if days is None or starts != "autuacao" or calendar is None:
        return None
    return legal_calendar.cc_132_days(calendar, dates.to_iso(d), days).isoformat()


def _select_row(rows, d):
    best = None
    for row in rows or ():
        vf = dates.parse_iso(row["valid_from"])
        if vf is not None and vf <= d and (best is None or vf >= best[0]):
            best = (vf, row)
    return best[1] if best else None


def _measure(m, d, cfg, owner, undecided, calendar):
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
            "due": _due(d, days, starts, calendar), "only_if_pt": m.get("only_if_pt")}


def _grace(rules, d, cfg, calendar):
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


def _grace_for(req, grace, ctx):
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


def config_days(cfg, key, d):
    """The days a configured deadline has on D (SPEC §6): a number, or the dated row in force
    (`[{"valid_from", "days", "act"}]`, the latest `valid_from <= D`); None when unset."""
    value = (cfg.get("deadlines") or {}).get(key)
    if isinstance(value, list):
        row = _select_row(value, d)
        return row.get("days") if row is not None else None
    return value


def _grace_end(start, days, calendar):
    if calendar is None:
        return dates.add_days(start, days)
    return legal_calendar.cc_132_days(calendar, dates.to_iso(start), days).toordinal()


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
            value = _has_prior(inf["requires_prior"], d, hist)
        if value is True:
            continue
        del triggered[inf["id"]]
        for failed in result["failed"]:
            failed["infractions"] = [i for i in failed["infractions"] if i != inf["id"]]
        if value is UNKNOWN:
            result["undecided"].append({"kind": "infraction", "id": inf["id"], "reason": "missing_fact",
                                        "facts": _missing(ctx, [cond])})


def _has_prior(spec, d, hist):
    start = dates.window_start(d, spec["window"])
    return any(h[1]["id"] in spec["infractions"] and start <= h[0] <= d for h in hist)


def _infraction(rules, inf, d, triggered_by, hist, cfg, undecided, chosen=None, calendar=None):
    rec_out, effect, extra_measures, window_undecided = None, None, [], None
    if inf.get("recidivism"):
        rule = rules.at(inf["recidivism"], d) or rules.by_id[inf["recidivism"]]
        rec_out, applied, window_undecided = _recidivism(rule, inf, d, hist, cfg)
        if applied:
            effect = rule["effect"]
            extra_measures = rule.get("add_measures") or []
    alternatives, withheld = _alternatives(inf, d, hist)
    if chosen is not None and withheld is not None and chosen in withheld["alternatives"]:
        raise FactError(PENALTIES, "not_an_alternative",
                        {"type": "enum", "values": [inf["penalty"]["kind"], *alternatives]})
    kind = chosen or inf["penalty"]["kind"]
    # A written warning carries no fine: no amount when the fiscal chose it.
    amount = None if kind == "advertencia" else _amount(inf, d, cfg, effect, undecided)
    if window_undecided:
        undecided.append(window_undecided)
    measures = [_measure(m, d, cfg, ("infraction", inf["id"]), undecided, calendar)
                for m in list(inf.get("measures") or []) + list(extra_measures)]
    return {
        "id": inf["id"], "pack": rules.packs[inf["_pack"]]["id"], "citation": _citation(inf),
        "label_pt": inf["label_pt"], "group": inf.get("group"), "item": inf.get("item"),
        "jurisdiction": inf.get("jurisdiction", "municipal"), "triggered_by": triggered_by,
        "penalty": {"kind": kind, "alternatives": alternatives,
                    "default": inf["penalty"]["kind"], "chosen": chosen is not None, "withheld": withheld},
        "amount": amount, "recidivism": rec_out, "measures": measures,
    }


def _alternatives(inf, d, hist):
    """(alternatives admitted on D, withheld or None). `penalty.alternatives_only_if`
    (`{"no_penalty_within": period, "citation"}`) admits the alternatives only to someone with
    no applied penalty of the same law committed inside the period before D (e.g. "poderá
    substituir a multa por advertência, se o infrator não tiver sofrido penalidade nos 12 meses
    anteriores")."""
    alternatives = list(inf["penalty"].get("alternatives") or [])
    cond = inf["penalty"].get("alternatives_only_if")
    if not cond or not alternatives:
        return alternatives, None
    start = dates.window_start(d, cond["no_penalty_within"])
    priors = [h for h in hist if h[1]["_pack"] == inf["_pack"] and start <= h[0] <= d]
    if not priors:
        return alternatives, None
    n = len(priors)
    return [], {"alternatives": alternatives,
                "why_pt": (f"{' e '.join(_PENALTY_PT.get(k, k) for k in alternatives).capitalize()} não admitida: "
                           f"{n} penalidade{'s' if n > 1 else ''} aplicada{'s' if n > 1 else ''} entre "
                           f"{dates.to_br(start)} e {dates.to_br(d)}.")}


def _amount(inf, d, cfg, effect, undecided):
    a = inf.get("amount")
    if a is None:
        return None
    out = {"basis": None, "unit": None, "value": None, "max": None, "brl_cents": None,
           "max_brl_cents": None, "unit_value_brl": None, "unit_value_from": None, "decree": None}
    value = maximum = None
    key = a.get("decree_key")
    row = _select_row((cfg.get("decree_amounts") or {}).get(key), d) if key else None
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
        urow = _select_row((cfg.get("unit_values") or {}).get(unit), d)
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


def _matches(rule, inf, prior_inf):
    match = rule["match"]
    if match == "same_infraction":
        return prior_inf["id"] == inf["id"]
    if match == "same_group":
        return (prior_inf["_pack"] == inf["_pack"] and inf.get("group") is not None
                and prior_inf.get("group") == inf.get("group"))
    return True


def _phrase(n):
    if n == 0:
        return "nenhuma infração anterior correspondente"
    if n == 1:
        return "1 infração anterior correspondente"
    return f"{n} infrações anteriores correspondentes"


def _effect_pt(effect, unit):
    if "multiply" in effect:
        k = effect["multiply"]
        return "multa em dobro" if k == 2 else f"multa multiplicada por {money.fmt(k)}"
    return f"teto elevado para {money.fmt(effect['set_max'])} {unit or ''}".rstrip()


def _recidivism(rule, inf, d, hist, cfg):
    """-> (output dict, applied True/False/None, undecided entry or None)."""
    window = rule.get("window")
    matching = [h for h in hist if _matches(rule, inf, h[1])]
    min_prior = rule.get("min_prior", 1)
    unit = (inf.get("amount") or {}).get("unit")
    base = {"rule": rule["id"], "applied": None, "prior_count": None, "window_from": None,
            "window_to": dates.to_iso(d), "effect": rule["effect"], "why_pt": None}
    if window is not None and "config_key" in window:
        period = (cfg.get("periods") or {}).get(window["config_key"])
        if period is None:
            if not matching:
                base.update(applied=False, prior_count=0,
                            why_pt=f"Sem reincidência: {_phrase(0)} no histórico.")
                return base, False, None
            # Words, never the key (issue 34, item 4): the clerk finds it on "Configuração das regras".
            base["why_pt"] = ("Reincidência indeterminada: o prazo de reincidência não foi configurado "
                              f"(Configuração das regras); {_phrase(len(matching))} no histórico.")
            return base, None, {"kind": "infraction", "id": inf["id"],
                                "reason": "unconfigured_window", "config_key": window["config_key"]}
        window = period
    if window is None:
        priors = matching
        span = f"até {dates.to_br(d)}"
    else:
        start = dates.window_start(d, window)
        base["window_from"] = dates.to_iso(start)
        priors = [h for h in matching if start <= h[0] <= d]
        span = f"entre {dates.to_br(start)} e {dates.to_br(d)}"
    n = len(priors)
    applied = n >= min_prior
    base["applied"], base["prior_count"] = applied, n
    if applied:
        base["why_pt"] = (f"Reincidência ({rule['label_pt']}): {_phrase(n)} {span}; "
                          f"{_effect_pt(rule['effect'], unit)}.")
    else:
        base["why_pt"] = f"Sem reincidência: {_phrase(n)} {span}."
    return base, applied, None


_PENALTY_PT = {"advertencia": "advertência", "multa": "multa", "suspensao": "suspensão",
               "cassacao": "cassação", "inabilitacao": "inabilitação"}
_PENALTY_PLURAL_PT = {"advertencia": "advertências", "multa": "multas", "suspensao": "suspensões",
                      "cassacao": "cassações", "inabilitacao": "inabilitações"}


def _window_pt(window):
    if "years" in window:
        return f"{window['years'] * 12} meses"
    if "months" in window:
        return f"{window['months']} meses"
    return f"{window['days']} dias"


def _recidivist_reading(clause, cfg):
    """The clause's `recidivist_option` is chosen: one penalty of the clause proposed now on an
    infraction whose recidivism applies is enough (history alone still needs `count`)."""
    opt = clause.get("recidivist_option")
    return bool(opt) and (cfg.get("options") or {}).get(opt["key"]) == opt["value"]


def _escalation(esc, pack_id, d, hist, proposed, cfg, undecided, ctx):
    """Counts APPLIED penalties of the history only (SPEC §5): `status` is "reached" when they
    alone reach the count — also on a clean stop (the driver is disqualified by history alone);
    when only this stop's proposals would reach it, "would_reach" and a notice worded so that it
    does not read as a disqualification — a proposal is not a penalty until the auto is
    confirmed. `since_fact` (a date fact: the last curso de reabilitação) ends an earlier
    disqualification: penalties committed on or before it no longer count. `one_auto_option`:
    unless the option says "cada", the fines of one autuação count once."""
    start = dates.window_start(d, esc["window"])
    since = ctx.get(esc["since_fact"]) if esc.get("since_fact") else None
    if isinstance(since, int) and since + 1 > start:
        start = since + 1
    per_auto = not (esc.get("one_auto_option")
                    and ((cfg.get("options") or {}).get(esc["one_auto_option"]) == "cada"))
    in_window = [h for h in hist if start <= h[0] <= d and h[1]["_pack"] == esc["_pack"]]
    for clause in esc["any_of"]:
        penalty, groups = clause.get("penalty"), clause.get("groups")
        if groups is not None:
            # "punido por 3 infrações dos Grupos C ou D": every applied penalty of those groups.
            matching = [h for h in in_window if h[1].get("group") in groups]
            current = sum(1 for p in proposed if p["group"] in groups and p["pack"] == pack_id)
            what = f"infrações dos grupos {' ou '.join(groups)}"
            what_why = f"infração(ões) dos grupos {', '.join(groups)}"
        else:
            matching = [h for h in in_window if h[2] == penalty]
            current = sum(1 for p in proposed if p["penalty"]["kind"] == penalty and p["pack"] == pack_id)
            what = _PENALTY_PLURAL_PT.get(penalty, penalty)
            what_why = f"penalidade(s) de {penalty}"
        prior = len({h[4] if h[4] else ("#", i) for i, h in enumerate(matching)}) if per_auto else len(matching)
        if per_auto:
            current = min(current, 1)
        needed = clause["count"]
        if _recidivist_reading(clause, cfg) and any(
                p["penalty"]["kind"] == penalty and p["pack"] == pack_id and (p.get("recidivism") or {}).get("applied") is True
                for p in proposed):
            needed = 1  # "reincidente em suspensão" read as a suspension imposed on a recidivist
        if (current >= 1 or prior >= clause["count"]) and prior + current >= needed:
            reached = prior >= clause["count"]
            measure = esc["measure"]
            measure_pt = _PENALTY_PT.get(measure["kind"], measure["kind"])
            notice = None if reached else (
                f"aviso — não é {measure_pt} agora: se esta autuação for confirmada, serão "
                f"{prior + current} {what} em {_window_pt(esc['window'])} "
                f"({prior} já aplicada(s), {current} desta autuação); {measure_pt} só depois da decisão definitiva")
            return {
                "id": esc["id"], "citation": esc.get("citation"), "label_pt": esc["label_pt"],
                "penalty": penalty, "groups": groups, "prior": prior, "current": current, "count": needed,
                "status": "reached" if reached else "would_reach",
                "window_from": dates.to_iso(start), "window_to": dates.to_iso(d),
                "measure": _measure(measure, d, cfg, ("escalation", esc["id"]), undecided, ctx.get(CALENDAR_VAR)),
                "notice_pt": notice,
                "why_pt": (f"{esc['label_pt']}: {prior + current} {what_why} entre "
                           f"{dates.to_br(start)} e {dates.to_br(d)} ({prior} anterior(es), "
                           f"{current} nesta fiscalização); limite {needed}."),
            }
    return None
