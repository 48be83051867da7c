"""The defence/appeal instances of a municipality, read from its composed rule packs: the first
runs from the notification (or intimação) of the auto, each next one from the decision of the
previous one (SPEC start event `decisao`, e.g. Paranatinga art. 48: Secretário, then Prefeito).

Days are calendar days counted from the day after the start (Código Civil art. 132: first day
excluded, last included), as the rule engine counts them; a deadline whose days the law leaves to
the municipality is `days: None` until configured, and then nothing is applied automatically."""
from datetime import date, timedelta

from ...rules import evaluate
from ..rules.citations import format_citation

FIRST_STARTS = ("notificacao", "intimacao")
KINDS = ("defesa", "recurso")
START_PT = {"notificacao": "do recebimento da notificação", "intimacao": "da intimação",
            "decisao": "da decisão anterior"}


def instances(composed, on_date: date) -> list[dict]:
    """[{level, id, kind, label_pt, citation, citation_pt, days, starts, start_pt, instance_pt,
    suspensive, config_key, days_from}] in force on on_date (the date of the infraction)."""
    out = evaluate(composed, on_date.isoformat(), {}, [])["deadlines"]
    by_id = {dl["id"]: dl for dl in composed.deadlines}
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
             "days_from": "law" if by_id.get(dl["id"], {}).get("days") is not None else "config"}
            for i, dl in enumerate(ordered)]


def due(start: date, days) -> date | None:
    """Last day to file: `days` calendar days after `start` (CC art. 132)."""
    return None if days is None else start + timedelta(days=days)
