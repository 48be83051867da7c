"""What the penalty history changes in an evaluation (SPEC §5): an infraction that `requires_prior`,
alternatives withheld after a recent penalty, recidivism (its effect on the amount and its
sentence) and escalation (applied penalties reaching a count). The JS twin is
pwa/js/rules/recidivism.js: keep them in step, key order and pt-BR sentences included."""
from . import dates, money
from .deadlines import measure
from .expr import CALENDAR_VAR

_PENALTY_PT = {"advertencia": "advertência", "multa": "multa", "suspensao": "suspensão",
              "cassacao": "cassação", "inabilitacao": "inabilitação"}
_PENALTY_PLURAL_PT = {"advertencia": "advertências", "multa": "multas", "suspensao": "suspensões",
                      "cassacao": "cassações", "inabilitacao": "inabilitações"}


def has_prior(spec, d, hist):
    """`requires_prior` (e.g. "reincidir, em 12 meses, na infração X"): the applied history holds
    one of its infractions committed inside the window."""
    start = dates.window_start(d, spec["window"])
    return any(h[1]["id"] in spec["infractions"] and start <= h[0] <= d for h in hist)


def alternatives_of(inf, d, hist):
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


def recidivism(rule, inf, d, hist, cfg):
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


def escalation(esc, pack_id, d, hist, proposed, cfg, undecided, ctx):
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
            esc_measure = esc["measure"]
            measure_pt = _PENALTY_PT.get(esc_measure["kind"], esc_measure["kind"])
            notice = None if reached else (
                f"aviso — não é {measure_pt} agora: se esta autuação for confirmada, serão "
                f"{prior + current} {what} em {_window_pt(esc['window'])} "
                f"({prior} já aplicada(s), {current} desta autuação); {measure_pt} só depois da decisão definitiva")
            return {
                "id": esc["id"], "citation": esc.get("citation"), "label_pt": esc["label_pt"],
                "penalty": penalty, "groups": groups, "prior": prior, "current": current, "count": needed,
                "status": "reached" if reached else "would_reach",
                "window_from": dates.to_iso(start), "window_to": dates.to_iso(d),
                "measure": measure(esc_measure, d, cfg, ("escalation", esc["id"]), undecided,
                                   ctx.get(CALENDAR_VAR)),
                "notice_pt": notice,
                "why_pt": (f"{esc['label_pt']}: {prior + current} {what_why} entre "
                           f"{dates.to_br(start)} e {dates.to_br(d)} ({prior} anterior(es), "
                           f"{current} nesta fiscalização); limite {needed}."),
            }
    return None
