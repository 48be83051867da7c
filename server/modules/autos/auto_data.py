"""The one place the process reads an auto's content: the auto as the municipality now holds it
(review.versions.current_data: the signed body with the reviewer's latest correction applied,
`_version` = its number, 0 when as signed), so every document drawn from it follows corrections."""


def auto_data(case) -> dict:
    from ..review.versions import current_data  # review imports autos: resolved at call time
    return current_data(case)


def confirmed_infractions(data) -> list[dict]:
    items = data.get("infractions") if isinstance(data.get("infractions"), list) else []
    return [i for i in items if isinstance(i, dict) and isinstance(i.get("id"), str)
            and i.get("decision", "confirmed") == "confirmed"]


def amount_brl(infraction) -> float | None:
    """The amount in reais an infraction of the auto states, or None (no unit value configured
    on the phone that day, or not a number)."""
    brl = infraction.get("amount_brl")
    return brl if isinstance(brl, (int, float)) and not isinstance(brl, bool) else None
