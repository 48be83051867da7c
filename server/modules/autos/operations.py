"""Every state change of an AutoCase (audited, in the transaction of the change)."""
from ...core.audit import current_actor, record
from ...core.errors import ApiError
from ...extensions import db
from ..fieldsync.bulk import insert_new
from .models import AutoCase, utcnow
from .signals import auto_case_changed

# action → (states it may start from, state it leads to)
TRANSITIONS = {
    "auto_homologate": (("recebido",), "homologado"),
    "auto_void": (("recebido", "homologado"), "insubsistente"),
}
REASON_MIN = 10


def open_cases_of_push(device, autos, **_):
    """Receiver of fieldsync.signals.autos_accepted (server/subscriptions.py), in the push's
    transaction."""
    open_cases(device.municipality_id, autos)


def open_cases(municipality_id, autos):
    """The autos the sync push just accepted ([{"id", "number"}]): one case each, set-based,
    idempotent (a replayed record never opens a second case)."""
    if not autos:
        return
    now = utcnow()
    # One statement whatever the batch size (fieldsync/bulk.py).
    insert_new(db.session.connection(), AutoCase.__table__, [
        {"municipality_id": municipality_id, "record_id": a["id"], "number": a.get("number"),
         "state": "recebido", "created_at": now} for a in autos], ("record_id",), "record_id")


def _snapshot(case):
    return {"state": case.state, "number": case.number, "decision_reason": case.decision_reason}


def decide(case, action, reason, actor=None):
    """Homologate or declare void (insubsistente) with a justification; never deletes."""
    allowed_from, new_state = TRANSITIONS[action]
    reason = (reason or "").strip()
    if len(reason) < REASON_MIN:
        raise ApiError(422, "validation_error", "Dados inválidos.",
                       {"reason": [f"Justifique a decisão (ao menos {REASON_MIN} caracteres)."]})
    if case.state not in allowed_from:
        raise ApiError(409, "invalid_transition", f"O auto está {case.state}: esta decisão não é possível.")
    before = _snapshot(case)
    old = case.state
    case.state = new_state
    case.decision_reason = reason
    case.decided_at = utcnow()
    case.decided_by_id = getattr(actor, "id", None) or getattr(current_actor(), "id", None)
    record(action, "auto_case", case.id, before, _snapshot(case), reason=reason,
           municipality_id=case.municipality_id, actor=actor)
    auto_case_changed.send(case, old=old, new=new_state)
    return case
