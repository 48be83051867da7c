"""The defence/appeal instances of a municipality, read from its composed rule packs: the first
runs from the notification (or intimação) of the auto, each next one from the decision of the
previous one (SPEC start event `decisao`, e.g. Paranatinga art. 48: Secretário, then Prefeito).

Days are counted by the legal calendar (server/rules/legal_calendar.py): calendar days from the
day after the start, a last day without office hours moved to the next business day (Código
Civil art. 132 caput and § 1º; Lei 9.784/1999 art. 66 § 1º), or business days where the law
refers to the CPC and the municipality keeps that reading (a deadline's `counting_option`,
Nortelândia art. 16 § 2º → CPC/2015 arts. 219 and 224). A deadline whose days the law leaves to
the municipality is `days: None` until configured, and then nothing is applied automatically."""
from datetime import date

from ...rules import evaluate, legal_calendar
from ..rules.citations import format_citation

FIRST_STARTS = ("notificacao", "intimacao")
KINDS = ("defesa", "recurso")
START_PT = {"notificacao": "do recebimento da notificação", "intimacao": "da intimação",
            # Paranatinga art. 48: "a contar do recebimento da notificação", for the new decision too.
            "decisao": "da ciência da decisão anterior (recebimento da sua notificação ou publicação)"}


COUNTING_RULES = ("cpc_219", "cc_132")


def counting_of(composed, deadline):
    """The counting rule of a pack deadline: its option's configured value, else CC art. 132.
    An unset CPC option reads as business days (the configured default, and the reading that
    never shortens a defence)."""
    key = deadline.get("counting_option")
    if not key:
        return "cc_132"
    value = (composed.config.get("options") or {}).get(key)
    return value if value in COUNTING_RULES else "cpc_219"


def instances(composed, on_date: date) -> list[dict]:
    """[{level, id, kind, label_pt, citation, citation_pt, days, starts, start_pt, instance_pt,
    suspensive, config_key, days_from, counting, counting_pt}] in force on on_date (the date of the infraction)."""
    out = evaluate(composed, on_date.isoformat(), {}, [])["deadlines"]
    # The version of each deadline in force on the day (SPEC §3 "Amendments").
    by_id = {dl["id"]: composed.at(dl["id"], on_date.toordinal()) or dl for dl in composed.deadlines}
    rows = [dl for dl in out if dl["kind"] in KINDS]
    ordered = [dl for dl in rows if dl["starts"] in FIRST_STARTS][:1]
    if ordered:
        ordered += [dl for dl in rows if dl["starts"] == "decisao"]
    return [{"level": i + 1, "id": dl["id"], "kind": dl["kind"], "label_pt": dl["label_pt"],
             "citation": dl["citation"], "citation_pt": format_citation(composed, dl["citation"]),
             "days": dl["days"], "starts": dl["starts"], "start_pt": START_PT.get(dl["starts"], dl["starts"]),
             "instance_pt": dl.get("instance_pt"), "suspensive": bool(dl.get("suspensive")),
             "config_key": by_id.get(dl["id"], {}).get("config_key"),
             # "law" when the pack fixes the days, "config" when the municipality's setting does.
             "days_from": "law" if by_id.get(dl["id"], {}).get("days") is not None else "config",
             "counting": counting_of(composed, by_id.get(dl["id"], {})),
             "counting_pt": legal_calendar.rule_text(counting_of(composed, by_id.get(dl["id"], {}))),
             "act": configured_act(composed, by_id.get(dl["id"], {}).get("config_key"), on_date)}
            for i, dl in enumerate(ordered)]


def configured_act(composed, key, on_date):
    """The act of the configured days in force on `on_date` (a dated row's `act`), or None."""
    rows = (composed.config.get("deadlines") or {}).get(key) if key else None
    if not isinstance(rows, list):
        return None
    best = None
    for row in rows:
        if row.get("valid_from", "") <= on_date.isoformat() and (best is None or row["valid_from"] >= best["valid_from"]):
            best = row
    return (best or {}).get("act") or None


def due(cal, start: date, step) -> date | None:
    """Last day to file for an instance `step` starting on `start`, by its counting rule on the
    municipality's calendar `cal` (legal_calendar.Calendar)."""
    if step["days"] is None:
        return None
    return legal_calendar.deadline(cal, start, step["days"], step.get("counting", "cc_132"))
