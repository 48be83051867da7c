"""Which authority applies an infraction: the municipality (its moto-táxi law) or the traffic
authority of the SNT (`jurisdiction: "snt"` in the packs: CTB art. 244, applied by the órgão
executivo de trânsito, CTB art. 24). Pure: read from the packs that ship with the code, so the
autos, the dashboard's derivation, the communications to the traffic authority and their
migrations all draw the same line (issue 34, item 2: one authority per document).

A CTB infraction enters a municipal auto only where the municipality recorded the act that
integrates it into the SNT (autos process settings, `traffic_authority_act`); otherwise it is
never part of the auto, its copy, its totals or its notificação: it is communicated apart."""
import functools

from .compose import read_packs

TRAFFIC = "snt"


@functools.lru_cache(maxsize=1)
def traffic_infraction_ids() -> frozenset:
    """Ids of every pack infraction the traffic authority applies."""
    return frozenset(i["id"] for _, pack in read_packs() for i in pack.get("infractions") or []
                     if isinstance(i, dict) and i.get("jurisdiction") == TRAFFIC)


def is_traffic(item, ids=None) -> bool:
    """An infraction of a record body (or of an evaluation) that the traffic authority applies:
    by its pack id, or by the jurisdiction the phone's evaluation carried."""
    if not isinstance(item, dict):
        return False
    ids = traffic_infraction_ids() if ids is None else ids
    return item.get("id") in ids or item.get("jurisdiction") == TRAFFIC


def split(items, integrated=False, ids=None) -> tuple[list, list]:
    """(infractions of the municipal auto, infractions for the traffic authority). With the
    integration act recorded every infraction is the auto's."""
    own, traffic = [], []
    for item in items or []:
        (traffic if not integrated and is_traffic(item, ids) else own).append(item)
    return own, traffic
