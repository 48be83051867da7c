"""Every state change of an auto's process after homologation: the notification, its service,
defences and appeals, penalties applied (AppliedPenalty rows: the history phones and the server
count for recidivism and escalation), payments and seizures. Each audited, in its transaction."""
import re
from datetime import date

from flask import current_app
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError

from ...core.audit import record
from ...core.clock import local_today
from ...core.errors import ApiError
from ...extensions import db
from ..credentials import keys as keystore
from ..credentials import signing
from ..credentials.operations import active_key
from ..fieldsync.models import AppliedPenalty
from ..registry.models import Municipality
from ..rules.service import composed_for
from . import notification as codec
from .auto_data import auto_data, confirmed_infractions
from .instances import instances
from .models import AutoCase, utcnow
from .notification_content import build_content, infraction_date, permit_for, process_settings
from .operations import decide
from .outcome import current_step, outcome
from .process_models import (APPEAL_DECISIONS, SERVICE_WAYS, AutoAppeal, AutoNotification, AutoPayment,
                             AutoPenalty, Seizure)

TEXT_MIN = 10


def _invalid(field, message):
    return ApiError(422, "validation_error", "Dados inválidos.", {field: [message]})


def _text(value, field, minimum=TEXT_MIN):
    value = (value or "").strip()
    if len(value) < minimum:
        raise _invalid(field, f"Escreva ao menos {minimum} caracteres.")
    return value


def _date(value, field, not_after_today=True):
    if isinstance(value, date):
        day = value
    else:
        try:
            day = date.fromisoformat(value or "")
        except (TypeError, ValueError):
            raise _invalid(field, "Informe a data (dd/mm/aaaa).") from None
    if not_after_today and day > local_today():
        raise _invalid(field, "A data não pode ser futura.")
    return day


def steps_for_municipality(municipality):
    from ...core.clock import local_today as today
    return instances(composed_for(municipality), today())


def steps_for(case):
    municipality = db.session.get(Municipality, case.municipality_id)
    return instances(composed_for(municipality), infraction_date(case))


def notification_of(case):
    return AutoNotification.query.filter_by(case_id=case.id).first()


def appeals_of(case):
    return AutoAppeal.query.filter_by(case_id=case.id).order_by(AutoAppeal.filed_on, AutoAppeal.id).all()


# --- notification --------------------------------------------------------------------------------

def issue_notification(case, actor=None, attempts=3):
    """The notificação of a homologated auto; issued once, then re-printed from the same row.
    Two clerks issuing at once collide on the (municipality, serial) or case key: the loser
    retries and, for the same case, gets the winner's notification."""
    case_id = case.id
    for attempt in range(attempts):
        try:
            return _issue_notification_once(case, actor)
        except IntegrityError:
            db.session.rollback()
            if attempt == attempts - 1:
                raise ApiError(409, "busy", "Outra notificação foi emitida ao mesmo tempo; tente novamente.") from None
            case = db.session.get(AutoCase, case_id)


def _issue_notification_once(case, actor):
    existing = notification_of(case)
    if existing is not None:
        return existing
    if case.state != "homologado":
        raise ApiError(409, "not_homologated", "Só se notifica um auto homologado.")
    municipality = db.session.get(Municipality, case.municipality_id)
    _check_notifiable(municipality, steps_for(case))
    key = active_key(municipality)
    if key is None:
        raise ApiError(409, "no_active_key", "O município não tem chave de assinatura ativa (flask keys create).")
    serial = (db.session.query(func.max(AutoNotification.serial))
              .filter_by(municipality_id=municipality.id).scalar() or 0) + 1
    now = utcnow()
    issued_on = local_today()
    content = codec.canonical(build_content(case, serial, issued_on))
    digest = codec.content_hash(content)
    body = codec.encode_body(codec.NotificationBody(kid=key.kid, ibge_code=int(municipality.ibge_code), serial=serial,
                                                    issued_on=issued_on, content_digest=bytes.fromhex(digest)[:16]))
    signature = signing.sign(keystore.load_private_key(key.private_key_file), body)
    note = AutoNotification(municipality_id=municipality.id, case_id=case.id, serial=serial,
                            number=f"NOT-{case.number or case.id}", issued_at=now,
                            issued_by_id=getattr(actor, "id", None), content=content, content_hash=digest,
                            issuer_key_id=key.id,
                            payload=codec.payload(body, signature, current_app.config["PUBLIC_BASE_URL"]))
    db.session.add(note)
    db.session.flush()
    record("auto_notification_issue", "auto_notification", note.id, None,
           {"number": note.number, "serial": serial, "content_hash": digest, "kid": key.kid},
           municipality_id=municipality.id, actor=actor)
    db.session.commit()
    return note


def _check_notifiable(municipality, steps):
    """A notification without the defence deadline or the authority that decides would be void
    (Sapezal art. 28 VI asks for the deadline and fixes none): refuse, saying what to configure."""
    first = steps[0] if steps else None
    if first is None:
        return  # the law provides no defence instance: nothing to print (said on the document)
    if first["days"] is None:
        raise ApiError(409, "deadline_not_configured",
                       f"Prazo de defesa não definido em lei ({first['citation_pt']}): configure-o em "
                       f"Configuração das regras (chave {first['config_key']}) antes de notificar.")
    if not first.get("instance_pt") and not (process_settings(municipality).get("authority_pt") or "").strip():
        raise ApiError(409, "authority_not_configured",
                       "A lei não indica a autoridade que julga a defesa: configure-a em Configuração do "
                       "processo de autos antes de notificar.")


def record_service(case, via, served_on, note_text=None, actor=None):
    """How and when the operator learnt of the auto: the day every deadline counts from."""
    note = notification_of(case)
    if note is None:
        raise ApiError(409, "not_notified", "Emita a notificação antes de registrar a ciência.")
    if note.served_on is not None:
        raise ApiError(409, "already_served", "A ciência já foi registrada; ela não se altera.")
    if via not in SERVICE_WAYS:
        raise _invalid("via", "Escolha como o autuado foi notificado.")
    data = auto_data(case)
    signatures = data.get("signatures") if isinstance(data.get("signatures"), dict) else {}
    if via == "assinatura_local":
        if not signatures.get("operator"):
            raise _invalid("via", "O autuado não assinou o auto no local (recusa ou sem assinatura): "
                                  "use outra forma de notificação.")
        served_on = infraction_date(case, data)
    elif via == "edital":
        settings = process_settings(db.session.get(Municipality, case.municipality_id))
        if not (settings.get("edital_basis_pt") or "").strip():
            raise _invalid("via", "A lei municipal não prevê notificação por edital; só com o ato que a "
                                  "autorize registrado na configuração do processo.")
        served_on = _date(served_on, "served_on")
    else:
        served_on = _date(served_on, "served_on")
    if via in ("postal_ar", "edital"):
        _text(note_text, "note", 3)  # AR number / edital's publication
    if served_on < note.issued_at.date() and via != "assinatura_local":
        raise _invalid("served_on", "A ciência não pode ser anterior à emissão da notificação.")
    before = {"served_via": None, "served_on": None}
    note.served_via, note.served_on = via, served_on
    note.served_note = (note_text or "").strip() or None
    note.served_recorded_at = utcnow()
    record("auto_service", "auto_notification", note.id, before,
           {"served_via": via, "served_on": served_on.isoformat(), "note": note.served_note},
           municipality_id=case.municipality_id, actor=actor)
    refresh_penalties(case, local_today())
    db.session.commit()
    return note


# --- defence and appeals ---------------------------------------------------------------------------

def file_appeal(case, filed_on, summary, actor=None):
    if case.state != "homologado":
        raise ApiError(409, "not_homologated", "Só cabe defesa ou recurso num auto homologado e não anulado.")
    filed_on = _date(filed_on, "filed_on")
    summary = _text(summary, "summary")
    steps = steps_for(case)
    if not steps:
        raise ApiError(409, "no_instance", "A lei não prevê instância de defesa ou recurso.")
    note = notification_of(case)
    served_on = note.served_on if note else None
    appeals = appeals_of(case)
    step, due_on = current_step(steps, served_on, appeals)
    if step is None:
        raise ApiError(409, "instances_exhausted", "Todas as instâncias previstas na lei já decidiram.")
    late = due_on is not None and filed_on > due_on
    appeal = AutoAppeal(municipality_id=case.municipality_id, case_id=case.id, level=step["level"],
                        deadline_id=step["id"], instance_pt=step["instance_pt"] or _configured_authority(case),
                        filed_on=filed_on, due_on=due_on, late=late, suspensive=step["suspensive"] and not late,
                        summary=summary)
    db.session.add(appeal)
    db.session.flush()
    record("auto_appeal_file", "auto_appeal", appeal.id, None,
           {"level": appeal.level, "filed_on": filed_on.isoformat(), "due_on": due_on.isoformat() if due_on else None,
            "late": late, "suspensive": appeal.suspensive}, municipality_id=case.municipality_id, actor=actor)
    refresh_penalties(case, local_today())
    db.session.commit()
    return appeal


def _configured_authority(case):
    settings = process_settings(db.session.get(Municipality, case.municipality_id))
    return (settings.get("authority_pt") or "").strip() or "Autoridade não definida em lei (configure)"


def decide_appeal(appeal, decision, text, decided_on, infraction_id=None, actor=None):
    case = db.session.get(AutoCase, appeal.case_id)
    if appeal.decision is not None:
        raise ApiError(409, "already_decided", "Este pedido já foi decidido.")
    if decision not in APPEAL_DECISIONS:
        raise _invalid("decision", "Escolha deferido ou indeferido.")
    text = _text(text, "decision_text")
    decided_on = _date(decided_on, "decided_on")
    if decided_on < appeal.filed_on:
        raise _invalid("decided_on", "A decisão não pode ser anterior ao protocolo.")
    infraction_id = (infraction_id or "").strip() or None
    confirmed = {i["id"] for i in confirmed_infractions(auto_data(case))}
    if infraction_id and infraction_id not in confirmed:
        raise _invalid("infraction_id", "Escolha uma infração deste auto.")
    if infraction_id and decision != "deferido":
        infraction_id = None  # an indeferido covers the whole request
    appeal.decision, appeal.decision_text, appeal.decided_on = decision, text, decided_on
    appeal.decision_infraction_id = infraction_id
    record("auto_appeal_decide", "auto_appeal", appeal.id, {"decision": None},
           {"decision": decision, "decided_on": decided_on.isoformat(), "infraction_id": infraction_id},
           reason=text, municipality_id=case.municipality_id, actor=actor)
    refresh_penalties(case, local_today())
    whole = decision == "deferido" and (infraction_id is None or confirmed == {infraction_id})
    if whole and case.state == "homologado":
        # The operator won on every infraction: the auto itself is void (commits).
        decide(case, "auto_void", f"Recurso deferido ({appeal.instance_pt}): {text}", actor=actor)
        refresh_penalties(case, local_today())
    db.session.commit()
    return appeal


# --- penalties -------------------------------------------------------------------------------------

def _decision_ref(case, reason):
    return f"Auto {case.number}: {reason}"[:120]


def refresh_penalties(case, today):
    """Bring the case's penalties to what the law says on `today`; returns how many changed.
    Idempotent: a second call with the same facts changes nothing."""
    data = auto_data(case)
    items = confirmed_infractions(data) if case.state in ("homologado", "insubsistente") else []
    existing = {p.infraction_id: p for p in AutoPenalty.query.filter_by(case_id=case.id)}
    if case.state == "recebido" or not (items or existing) or (case.state == "insubsistente" and not existing):
        return 0  # a void auto never notified has no penalty to annul
    note = notification_of(case)
    appeals = appeals_of(case)
    steps = steps_for(case) if case.state == "homologado" else []
    permit = permit_for(case, data)
    changed = 0
    for item in items:
        row = existing.get(item["id"])
        if row is None:
            from .notification_content import _infraction
            municipality = db.session.get(Municipality, case.municipality_id)
            info = _infraction(composed_for(municipality), item)
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
            out = outcome(steps, note.served_on if note else None, appeals, today, item["id"])
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
        elif row.applied_penalty_id is not None:
            db.session.get(AppliedPenalty, row.applied_penalty_id).cancelled = True
        if before != out_state:
            record("penalty_state", "auto_penalty", row.id, {"state": before}, {"state": out_state}, reason=reason,
                   municipality_id=case.municipality_id, actor=None)
    return changed


def _apply(case, row, reason):
    """Write (or revive) the AppliedPenalty row the recidivism and escalation rules count."""
    applied = db.session.get(AppliedPenalty, row.applied_penalty_id) if row.applied_penalty_id else None
    if applied is None:
        applied = AppliedPenalty(municipality_id=case.municipality_id, operator_id=row.operator_id,
                                 permit_id=row.permit_id, infraction_id=row.infraction_id, penalty=row.penalty,
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
            .order_by(AppliedPenalty.applied_on, AppliedPenalty.id))
    return [{"infraction": p.infraction_id, "date": p.applied_on.isoformat(), "applied_on": p.applied_on.isoformat(),
             "penalty": p.penalty, "state": "annulled" if p.cancelled else "applied"} for p in rows]


# --- payments and seizures -------------------------------------------------------------------------

def record_payment(case, guia_number, paid_on, amount, actor=None):
    guia_number = _text(guia_number, "guia_number", 1)[:40]
    paid_on = _date(paid_on, "paid_on")
    cents = _money(amount if isinstance(amount, str) else str(amount), "amount")
    if cents is None:
        raise _invalid("amount", "Informe o valor em reais (ex.: 140,46).")
    if not 0 < cents < 10**11:
        raise _invalid("amount", "Informe um valor positivo.")
    payment = AutoPayment(municipality_id=case.municipality_id, case_id=case.id, guia_number=guia_number,
                          paid_on=paid_on, amount_cents=cents)
    db.session.add(payment)
    db.session.flush()
    record("auto_payment", "auto_payment", payment.id, None,
           {"guia": guia_number, "paid_on": paid_on.isoformat(), "amount_cents": cents},
           municipality_id=case.municipality_id, actor=actor)
    db.session.commit()
    return payment


def record_seizure(case, kind, seized_on, actor=None):
    from .process_models import SEIZURE_KINDS
    if kind not in SEIZURE_KINDS:
        raise _invalid("kind", "Escolha apreensão ou remoção.")
    seized_on = _date(seized_on, "seized_on")
    seizure = Seizure(municipality_id=case.municipality_id, case_id=case.id, kind=kind, seized_on=seized_on)
    db.session.add(seizure)
    db.session.flush()
    record("seizure", "seizure", seizure.id, None, {"kind": kind, "seized_on": seized_on.isoformat()},
           municipality_id=case.municipality_id, actor=actor)
    db.session.commit()
    return seizure


# Laws that condition a release, by rule pack: Paranatinga art. 45 § único.
RELEASE_CONDITIONS = {"paranatinga-lei-311-2007"}


def _release_needs_alvara_and_payment(seizure):
    municipality = db.session.get(Municipality, seizure.municipality_id)
    return any(p.get("id") in RELEASE_CONDITIONS for p in composed_for(municipality).packs)


ART45_PT = ("Lei 311/2007, art. 45, parágrafo único: o veículo só será liberado mediante exibição do "
            "alvará e do comprovante de pagamento da multa.")


def release_seizure(seizure, released_on, alvara, payment_id, actor=None):
    """Release of a seized moto: Paranatinga art. 45 § único asks for the alvará and the paid fine;
    the other laws set no condition, so only the date and the document shown are recorded."""
    if seizure.released_on is not None:
        raise ApiError(409, "already_released", "Esta moto já foi liberada.")
    released_on = _date(released_on, "released_on")
    if released_on < seizure.seized_on:
        raise _invalid("released_on", "A liberação não pode ser anterior à apreensão.")
    alvara = (alvara or "").strip()[:60] or None
    payment = None
    if payment_id not in (None, ""):
        try:
            payment = db.session.get(AutoPayment, int(payment_id))
        except (TypeError, ValueError, OverflowError):
            payment = None
        if payment is None or payment.case_id != seizure.case_id:
            raise _invalid("payment_id", "Escolha um pagamento registrado neste auto.")
    if _release_needs_alvara_and_payment(seizure):
        if not alvara:
            raise _invalid("alvara", "Sem o alvará não há liberação. " + ART45_PT)
        if payment is None:
            raise _invalid("payment_id", "Sem o comprovante de pagamento da multa não há liberação. " + ART45_PT)
    seizure.released_on, seizure.release_alvara = released_on, alvara
    seizure.release_payment_id = payment.id if payment else None
    record("seizure_release", "seizure", seizure.id, {"released_on": None},
           {"released_on": released_on.isoformat(), "alvara": alvara, "payment_id": seizure.release_payment_id},
           municipality_id=seizure.municipality_id, actor=actor)
    db.session.commit()
    return seizure



# --- municipal settings the laws leave open ---------------------------------------------------------

SETTING_FIELDS = {
    "authority_pt": "Autoridade que julga a defesa (quando a lei não a indica)",
    "edital_basis_pt": "Ato que autoriza a notificação por edital",
    "removal_fee": "Taxa de remoção (R$)",
    "storage_fee_daily": "Diária do pátio (R$)",
    "source": "Ato que fixou estes valores",
}


# Reais as a clerk types them: "1.234,56", "140,46", "85" (or "140.46"); nothing else.
MONEY_RE = re.compile(r"(\d{1,3}(?:\.\d{3})+|\d{1,9})(?:,(\d{1,2}))?|(\d{1,9})\.(\d{1,2})")


def _money(value, field):
    """Text → cents, or None when empty; 422 naming the field otherwise."""
    text = (value or "").strip() if isinstance(value, str) else ""
    if not text:
        return None
    match = MONEY_RE.fullmatch(text)
    if not match:
        raise _invalid(field, "Informe o valor em reais (ex.: 85,00).")
    whole, fraction = (match[1], match[2]) if match[1] else (match[3], match[4])
    return int(whole.replace(".", "")) * 100 + int((fraction or "0").ljust(2, "0"))


def save_process_settings(municipality, form, actor=None):
    """Municipality.settings["autos"]: values the laws do not set, each shown as configured."""
    values = {}
    for key in ("authority_pt", "edital_basis_pt", "source"):
        text = (form.get(key) or "").strip()
        if len(text) > 300:
            raise _invalid(key, "Use no máximo 300 caracteres.")
        values[key] = text or None
    values["removal_fee_cents"] = _money(form.get("removal_fee"), "removal_fee")
    values["storage_fee_daily_cents"] = _money(form.get("storage_fee_daily"), "storage_fee_daily")
    if (values["removal_fee_cents"] is not None or values["storage_fee_daily_cents"] is not None) and not values["source"]:
        raise _invalid("source", "Informe o ato (decreto, portaria) que fixou as taxas.")
    before = dict(process_settings(municipality))
    settings = dict(municipality.settings or {})
    settings["autos"] = values
    municipality.settings = settings
    record("autos_settings", "municipality", municipality.id, before, values, municipality_id=municipality.id, actor=actor)
    db.session.commit()
    return values


# A reviewer who declares a notified auto void (autos.operations.decide) annuls its penalties in
# the same transaction, not at the next daily run.
from .signals import auto_case_changed  # noqa: E402


@auto_case_changed.connect
def _case_voided(case, old=None, new=None, **_):
    if new == "insubsistente":
        refresh_penalties(case, local_today())
