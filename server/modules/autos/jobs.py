"""Daily tasks of the autos' process. Both decide as of `today` from the facts dated on or before it,
so running them twice changes nothing more, and the runner replays a missed day as of its own date
(jobs/registry.py)."""
import datetime

from sqlalchemy import select

from ...core import clock
from ...core.audit import record
from ...extensions import db
from ...rules import dates
from ..fieldsync.models import FieldRecord
from ..jobs.registry import daily_task
from ..registry.models import Municipality
from ..rules.service import composed_for
from .models import AutoCase, utcnow
from .process_models import AutoNotification, AutoPenalty
from .process_operations import refresh_penalties


@daily_task("autos.penalties", "Penalidades aplicadas (prazos de defesa e recurso esgotados)")
def apply_penalties(today):
    """Every homologated auto whose operator was notified (and every voided one still holding
    penalties): its penalties brought to what the deadlines and decisions say today."""
    served = select(AutoNotification.case_id).where(AutoNotification.served_on.is_not(None))
    with_penalties = select(AutoPenalty.case_id).where(AutoPenalty.state.in_(("pendente", "suspensa", "aplicada")))
    cases = AutoCase.query.filter((AutoCase.id.in_(served)) | (AutoCase.id.in_(with_penalties))).order_by(AutoCase.id)
    return sum(refresh_penalties(case, today) for case in cases)


def _ord(day):
    return day.toordinal()


@daily_task("autos.quiet_period", "Registros de punição cancelados após o período sem infração")
def cancel_quiet_records(today):
    """Paranatinga art. 44 (pack `history_cancellation`): the record of penalties is cancelled
    when, one year from the last penalty applied, the operator committed no new infraction.
    The applied penalties stay as history; the rule engine drops them itself (SPEC §7)."""
    changed = 0
    for municipality in Municipality.query.order_by(Municipality.id):
        try:
            rules = composed_for(municipality).history_cancellation
        except Exception:  # noqa: BLE001 — a municipality without a pack has nothing to cancel
            continue
        for rule in rules:
            changed += _cancel_for(municipality, rule, today)
    return changed


def _cancel_for(municipality, rule, today):
    # As of `today`: a penalty applied after it was not yet applied (a missed day replayed later).
    rows = (AutoPenalty.query.filter_by(municipality_id=municipality.id, state="aplicada")
            .filter(AutoPenalty.operator_id.is_not(None), AutoPenalty.applied_on <= today)
            .order_by(AutoPenalty.operator_id).all())
    by_operator = {}
    for row in rows:
        by_operator.setdefault(row.operator_id, []).append(row)
    changed = 0
    for operator_id, penalties in by_operator.items():
        last = max(p.applied_on for p in penalties)
        # The engine's one function (the anniversary is inside the year: Lei 810/1949 art. 1º), so
        # the ledger cancels on the day the rules stop counting the record, never a day before.
        quiet_end = datetime.date.fromordinal(dates.period_end(_ord(last), rule["quiet_period"]))
        if quiet_end >= today or _new_infraction_within(municipality.id, operator_id, last, quiet_end):
            continue
        for p in penalties:
            p.state, p.updated_at = "registro_cancelado", utcnow()
            p.state_reason = (f"{rule['label_pt']} ({rule['citation']['law']} art. {rule['citation']['art']}): "
                              f"sem nova infração de {last.strftime('%d/%m/%Y')} a {quiet_end.strftime('%d/%m/%Y')}.")
            record("penalty_record_cancel", "auto_penalty", p.id, {"state": "aplicada"},
                   {"state": "registro_cancelado"}, reason=p.state_reason, municipality_id=municipality.id)
            changed += 1
    return changed


def _new_infraction_within(municipality_id, operator_id, last, quiet_end):
    """An auto against the operator committed after `last` and on or before `quiet_end`, not declared
    void. Art. 44 asks whether the operator "não incorrer em nova infração" within the year: one
    committed after the year ended does not undo the cancellation the law made on its last day —
    whether the job ran that day or replays it later (issue 35)."""
    # Days are the municipality's (core.clock): an auto at 22:00 in Cuiabá on the year's last day is inside.
    start = datetime.datetime.combine(last + datetime.timedelta(days=1), datetime.time(), clock.timezone())
    end = datetime.datetime.combine(quiet_end + datetime.timedelta(days=1), datetime.time(), clock.timezone())
    query = (select(FieldRecord.id).join(AutoCase, AutoCase.record_id == FieldRecord.id)
             .where(FieldRecord.municipality_id == municipality_id, FieldRecord.kind == "auto",
                    FieldRecord.operator_id == operator_id, FieldRecord.device_at >= start,
                    FieldRecord.device_at < end, AutoCase.state != "insubsistente"))
    return db.session.execute(query.limit(1)).first() is not None
