"""Anonymisation of what may be anonymised once its retention lapses (LGPD art. 16; the periods
and their reading in retention.py). Per operator or auxiliary driver, on `today`:

- registry period not over (a permit active or suspended, or fewer years than the setting since
  the last one ended): nothing changes;
- registry over, but an auto about them still within its retention (or its process still open):
  "parcial" — photo, phone, address, blood type and residence dropped; name, CPF and CNH stay,
  because the kept autos identify the autuado by them;
- registry and autos over: "total" — the person can no longer be identified (LGPD art. 12): name,
  CPF and CNH replaced by a marker, dates reduced to their year, the portal account closed, the
  values in the audit log about them blanked. The rows themselves stay (permits, autos, penalties,
  payments, audit entries: who did what and when), so counts, chains and signatures still hold;
  the signed field records are public documents and are never rewritten here.

Idempotent: it looks at the records on `today`, and an operator already anonymised that far is
left alone, so a second run (or a run after missed days) changes nothing more."""
from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, or_, select

from ...core import transaction
from ...core.audit import AuditLog, record
from ...extensions import db
from ...rules.legal_calendar import lei_810_years
from ..accounts.models import User
from ..autos.models import AutoCase
from ..autos.process_models import AutoPenalty
from ..fieldsync.models import AppliedPenalty, FieldRecord
from ..notices.operations import forget_addresses
from ..registry.models import Operator, Permit, permit_drivers
from ..registry.photos import delete_operator_photo
from .retention import configured, retention_settings

IN_FORCE = ("ativo", "suspenso")
OPEN_PENALTY_STATES = ("pendente", "suspensa")
MARKER = "Titular anonimizado"
PARTIAL_FIELDS = ("photo_path", "phone", "address", "blood_type", "residence_since", "rehabilitation_course_ref")
TOTAL_FIELDS = PARTIAL_FIELDS + ("name", "cpf", "cnh_number", "cnh_first_issue_date", "cnh_expiry", "birth_date")
BLANK = "[anonimizado]"


@dataclass
class Verdict:
    stage: str | None            # None (keep), "parcial" or "total"
    registry_until: date | None  # None while a permit is in force
    autos_until: date | None     # None when there are no autos, or while a process is open
    open_process: bool
    has_autos: bool

    def explain(self):
        if self.registry_until is None:
            return "Cadastro retido: há permissão ativa ou suspensa."
        text = f"Cadastro retido até {self.registry_until:%d/%m/%Y}."
        if self.open_process:
            text += " Há processo de auto em curso: nome, CPF e CNH ficam enquanto durar."
        elif self.has_autos:
            text += f" Autos retidos até {self.autos_until:%d/%m/%Y} (nome, CPF e CNH ficam até lá)."
        return text


def _day(value):
    return value.date() if hasattr(value, "date") and callable(value.date) else value


def _registry_end(operator):
    """The day their last permit (as holder or auxiliary driver) ended; None while one is in force."""
    as_driver = select(permit_drivers.c.permit_id).where(permit_drivers.c.operator_id == operator.id)
    permits = Permit.query.filter(or_(Permit.holder_operator_id == operator.id, Permit.id.in_(as_driver))).all()
    if any(p.status in IN_FORCE for p in permits):
        return None
    ends = [max(p.valid_until, _day(p.status_changed_at)) for p in permits]
    return max(ends) if ends else _day(operator.created_at)


def _autos_end(operator):
    """(last act of the processes of the autos about them or None, whether one is still open)."""
    open_process = db.session.execute(select(AutoPenalty.id).where(
        AutoPenalty.operator_id == operator.id, AutoPenalty.state.in_(OPEN_PENALTY_STATES)).limit(1)).first()
    autos = select(FieldRecord.id).where(FieldRecord.operator_id == operator.id, FieldRecord.kind == "auto")
    dates = [
        db.session.scalar(select(func.max(FieldRecord.device_at)).where(FieldRecord.id.in_(autos))),
        db.session.scalar(select(func.max(AutoCase.decided_at)).where(AutoCase.record_id.in_(autos))),
        db.session.scalar(select(func.max(AutoPenalty.updated_at)).where(AutoPenalty.operator_id == operator.id)),
        db.session.scalar(select(func.max(AppliedPenalty.applied_on)).where(AppliedPenalty.operator_id == operator.id)),
    ]
    dates = [_day(d) for d in dates if d is not None]
    return (max(dates) if dates else None), open_process is not None


def verdict(operator, settings, today):
    """What the retention settings allow for this operator on `today` (settings configured)."""
    end = _registry_end(operator)
    registry_until = lei_810_years(end, settings["registry_years"]) if end else None
    last_act, open_process = _autos_end(operator)
    autos_until = lei_810_years(last_act, settings["autos_years"]) if last_act and not open_process else None
    has_autos = last_act is not None or open_process
    if registry_until is None or registry_until > today:
        stage = None
    elif open_process or (autos_until is not None and autos_until > today):
        stage = "parcial"
    else:
        stage = "total"
    return Verdict(stage, registry_until, autos_until, open_process, has_autos)


def _further(current, stage):
    order = {None: 0, "parcial": 1, "total": 2}
    return order[stage] > order[current]


def anonymise_operator(operator, stage, today, actor=None):
    """Drop the personal data `stage` allows; audited (field names only, never the values)."""
    fields = TOTAL_FIELDS if stage == "total" else PARTIAL_FIELDS
    photo = operator.photo_path
    cleared = [f for f in fields if getattr(operator, f) is not None]
    operator.photo_path = operator.phone = operator.address = operator.blood_type = None
    operator.residence_since = operator.rehabilitation_course_ref = None
    if stage == "total":
        operator.name = f"{MARKER} nº {operator.id}"
        operator.cpf = f"A{operator.id:010d}"  # a letter: never a CPF, unique per row as the constraint wants
        operator.cnh_number = f"A{operator.id:010d}"
        for key in ("cnh_first_issue_date", "cnh_expiry", "birth_date"):
            setattr(operator, key, date(getattr(operator, key).year, 1, 1))  # the year stays for statistics
        _close_account(operator)
    forget_addresses(operator)  # e-mail and mobile for notices go with the phone and address
    previous = operator.anonymized_scope
    operator.anonymized_on, operator.anonymized_scope = today, stage
    _blank_audit_values(operator, fields + (("name_search",) if stage == "total" else ()))  # the folded name too
    if photo:
        _delete_photo(operator, photo)
    record("lgpd_anonymise", "operator", operator.id, {"anonymized_scope": previous},
           {"anonymized_scope": stage, "campos": sorted(cleared)},
           reason="Prazo de retenção encerrado (LGPD art. 16)", municipality_id=operator.municipality_id, actor=actor)


def _close_account(operator):
    user = User.query.filter_by(operator_id=operator.id).first()
    if user is not None:
        user.username, user.name = f"anonimizado-{operator.id}", MARKER
        user.password_hash, user.active = None, False
        user.session_epoch = (user.session_epoch or 0) + 1


def _blank_audit_values(operator, fields):
    """The audit entries about them keep who, when, what and which fields; the values go."""
    entries = AuditLog.query.filter(AuditLog.entity == "operator", AuditLog.entity_id == str(operator.id)).all()
    for entry in entries:
        for side in ("before", "after"):
            values = getattr(entry, side)
            if isinstance(values, dict) and any(values.get(f) not in (None, BLANK) for f in fields):
                setattr(entry, side, {k: (BLANK if k in fields and v is not None else v) for k, v in values.items()})


def _delete_photo(operator, relative):
    """Photos are stored by content hash: the file goes only when no other row uses it, and only
    once the anonymisation holds (a run rolled back must leave the operator their photo)."""
    if Operator.query.filter(Operator.photo_path == relative, Operator.id != operator.id).first() is None:
        transaction.after_commit(lambda: delete_operator_photo(relative))


def run_retention(municipality, today, actor=None, dry_run=False):
    """Anonymise every operator of the municipality whose retention lapsed on `today`.
    Returns {"configured": bool, "parcial": [ids], "total": [ids]}. Staged, in the unit that
    calls it (the daily run's date, `flask lgpd retention`); a dry run stages nothing."""
    settings = retention_settings(municipality)
    out = {"configured": configured(settings), "parcial": [], "total": []}
    if not out["configured"]:
        return out
    candidates = Operator.query.filter(Operator.municipality_id == municipality.id,
                                       or_(Operator.anonymized_scope.is_(None), Operator.anonymized_scope != "total"))
    for operator in candidates.order_by(Operator.id).all():
        found = verdict(operator, settings, today)
        if found.stage and _further(operator.anonymized_scope, found.stage):
            out[found.stage].append(operator.id)
            if not dry_run:
                anonymise_operator(operator, found.stage, today, actor)
    db.session.flush()
    return out
