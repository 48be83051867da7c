"""A permit's state changes: issue, edit, the lifecycle transitions, the daily expiry and lapse.
Validated data in, audited change out. No request parsing here. The other registry records
(companies, operators, vehicles, pontos, unit values) are written by entities.py."""

from datetime import timedelta

from ...core.audit import current_actor, record, snapshot
from ...core.clock import local_today
from ...core.errors import ApiError
from ...extensions import db
from ...rules.legal_calendar import cc_132_days, fixed_date_end
from ..calendar.service import calendar_of, move_stored_days
from ..issuance.requirements import enforce
from ..issuance.validity import RULES, issue_validity, renewal_validity, rule_for
from ..registry.legal import check_holder_unchanged
from ..registry.models import (
    OCCUPYING,
    Company,
    Municipality,
    Operator,
    Permit,
    PermitStatusChange,
    Ponto,
    Vehicle,
    utcnow,
)
from ..registry.signals import permit_status_changed
from ..selection.operations import candidate_for_permit, mark_permit_granted, vacancy_refusal
from .entities import check_unique, field_error, owned_row_or_error

# action -> (statuses it may start from, status it leads to)
TRANSITIONS = {
    # From "suspenso" only when the suspension is the one for not renewing (Sapezal art. 10 § 2º).
    "renew": ({"ativo", "vencido", "suspenso"}, "ativo"),
    "suspend": ({"ativo"}, "suspenso"),
    "reinstate": ({"suspenso"}, "ativo"),
    "cassar": ({"ativo", "suspenso", "vencido"}, "cassado"),
    "extinguish": ({"ativo", "suspenso", "vencido"}, "extinto"),
    "expire": ({"ativo"}, "vencido"),
    # Where the law suspends an alvará not renewed in time (Sapezal Lei 125/1999, art. 10, § 2º).
    "expire_suspend": ({"ativo"}, "suspenso"),
    "lapse": ({"vencido", "suspenso"}, "caducado"),
}
ACTION_LABELS = {
    "issue": "Emissão", "renew": "Renovação", "suspend": "Suspensão", "reinstate": "Fim da suspensão",
    "cassar": "Cassação", "extinguish": "Extinção", "expire": "Vencimento", "lapse": "Caducidade",
    "expire_suspend": "Suspensão por falta de renovação",
}


def _check_capacity(municipality, ponto, exclude_permit_id=None):
    if ponto is not None:
        query = Permit.query.filter(Permit.ponto_id == ponto.id, Permit.status.in_(OCCUPYING))
        if exclude_permit_id:
            query = query.filter(Permit.id != exclude_permit_id)
        if query.count() >= ponto.capacity:
            raise field_error("ponto_id", f"O ponto {ponto.name} está lotado ({ponto.capacity} vagas).", 409)
    if exclude_permit_id is None:
        refusal = vacancy_refusal(municipality)
        if refusal:
            raise field_error("number", refusal, 409)


def _apply_permit_fields(permit, municipality, data):
    holder = owned_row_or_error(Operator, data.get("holder_operator_id"), municipality.id, "holder_operator_id")
    company = owned_row_or_error(Company, data.get("holder_company_id"), municipality.id, "holder_company_id")
    vehicle = owned_row_or_error(Vehicle, data.get("vehicle_id"), municipality.id, "vehicle_id")
    ponto = owned_row_or_error(Ponto, data.get("ponto_id"), municipality.id, "ponto_id")
    drivers = [owned_row_or_error(Operator, i, municipality.id, "driver_ids") for i in data.get("driver_ids", [])]
    if company is not None and not drivers:
        raise field_error("driver_ids", "Permissão de empresa exige ao menos um condutor.")
    if holder is not None and holder in drivers:
        raise field_error("driver_ids", f"{holder.name} é o titular da permissão; condutores auxiliares "
                                         "são outras pessoas.")
    if ponto is not None and ponto.id != permit.ponto_id:
        _check_capacity(municipality, ponto, exclude_permit_id=permit.id)
    simple = {k: v for k, v in data.items() if k not in ("driver_ids",)}
    for key, value in simple.items():
        setattr(permit, key, value)
    permit.holder_operator, permit.holder_company, permit.vehicle, permit.ponto = holder, company, vehicle, ponto
    permit.drivers = drivers


def issue_permit(municipality, data, today=None):
    """Issue a permit: validity computed from the law (a different date needs
    `validity_exception_reason`, audited), every legal requirement met (issuance.requirements)."""
    data = dict(data)
    exception_reason = data.pop("validity_exception_reason", None)
    candidate_id = data.pop("candidate_id", None)
    check_unique(Permit, municipality.id, "number", data["number"],
                  message="Já existe uma permissão com este número neste município.")
    _check_capacity(municipality, None)
    computed = issue_validity(municipality, data.get("kind", "alvara"), data["valid_from"])
    requested = data.pop("valid_until", None)
    permit = Permit(municipality_id=municipality.id, status="ativo", status_changed_at=utcnow())
    # Added to the session only once complete: the capacity queries in _apply_permit_fields would
    # otherwise autoflush a row without a number (IntegrityError → 500).
    with db.session.no_autoflush:
        _apply_permit_fields(permit, municipality, data)
        permit.valid_until = _validity_with_exception(computed, requested, exception_reason)
        candidate = candidate_for_permit(municipality, candidate_id, permit.holder_operator)
        enforce(municipality, permit, "issue", today)
    db.session.add(permit)
    db.session.flush()
    if candidate is not None:
        mark_permit_granted(candidate, permit)
    _record_validity_exception(permit, computed, exception_reason)
    db.session.add(PermitStatusChange(permit=permit, from_status=None, to_status="ativo", action="issue",
                                      actor_id=current_actor_id(), valid_until=permit.valid_until,
                                      reason="Emissão"))
    record("issue", "permit", permit.id, None, permit_snapshot(permit), municipality_id=municipality.id)
    permit_status_changed.send(permit, old=None, new="ativo")
    db.session.flush()
    return permit


# The validity of a permit changes only through the lifecycle (renew), with a reason and history.
LIFECYCLE_FIELDS = {"issued_on": "a emissão", "valid_from": "o início da validade", "valid_until": "a validade"}


def update_permit(permit, municipality, data):
    # The form leaves the validity blank when it is the law's: nothing to change then.
    data = {k: v for k, v in data.items()
            if k not in ("validity_exception_reason", "candidate_id") and not (k == "valid_until" and v is None)}
    check_holder_unchanged(municipality, permit, data)
    for field, label in LIFECYCLE_FIELDS.items():
        if field in data and data[field] != getattr(permit, field):
            raise field_error(field, f"Não se altera {label} por edição: use a ação Renovar (com motivo).")
    if data["number"] != permit.number:
        check_unique(Permit, municipality.id, "number", data["number"], permit.id,
                      "Já existe uma permissão com este número neste município.")
    before = permit_snapshot(permit)
    _apply_permit_fields(permit, municipality, data)
    db.session.flush()
    record("update", "permit", permit.id, before, permit_snapshot(permit), municipality_id=municipality.id)
    db.session.flush()
    return permit


def change_permit_status(permit, action, reason, valid_until=None, suspended_until=None, actor=None,
                         exception_reason=None, today=None):
    """Apply one lifecycle action (renew, suspend, reinstate, cassar, extinguish, expire, lapse)."""
    if action not in TRANSITIONS:
        raise ApiError(400, "unknown_action", "Ação desconhecida.")
    allowed_from, new_status = TRANSITIONS[action]
    if permit.status not in allowed_from:
        raise ApiError(409, "invalid_transition",
                       f"{ACTION_LABELS[action]} não é possível com a permissão {permit.status}.")
    before = permit_snapshot(permit)
    computed = None
    if action == "renew":
        if permit.status == "suspenso" and not _suspended_for_not_renewing(permit):
            raise ApiError(409, "invalid_transition", f"{ACTION_LABELS[action]} não é possível: a suspensão "
                           "é uma penalidade; encerre-a antes (Fim da suspensão).")
        computed = renewal_validity(db.session.get(Municipality, permit.municipality_id), permit,
                                    today or local_today())
        valid_until = _validity_with_exception(computed, valid_until, exception_reason)
        if valid_until <= permit.valid_until:
            raise field_error("valid_until", "A nova validade deve ser posterior à atual.")
        enforce(db.session.get(Municipality, permit.municipality_id), permit, "renew", today)
        permit.valid_until = valid_until
        permit.suspended_until = None
    if action == "suspend":
        if suspended_until is not None and suspended_until <= local_today():
            raise field_error("suspended_until", "O fim da suspensão deve estar no futuro.")
        permit.suspended_until = suspended_until
    if action == "expire_suspend":
        permit.suspended_until = suspended_until
    if action in ("reinstate", "lapse"):
        permit.suspended_until = None
    old_status = permit.status
    permit.status = new_status
    permit.status_changed_at = utcnow()
    actor_id = getattr(actor, "id", None) or current_actor_id()
    db.session.add(PermitStatusChange(permit=permit, from_status=old_status, to_status=new_status,
                                      action=action, actor_id=actor_id, reason=reason,
                                      valid_until=permit.valid_until))
    record(action, "permit", permit.id, before, permit_snapshot(permit), reason=reason,
           municipality_id=permit.municipality_id, actor=actor)
    if action == "renew":
        _record_validity_exception(permit, computed, exception_reason, actor=actor)
    permit_status_changed.send(permit, old=old_status, new=new_status)
    db.session.flush()
    return permit


def _validity_with_exception(computed, requested, exception_reason):
    """The law's date, unless the clerk asked for another one and said why."""
    if computed is None:
        if requested is None:
            raise field_error("valid_until", "Informe a validade: não há regra de validade para este município.")
        return requested
    if requested is None or requested == computed:
        return computed
    if not exception_reason or len(exception_reason.strip()) < 10:
        raise field_error("validity_exception_reason",
                           f"A validade pela lei é {computed:%d/%m/%Y}; outra data é uma exceção: "
                           "informe o motivo (ao menos 10 caracteres).")
    return requested


def _record_validity_exception(permit, computed, exception_reason, actor=None):
    if computed is not None and permit.valid_until != computed:
        record("validity_exception", "permit", permit.id, {"valid_until": computed},
               {"valid_until": permit.valid_until}, reason=exception_reason,
               municipality_id=permit.municipality_id, actor=actor)


def _suspended_for_not_renewing(permit):
    last = permit.history[-1] if permit.history else None
    return last is not None and last.action == "expire_suspend"


def expire_due_permits(today=None):
    """Daily job: permits past their validity become 'vencido' — or 'suspenso' where the law
    suspends them (Sapezal art. 10 § 2º) — (system actor). Returns the count."""
    today = today or local_today()
    due = Permit.query.filter(Permit.status == "ativo", Permit.valid_until < today).all()
    changed = 0
    for permit in due:
        rule = rule_for(db.session.get(Municipality, permit.municipality_id), permit.kind)
        if rule is not None and rule.march_cycle and renewal_deadline_end(permit) >= today:
            continue  # 31 March had no office hours: the renewal may still be filed (art. 10 § 1º)
        changed += 1
        if rule is not None and rule.after_expiry == "suspenso":
            change_permit_status(permit, "expire_suspend",
                                 f"Não renovada até {permit.valid_until:%d/%m/%Y}: suspensão automática "
                                 f"({rule.grace_basis}).",
                                 suspended_until=_grace_end(permit, rule))
        else:
            change_permit_status(permit, "expire", f"Validade encerrada em {permit.valid_until.isoformat()}.")
    return changed


def renewal_deadline_end(permit, calendar=None):
    """The last day to file the renewal where the law sets it as a date (Sapezal art. 10 § 1º, "até
    o último dia do mês de março"): `valid_until`, or the next business day when that day has no
    office hours (CC art. 132 § 1º; Lei 9.784/1999 art. 66 § 1º) — the end the roadside rule
    `sap.req.alvara_renovado` also reads. A validity of months or years (Nortelândia art. 6º,
    Paranatinga arts. 13 § 1º and 20) is a duration, not a period to act: it does not move."""
    if calendar is None:
        calendar = calendar_of(db.session.get(Municipality, permit.municipality_id))
    return fixed_date_end(calendar, permit.valid_until)


def _grace_end(permit, rule, calendar=None):
    """The last day to regularize after the validity (Sapezal art. 10 § 2º: 30 days), counted by
    Código Civil art. 132 in the municipality's calendar from the end of the renewal deadline (a
    31 March without office hours moves that start: `legal_calendar.start_day`) — the day the
    roadside rule `sap.req.alvara_nao_caducado` (`cc_132_days`) also takes as the last."""
    if calendar is None:
        calendar = calendar_of(db.session.get(Municipality, permit.municipality_id))
    return cc_132_days(calendar, permit.valid_until, rule.grace_days)


def lapse_unrenewed_permits(today=None):
    """Daily job: where the law makes an unrenewed permit lapse after a grace period (Sapezal
    art. 10 § 2º: 30 days), it becomes 'caducado'. Idempotent: only permits still waiting."""
    today = today or local_today()
    count = 0
    for key, rule in RULES.items():
        if rule.grace_days is None:
            continue
        slug = key[0] if isinstance(key, tuple) else key
        muni = Municipality.query.filter_by(slug=slug).first()
        if muni is None:
            continue
        # The calendar-day end is a lower bound of the CC art. 132 end (which only moves later).
        due = Permit.query.filter(Permit.municipality_id == muni.id, Permit.status.in_(("vencido", "suspenso")),
                                  Permit.valid_until < today - timedelta(days=rule.grace_days)).all()
        calendar = calendar_of(muni) if due else None
        for permit in due:
            if _grace_end(permit, rule, calendar) >= today:
                continue  # the 30th day had no office hours: the period runs to the next business day
            if permit.status == "suspenso" and not _suspended_for_not_renewing(permit):
                continue  # a penalty suspension is not the renewal's
            change_permit_status(permit, "lapse", f"Não renovada em {rule.grace_days} dias após "
                                 f"{permit.valid_until:%d/%m/%Y}: caducidade ({rule.grace_basis}).")
            count += 1
    return count


def current_actor_id():
    return getattr(current_actor(), "id", None)


def permit_snapshot(permit):
    data = snapshot(permit)
    data["driver_ids"] = [d.id for d in permit.drivers]
    return data


def move_grace_ends(municipality, closed_day):
    """The calendar's closure_added receiver (server/subscriptions.py), inside its transaction: a
    permit suspended for not renewing keeps in `suspended_until` the last day to regularize (Sapezal
    art. 10 § 2º, CC art. 132 § 1º); a closure recorded on or before that day may move it (the day
    itself, or the start: a 31 March now without office hours). Recomputed and audited; only ever
    later — removing a closure does not shorten a period already announced. Returns the count."""
    rows = Permit.query.filter(Permit.municipality_id == municipality.id, Permit.status == "suspenso",
                               Permit.suspended_until >= closed_day).order_by(Permit.id).all()

    def recount(permit, cal):
        rule = rule_for(municipality, permit.kind)
        if rule is None or rule.grace_days is None or not _suspended_for_not_renewing(permit):
            return None  # a penalty suspension lasts its days: not a period to act
        return _grace_end(permit, rule, cal)

    def move(permit, new_end):
        before = permit_snapshot(permit)
        permit.suspended_until = new_end
        record("update", "permit", permit.id, before, permit_snapshot(permit), municipality_id=municipality.id,
               reason=f"Dia sem expediente registrado ({closed_day:%d/%m/%Y}): o prazo para regularizar vai a "
                      f"{new_end:%d/%m/%Y} ({rule_for(municipality, permit.kind).grace_basis}; Código Civil, art. 132, § 1º)")

    return move_stored_days(municipality, rows, recount, lambda permit: permit.suspended_until, move)
