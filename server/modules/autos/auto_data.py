"""The one place the process reads an auto's content: the auto as the municipality now holds it
(versions.current_data: the signed body with the reviewer's latest correction applied,
`_version` = its number, 0 when as signed), so every document drawn from it follows corrections.

One authority per document (issue 34, item 2): `infractions` holds only what the municipal auto
states; a CTB/SNT infraction an older phone put in the auto is moved to `traffic` (communicated to
the traffic authority by the traffic module, never charged, penalised or printed as the auto's),
unless the municipality recorded the act that integrates it into the SNT."""
from ...extensions import db
from ...rules import jurisdiction
from ..registry.models import Municipality
from .versions import current_data


def auto_data(case) -> dict:
    data = current_data(case)
    municipality = db.session.get(Municipality, case.municipality_id)
    items = data.get("infractions") if isinstance(data.get("infractions"), list) else []
    own, traffic = jurisdiction.split([i for i in items if isinstance(i, dict)],
                                      integrated=bool(traffic_authority_act(municipality)))
    return {**data, "infractions": own, "traffic": traffic}


def municipal_infractions(municipality, items) -> list[dict]:
    """The infractions of a record body the municipal auto states (see the module's docstring)."""
    items = [i for i in items or [] if isinstance(i, dict)]
    return jurisdiction.split(items, integrated=bool(traffic_authority_act(municipality)))[0]


def confirmed_infractions(data) -> list[dict]:
    items = data.get("infractions") if isinstance(data.get("infractions"), list) else []
    return [i for i in items if isinstance(i, dict) and isinstance(i.get("id"), str)
            and i.get("decision", "confirmed") == "confirmed"]


def amount_brl(infraction) -> float | None:
    """The amount in reais an infraction of the auto states, or None (no unit value configured
    on the phone that day, or not a number)."""
    brl = infraction.get("amount_brl")
    return brl if isinstance(brl, (int, float)) and not isinstance(brl, bool) else None


NOT_CONFIGURED = "a definir (decreto não configurado)"


def traffic_authority_act(municipality) -> str | None:
    """The act by which the municipality is the integrated traffic authority, when recorded in the
    autos process settings (Configuração do processo de autos), else None."""
    act = ((municipality.settings or {}).get("autos") or {}).get("traffic_authority_act")
    return act.strip() if isinstance(act, str) and act.strip() else None


def by_authority(composed, infractions, integrated=False) -> tuple[list, list]:
    """(infractions of the municipal auto, infractions to communicate to the traffic authority),
    by the composed packs' jurisdiction (rules.jurisdiction)."""
    ids = frozenset(i["id"] for i in composed.infractions if i.get("jurisdiction") == jurisdiction.TRAFFIC)
    return jurisdiction.split(infractions, integrated, ids | jurisdiction.traffic_infraction_ids())


def amount_words(cents, value=None, unit=None, penalty_kind=None) -> str:
    """What an infraction's amount line says: reais (and the law's unit), or why there is none.
    Never "R$ 0,00" for an amount nobody configured."""
    def brl(c):
        return "R$ " + f"{c / 100:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    units = f"{value:g} {unit}".replace(".", ",") if value is not None and unit else None
    if cents is not None:
        return f"{brl(cents)} ({units})" if units and unit != "BRL" else brl(cents)
    if penalty_kind not in (None, "multa"):
        return "sem multa"
    if units:
        return f"{units} (valor em reais a definir: unidade fiscal não configurada)"
    return NOT_CONFIGURED


def total_cents(items) -> int | None:
    """The sum of the municipal fines in cents, or None while any fine's amount is unknown (no
    total is ever printed over a missing amount). Items: dicts with amount_brl_cents/penalty_kind."""
    fines = [i for i in items if i.get("penalty_kind") in (None, "multa")]
    if not fines or any(i.get("amount_brl_cents") is None for i in fines):
        return None
    return sum(i["amount_brl_cents"] for i in fines)
