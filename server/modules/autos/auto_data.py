"""The one place that reads an auto's content. Today it is the body the device signed; once the
review module keeps corrected versions, this function returns the current version instead
(review.versions.current_data), and every document drawn from it follows."""
import json


def auto_data(case) -> dict:
    try:
        body = json.loads(case.record.body)
    except (ValueError, TypeError):  # accepted records are JSON objects; never fail a page over it
        return {}
    return body if isinstance(body, dict) else {}


def confirmed_infractions(data) -> list[dict]:
    items = data.get("infractions") if isinstance(data.get("infractions"), list) else []
    return [i for i in items if isinstance(i, dict) and isinstance(i.get("id"), str)
            and i.get("decision", "confirmed") == "confirmed"]
