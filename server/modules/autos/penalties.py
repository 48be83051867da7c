"""The penalties of an auto's process (AutoPenalty, and the AppliedPenalty rows phones and the
server count for recidivism and escalation), brought to what the law says from where the process
stands: its steps, notificação, filings and calendar, which are read here for every operation of
the process (process_operations.py, where each step is recorded, refreshes them through this
module). Each change audited, in the caller's transaction."""
from ...core.audit import record
from ...core.clock import local_today
from ...core.signals import announce
from ...core.tenancy import owned
from ...extensions import db
from ..calendar.service import calendar_of
from ..fieldsync.models import AppliedPenalty
from ..registry.models import Municipality
from ..rules.service import composed_for
from .auto_data import auto_data, confirmed_infractions
from .disqualification import check_operator
from .instances import instances
from .models import utcnow
from .notification_content import infraction_content, infraction_date, permit_for
from .outcome import outcome
from .process_models import AutoAppeal, AutoNotification, AutoPenalty
from .signals import penalty_changed


# --- where the process stands ----------------------------------------------------------------------

def steps_for(case):
    municipality = db.session.get(Municipality, case.municipality_id)
    return instances(composed_for(municipality), infraction_date(case))


def calendar_for_case(case):
    """The legal calendar (holidays and closures) of the auto's municipality."""
    return calendar_of(db.session.get(Municipality, case.municipality_id))


def notification_of(case):
    return AutoNotification.query.filter_by(case_id=case.id).first()


def appeals_of(case):
    return AutoAppeal.query.filter_by(case_id=case.id).order_by(AutoAppeal.filed_on, AutoAppeal.id).all()


# --- penalties -------------------------------------------------------------------------------------

def _decision_ref(case, reason):
    return f"Auto {case.number}: {reason}"[:120]


def refresh_penalties(case, today):
    """Bring the case's penalties to what the law says on `today`; returns how many changed.
    Idempotent: a second call with the same facts changes nothing."""
    data = auto_data(case)
    # auto_data holds the municipal auto's infractions only: a CTB/SNT one has no municipal penalty.
    items = confirmed_infractions(data) if case.state in ("homologado", "insubsistente") else []
    existing = {p.infraction_id: p for p in AutoPenalty.query.filter_by(case_id=case.id)}
    if case.state == "recebido" or not (items or existing) or (case.state == "insubsistente" and not existing):
        return 0  # a void auto never notified has no penalty to annul
    note = notification_of(case)
    appeals = appeals_of(case)
    steps = steps_for(case) if case.state == "homologado" else []
    permit = permit_for(case, data)
    cal = calendar_for_case(case)
    changed = 0
    for item in items:
        row = existing.get(item["id"])
        if row is None:
            municipality = db.session.get(Municipality, case.municipality_id)
            info = infraction_content(composed_for(municipality), item, infraction_date(case, data))
            row = AutoPenalty(municipality_id=case.municipality_id, case_id=case.id, infraction_id=item["id"],
                              penalty=info["penalty_kind"], amount_brl_cents=info["amount_brl_cents"],
                              operator_id=case.record.operator_id, permit_id=permit.id if permit else None,
                              state="pendente")
            db.session.add(row)
            existing[item["id"]] = row
            changed += 1
        if row.state == "registro_cancelado":
            continue
        if case.state == "insubsistente":
            out_state, reason, applied_on = "anulada", f"Auto insubsistente: {case.decision_reason}", None
        else:
            out = outcome(steps, note.served_on if note else None, appeals, today, item["id"], cal)
            out_state, reason, applied_on = out.state, out.reason, out.applied_on
        new_applied_on = applied_on if out_state == "aplicada" else row.applied_on
        if (row.state, row.state_reason, row.applied_on) == (out_state, reason, new_applied_on):
            continue
        changed += 1
        before = row.state
        row.state, row.state_reason, row.updated_at = out_state, reason, utcnow()
        if out_state == "aplicada":
            row.applied_on = applied_on
            _apply(case, row, reason)
            # applied penalties alone may now disqualify the driver (art. 42 § único / art. 26)
            check_operator(case.municipality_id, row.operator_id, today)
        elif row.applied_penalty_id is not None:
            owned(AppliedPenalty, row.applied_penalty_id, case.municipality_id).cancelled = True
        if before != out_state:
            record("penalty_state", "auto_penalty", row.id, {"state": before}, {"state": out_state}, reason=reason,
                   municipality_id=case.municipality_id, actor=None)
            db.session.flush()
            announce(penalty_changed, case, penalty=row, old=before, new=out_state)
    return changed


def _apply(case, row, reason):
    """Write (or revive) the AppliedPenalty row the recidivism and escalation rules count."""
    applied = owned(AppliedPenalty, row.applied_penalty_id, case.municipality_id)
    if applied is None:
        applied = AppliedPenalty(municipality_id=case.municipality_id, operator_id=row.operator_id,
                                 permit_id=row.permit_id, infraction_id=row.infraction_id, penalty=row.penalty,
                                 committed_on=infraction_date(case) or row.applied_on,
                                 applied_on=row.applied_on, auto_record_id=case.record_id,
                                 decision_ref=_decision_ref(case, reason))
        db.session.add(applied)
        db.session.flush()
        row.applied_penalty_id = applied.id
    else:
        applied.cancelled, applied.applied_on = False, row.applied_on


def server_history(municipality_id, operator_id) -> list[dict]:
    """The operator's applied penalties as rule-engine history (SPEC §7): what the server's own
    evaluation counts for recidivism and escalation, authoritative over the phone's copy."""
    rows = (AppliedPenalty.query.filter_by(municipality_id=municipality_id, operator_id=operator_id)
            .order_by(AppliedPenalty.committed_on, AppliedPenalty.id))
    return [{"infraction": p.infraction_id, "date": p.committed_on.isoformat(), "applied_on": p.applied_on.isoformat(),
             "penalty": p.penalty, "state": "annulled" if p.cancelled else "applied",
             **({"auto": p.auto_record_id} if p.auto_record_id else {})} for p in rows]


def case_voided(case, old=None, new=None, **_):
    """auto_case_changed receiver (server/subscriptions.py): a reviewer who declares a notified
    auto void (autos.operations.decide) annuls its penalties in the same transaction, not at the
    next daily run."""
    if new == "insubsistente":
        refresh_penalties(case, local_today())
