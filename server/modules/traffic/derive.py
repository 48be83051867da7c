"""Pure: which CTB/SNT infractions a record body says the fiscal observed, for the communication
to the traffic authority. No Flask, no database: the push and the migration that opened the
communications of earlier records (0031_i34b_traffic_reports) read records the same way.

- An inspection from a phone that knows the authorities carries, for a CTB infraction of its
  evaluation, the decision "communicate" ("Comunicar" under "A comunicar ao órgão de trânsito"),
  or "removed" with the fiscal's reason.
- An older phone confirmed a CTB infraction into the auto ("confirmed", in the inspection's
  decisions and the auto's infractions): unless the municipality is integrated into the SNT (then
  it is its auto's), that observation is communicated too, and the auto no longer states it.
"""
from ...rules.jurisdiction import is_traffic


def _dict(value):
    return value if isinstance(value, dict) else {}


def _list(value):
    return value if isinstance(value, list) else []


def _item(inf, observed=()):
    citation = inf.get("citation")
    return {"id": inf["id"], "label_pt": inf.get("label_pt") if isinstance(inf.get("label_pt"), str) else inf["id"],
            "citation": citation if isinstance(citation, (dict, str)) else None,
            "observed": [o for o in observed if isinstance(o, str)]}


def observed_items(body, kind, traffic_ids, integrated=False) -> list[dict]:
    """[{id, label_pt, citation, observed}] of the CTB/SNT infractions to communicate."""
    if kind == "inspection":
        evaluation = _dict(body.get("evaluation"))
        decisions = _dict(body.get("decisions"))
        failed = {f.get("requirement"): f.get("label_pt") for f in _list(evaluation.get("failed")) if isinstance(f, dict)}
        out = []
        for inf in _list(evaluation.get("infractions")):
            if not (isinstance(inf, dict) and isinstance(inf.get("id"), str) and is_traffic(inf, traffic_ids)):
                continue
            decision = _dict(decisions.get(inf["id"])).get("decision")
            if decision == "communicate" or (decision == "confirmed" and not integrated):
                out.append(_item(inf, [failed.get(r) or r for r in _list(inf.get("triggered_by"))
                                       if isinstance(r, str) and r != "$selected"]))
        return out
    if kind == "auto" and not integrated:
        return [_item(inf) for inf in _list(body.get("infractions"))
                if isinstance(inf, dict) and isinstance(inf.get("id"), str) and is_traffic(inf, traffic_ids)
                and inf.get("decision", "confirmed") == "confirmed"]
    return []


def stop_id(body, kind, record_id):
    """The stop a record belongs to: an inspection is its own; an auto is its inspection's."""
    if kind == "auto" and isinstance(body.get("inspection_id"), str) and body["inspection_id"]:
        return body["inspection_id"]
    return record_id


def gps_of(body):
    gps = _dict(body.get("gps"))
    lat, lon = gps.get("lat"), gps.get("lon")
    ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (lat, lon))
    return (float(lat), float(lon)) if ok and -90 <= lat <= 90 and -180 <= lon <= 180 else (None, None)


def text(value, limit):
    return value.strip()[:limit] if isinstance(value, str) and value.strip() else None
