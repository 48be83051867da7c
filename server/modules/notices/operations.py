"""Notices to the operator: queued in the transaction of the step they tell (receivers of the autos'
and collection's signals, connected in server/subscriptions.py), sent by jobs.py `send_due` (the command
`flask notices send`, run every minute by cron or a systemd timer: docs/operations.md), every try
recorded with the provider's answer, failures retried with growing waits and shown in the back
office ("Avisos"), where a clerk can send one again.

One notice per event and channel (`dedupe_key`): a replayed event never sends twice. A medium the
installation cannot send (no SMTP, no SMS provider) or an operator without an address on record
gives one notice "sem_canal", so the clerk sees that this operator must be told on paper.
An optional notice the operator refused is recorded "recusado", never sent."""
from datetime import timedelta

from flask import current_app
from sqlalchemy import or_, update

from ...core.audit import record
from ...core.clock import isoformat_utc, to_local
from ...core.errors import ApiError
from ...core.tenancy import owned
from ...core.validation import only_digits
from ...extensions import db
from ..autos import process_operations
from ..autos.inputs import form_date
from ..autos.models import AutoCase, utcnow
from ..autos.notification_content import process_settings
from ..autos.notification_pdf import notification_pdf_bytes
from ..autos.operator_filings import step_label, timeliness_pt
from ..autos.outcome import current_step
from ..autos.process_models import APPEAL_DECISIONS, AutoNotification
from ..autos.process_operations import appeals_of, calendar_for_case, steps_for
from ..collection.charges import ensure_charge, slip
from ..collection.penalty_pdf import penalty_pdf_bytes
from ..registry.models import Municipality, Operator
from ..registry.public_address import public_base_url
from ..rules.service import composed_for
from . import compose
from .channels import Outgoing, configured_channels
from .models import CHANNELS, KINDS, NATURES, OPTIONAL_KINDS, STATES, Notice, NoticeAttempt, NoticeContact

# Waits before the next try after 1, 2, … failures; after the last one, "desistiu" (shown).
RETRY_WAITS = (timedelta(minutes=2), timedelta(minutes=15), timedelta(hours=1), timedelta(hours=6),
               timedelta(hours=24))
STALE_CLAIM = timedelta(minutes=10)  # a sender that died mid-send: the notice is tried again


# --- contacts --------------------------------------------------------------------------------------

def contact_of(operator_id, municipality_id):
    return NoticeContact.query.filter_by(operator_id=operator_id, municipality_id=municipality_id).first()


def _invalid(field, message):
    return ApiError(422, "validation_error", "Dados inválidos.", {field: [message]})


def normalize_mobile(text):
    digits = only_digits(text or "")
    if not digits:
        return None
    if digits.startswith("55") and len(digits) == 13:
        digits = digits[2:]
    if len(digits) != 11 or digits[2] != "9":
        raise _invalid("mobile", "Celular com DDD e nove dígitos (ex.: 65 99999-0000).")
    return "+55" + digits


def save_contact(operator, form, actor=None):
    """The back office records where the operator wants to be told (and their adhesion to
    electronic service, with the term's reference). Audited (field names, never the addresses)."""
    email = " ".join((form.get("email") or "").split()).lower() or None
    if email and (len(email) > 254 or "@" not in email or "." not in email.rsplit("@", 1)[-1] or " " in email):
        raise _invalid("email", "E-mail inválido.")
    mobile = normalize_mobile(form.get("mobile"))
    sms, whatsapp = form.get("sms") in ("1", "on"), form.get("whatsapp") in ("1", "on")
    if (sms or whatsapp) and not mobile:
        raise _invalid("mobile", "Informe o celular para SMS ou WhatsApp.")
    adhered = form.get("adhered_on") or None
    ref = " ".join((form.get("adhesion_ref") or "").split()) or None
    if adhered:
        adhered = form_date(adhered, "adhered_on")
        if not ref:
            raise _invalid("adhesion_ref", "Informe o termo de adesão assinado pelo operador (número ou arquivo).")
        if not email and not mobile:
            raise _invalid("email", "A adesão à intimação eletrônica precisa de um endereço.")
    contact = contact_of(operator.id, operator.municipality_id)
    before = None if contact is None else _contact_snapshot(contact)
    if contact is None:
        contact = NoticeContact(municipality_id=operator.municipality_id, operator_id=operator.id)
        db.session.add(contact)
    contact.email, contact.mobile, contact.sms, contact.whatsapp = email, mobile, sms, whatsapp
    contact.adhered_on, contact.adhesion_ref = adhered, (ref[:200] if ref else None)
    contact.optional_opt_out = form.get("optional_opt_out") in ("1", "on")
    contact.updated_at = utcnow()
    db.session.flush()
    record("notice_contact", "notice_contact", contact.id, before, _contact_snapshot(contact),
           municipality_id=operator.municipality_id, actor=actor)
    return contact


def _contact_snapshot(contact):
    # Which addresses exist, never the addresses themselves (the audit log outlives them: LGPD).
    return {"email": bool(contact.email), "mobile": bool(contact.mobile), "sms": contact.sms,
            "whatsapp": contact.whatsapp, "adhered_on": contact.adhered_on.isoformat() if contact.adhered_on else None,
            "optional_opt_out": contact.optional_opt_out}


def set_optional_opt_out(user, opt_out, actor=None):
    """The operator, in the app: refuse (or accept again) the optional notices."""
    contact = contact_of(user.operator_id, user.municipality_id)
    if contact is None:
        contact = NoticeContact(municipality_id=user.municipality_id, operator_id=user.operator_id)
        db.session.add(contact)
    before = contact.optional_opt_out
    contact.optional_opt_out, contact.updated_at = bool(opt_out), utcnow()
    db.session.flush()
    record("notice_preferences", "notice_contact", contact.id, {"optional_opt_out": before},
           {"optional_opt_out": contact.optional_opt_out}, municipality_id=user.municipality_id, actor=actor or user)
    return contact


def forget_addresses(operator):
    """LGPD (lgpd/anonymise.py): the addresses go; the record that notices were sent stays."""
    contact = contact_of(operator.id, operator.municipality_id)
    if contact is not None:
        contact.email = contact.mobile = contact.adhesion_ref = None
        contact.sms = contact.whatsapp = False
    (Notice.query.filter(Notice.operator_id == operator.id, Notice.municipality_id == operator.municipality_id,
                         Notice.address.is_not(None))
     .update({Notice.address: None}, synchronize_session=False))


# --- queueing --------------------------------------------------------------------------------------

def electronic_service(municipality, contact):
    """(act, contact) when the notificação sent to this contact is an intimação, else None: a
    recorded municipal act admitting electronic service, and the operator's adhesion on record."""
    act = (process_settings(municipality).get("electronic_service_act") or "").strip()
    if act and contact is not None and contact.adhered_on and (contact.email or contact.mobile):
        return act
    return None


def enqueue(case, operator_id, kind, words, dedupe_key, intimation_act=None):
    """Queue `words` to every channel the operator can be told on (caller commits)."""
    if operator_id is None:
        return []
    if Notice.query.filter_by(municipality_id=case.municipality_id, dedupe_key=dedupe_key).first() is not None:
        return []  # this event was already queued
    contact = contact_of(operator_id, case.municipality_id)
    optional = kind in OPTIONAL_KINDS
    municipality = db.session.get(Municipality, case.municipality_id)
    nature = "intimacao" if intimation_act else "aviso"
    adhesion = (contact.adhered_on, contact.adhesion_ref) if contact is not None else (None, None)
    footer = (compose.intimacao_pt(intimation_act, *adhesion) if intimation_act else compose.AVISO_PT)
    base = {"municipality_id": case.municipality_id, "operator_id": operator_id, "case_id": case.id, "kind": kind,
            "nature": nature, "nature_basis": intimation_act, "optional": optional, "dedupe_key": dedupe_key,
            "subject": words.subject[:200], "link": words.link, "attachment": words.attachment}
    text = f"{words.text}\n\n{footer}\n{compose.LGPD_PT}"
    rows = []
    if optional and contact is not None and contact.optional_opt_out:
        rows.append(Notice(**base, channel="nenhum", body=text, state="recusado"))
    else:
        channels = configured_channels(current_app.config)
        targets = []
        if contact is not None:
            if contact.email and "email" in channels:
                targets.append(("email", contact.email, text))
            short = f"{words.short} ({NATURES[nature]})"
            if contact.mobile and contact.sms and "sms" in channels:
                targets.append(("sms", contact.mobile, short))
            if contact.mobile and contact.whatsapp and "whatsapp" in channels:
                targets.append(("whatsapp", contact.mobile, short))
        for medium, address, body in targets:
            rows.append(Notice(**base, channel=medium, address=address, body=body, state="pendente",
                               next_attempt_at=utcnow()))
        if not rows:
            rows.append(Notice(**base, channel="nenhum", body=text, state="sem_canal",
                               provider_answer=_why_no_channel(contact, channels, municipality)))
    for row in rows:
        db.session.add(row)
    db.session.flush()
    return rows


def _why_no_channel(contact, channels, municipality):
    if contact is None or not (contact.email or contact.mobile):
        return "Operador sem e-mail ou celular para avisos no cadastro: comunique por outro meio."
    return ("Este servidor não envia pelos canais do operador (configure o SMTP ou um provedor de SMS/WhatsApp): "
            "comunique por outro meio.")


def _base_url(municipality):
    """The municipality's public address (registry.public_address), for the links in its notices."""
    return public_base_url(municipality)


# --- receivers of the process's signals (in the sender's transaction; never commit) -----------------

def on_notification_issued(case, note=None, **_):
    municipality = db.session.get(Municipality, case.municipality_id)
    operator_id = case.record.operator_id
    contact = contact_of(operator_id, case.municipality_id) if operator_id else None
    words = compose.notificacao(note, municipality, _base_url(municipality))
    enqueue(case, operator_id, "notificacao", words, f"notificacao:{note.id}",
            intimation_act=electronic_service(municipality, contact))


def on_appeal_filed(case, appeal=None, **_):
    municipality = db.session.get(Municipality, case.municipality_id)
    words = compose.recibo(case, appeal, step_label(case, appeal), timeliness_pt(appeal), municipality, _base_url(municipality))
    enqueue(case, case.record.operator_id, "recibo", words, f"recibo:{appeal.id}")


def on_appeal_decided(case, appeal=None, **_):
    municipality = db.session.get(Municipality, case.municipality_id)
    label = step_label(case, appeal)
    if appeal.decision == "deferido":
        next_pt = "O pedido foi atendido: a penalidade correspondente fica anulada."
    else:
        next_pt = ("Se a lei prevê outra instância, o prazo para recorrer aparece no aplicativo; conta da ciência "
                   "desta decisão registrada pela Prefeitura.")
    words = compose.decisao(case, appeal, label, APPEAL_DECISIONS.get(appeal.decision, appeal.decision), next_pt,
                            municipality, _base_url(municipality))
    enqueue(case, case.record.operator_id, "decisao", words, f"decisao:{appeal.id}")


def on_penalty_changed(case, penalty=None, old=None, new=None, **_):
    if new != "aplicada" or penalty is None:
        return
    municipality = db.session.get(Municipality, case.municipality_id)
    infraction = composed_for(municipality).by_id.get(penalty.infraction_id) or {}
    charge = ensure_charge(case, penalty)
    slips = [slip(charge)] if charge is not None else []
    words = compose.penalidade(case, infraction.get("label_pt") or penalty.infraction_id, penalty, slips,
                               municipality, _base_url(municipality))
    enqueue(case, penalty.operator_id or case.record.operator_id, "penalidade", words,
            f"penalidade:{penalty.id}:{penalty.applied_on.isoformat() if penalty.applied_on else ''}")


def on_charge_paid(charge, payment=None, **_):
    case = owned(AutoCase, charge.case_id, charge.municipality_id)
    municipality = db.session.get(Municipality, charge.municipality_id)
    enqueue(case, case.record.operator_id, "pagamento", compose.pagamento(case, charge, municipality, _base_url(municipality)),
            f"pagamento:{charge.id}")


def deadline_reminders(today, days_before=3):
    """Optional notices: a defence or appeal deadline ending within `days_before` days, with no
    timely filing at its instance yet. One per case, instance and due date (idempotent)."""
    queued = 0
    served = AutoNotification.query.filter(AutoNotification.served_on.is_not(None)).order_by(AutoNotification.id)
    for note in served:
        case = owned(AutoCase, note.case_id, note.municipality_id)
        if case is None or case.state != "homologado":
            continue
        steps = steps_for(case)
        appeals = appeals_of(case)
        step, due_on = current_step(steps, note.served_on, appeals, calendar_for_case(case)) if steps else (None, None)
        if step is None or due_on is None or not 0 <= (due_on - today).days <= days_before:
            continue
        if any(a.level == step["level"] and not a.late for a in appeals):
            continue
        municipality = db.session.get(Municipality, case.municipality_id)
        queued += len(enqueue(case, case.record.operator_id, "prazo",
                              compose.prazo(case, step, due_on, municipality, _base_url(municipality)),
                              f"prazo:{case.id}:{step['level']}:{due_on.isoformat()}"))
    return queued


# --- sending (one notice at a time; the sender's loop and its units: jobs.py `send_due`) -----------

def due_notices(now, limit):
    """[(id, state)] of the notices due at `now`, oldest first: waiting or failed ones whose
    next try has come, and claims left by a sender that died mid-send (STALE_CLAIM)."""
    return (db.session.query(Notice.id, Notice.state).filter(or_(
        Notice.state.in_(("pendente", "falhou")) & (Notice.next_attempt_at <= now),
        (Notice.state == "enviando") & (Notice.claimed_at < now - STALE_CLAIM)))
        .order_by(Notice.next_attempt_at, Notice.id).limit(limit).all())


def claim(notice_id, state, now):
    """Mark the notice "enviando" if it is still in `state`: a conditional UPDATE, so of two
    senders (two servers' cron) only one wins. Whether this sender won; the caller commits the
    claim before sending, so the other sender sees it."""
    claimed = db.session.execute(update(Notice).where(Notice.id == notice_id, Notice.state == state)
                                 .values(state="enviando", claimed_at=now)
                                 .execution_options(synchronize_session=False))
    return claimed.rowcount == 1


def send_claimed(notice_id, channels, now):
    """Send a notice this sender claimed and record the try and its answer → "sent", "failed"
    (retried later) or "gave_up"."""
    notice = db.session.get(Notice, notice_id, populate_existing=True)
    return _send_one(notice, channels.get(notice.channel), now)


def _attachments(notice):
    kind, _, ident = (notice.attachment or "").partition(":")
    if kind == "notification":
        note = owned(AutoNotification, int(ident), notice.municipality_id)
        return [(f"notificacao-{note.serial}.pdf", "application/pdf", notification_pdf_bytes(note))] if note else []
    if kind == "penalty":
        case = owned(AutoCase, int(ident), notice.municipality_id)
        return [(f"notificacao-penalidade-{case.number or case.id}.pdf", "application/pdf",
                 penalty_pdf_bytes(case))] if case else []
    return []


def _send_one(notice, channel, now):
    if channel is None:
        answer_ok, provider, answer, permanent = False, "nenhum", "Canal não configurado neste servidor.", True
    else:
        provider = channel.provider
        try:
            message = Outgoing(to=notice.address, subject=notice.subject, text=notice.body, link=None,
                               attachments=_attachments(notice) if notice.channel == "email" else [])
            result = channel.send(message)
            answer_ok, answer, permanent = result.ok, result.answer, result.permanent
        except Exception as exc:  # noqa: BLE001 — a network error, a provider down: transient, retried
            answer_ok, answer, permanent = False, f"{type(exc).__name__}: {exc}"[:500], False
    notice.attempts += 1
    notice.provider, notice.provider_answer, notice.claimed_at = provider, answer[:500], None
    db.session.add(NoticeAttempt(municipality_id=notice.municipality_id, notice_id=notice.id, at=now, ok=answer_ok,
                                 provider=provider[:60], answer=answer[:500]))
    if answer_ok:
        notice.state, notice.sent_at, notice.next_attempt_at = "enviado", now, None
        return "sent"
    if permanent or notice.attempts > len(RETRY_WAITS):
        notice.state, notice.next_attempt_at = "desistiu", None
        return "gave_up"
    notice.state, notice.next_attempt_at = "falhou", now + RETRY_WAITS[notice.attempts - 1]
    return "failed"


def retry(notice, actor=None):
    """A clerk sends a failed notice again (after fixing the address or the server)."""
    if notice.state not in ("falhou", "desistiu", "sem_canal"):
        raise ApiError(409, "not_failed", "Só um aviso que falhou ou não teve canal é reenviado.")
    contact = contact_of(notice.operator_id, notice.municipality_id)
    if notice.state == "sem_canal" or notice.channel == "nenhum":
        raise ApiError(409, "no_channel", "Cadastre um e-mail ou celular do operador: os próximos avisos irão a ele. "
                                          "Este registro fica como prova de que não havia canal.")
    if notice.channel == "email" and contact is not None and contact.email:
        notice.address = contact.email  # the address as corrected since
    before = notice.state
    notice.state, notice.next_attempt_at = "pendente", utcnow()
    record("notice_retry", "notice", notice.id, {"state": before}, {"state": "pendente"},
           municipality_id=notice.municipality_id, actor=actor)
    return notice


# --- the operator's view ----------------------------------------------------------------------------

def notice_view(notice):
    return {"id": notice.id, "kind": notice.kind, "kind_pt": KINDS.get(notice.kind, notice.kind),
            "nature": notice.nature, "nature_pt": NATURES.get(notice.nature, notice.nature),
            "channel": notice.channel, "channel_pt": CHANNELS.get(notice.channel, notice.channel),
            "state": notice.state, "state_pt": STATES.get(notice.state, notice.state), "subject": notice.subject,
            "body": notice.body, "created_at": isoformat_utc(notice.created_at) if notice.created_at else None,
            "sent_at": isoformat_utc(notice.sent_at) if notice.sent_at else None,
            "read_at": isoformat_utc(notice.read_at) if notice.read_at else None,
            "acknowledge": notice.nature == "intimacao" and notice.kind == "notificacao" and notice.read_at is None}


def operator_sections(user, **_):
    """autos.signals.operator_auto_sections receiver: {"notices": {auto record id: [notice…]}}: one per
    event (the e-mail's copy when there was one), newest first."""
    if user.operator_id is None:
        return {"notices": {}}
    rows = (db.session.query(Notice, AutoCase.record_id)
            .join(AutoCase, (AutoCase.id == Notice.case_id) & (AutoCase.municipality_id == Notice.municipality_id))
            .filter(Notice.municipality_id == user.municipality_id, Notice.operator_id == user.operator_id)
            .order_by(Notice.created_at.desc(), Notice.id.desc()).all())
    out, seen = {}, set()
    for notice, record_id in rows:
        if notice.dedupe_key in seen:
            continue
        seen.add(notice.dedupe_key)
        out.setdefault(record_id, []).append(notice_view(notice))
    return {"notices": out}


def acknowledge(user, notice_id):
    """The operator opened a notice in the app (read_at). For an intimação of the notificação de
    autuação, this is the ciência: the service is recorded (via "eletronica") on today's date."""
    notice = owned(Notice, notice_id, user.municipality_id)
    if notice is None or notice.operator_id != user.operator_id:
        raise ApiError(404, "not_found")
    if notice.read_at is not None:
        return notice
    same = Notice.query.filter_by(municipality_id=notice.municipality_id, dedupe_key=notice.dedupe_key).all()
    now = utcnow()
    for row in same:
        row.read_at = now
    record("notice_read", "notice", notice.id, {"read_at": None}, {"read_at": now.isoformat(), "nature": notice.nature},
           municipality_id=notice.municipality_id, actor=user)
    if notice.nature == "intimacao" and notice.kind == "notificacao" and notice.case_id:
        case = owned(AutoCase, notice.case_id, notice.municipality_id)
        note = process_operations.notification_of(case)
        if note is not None and note.served_on is None:
            process_operations.record_service(case, "eletronica", to_local(now).date().isoformat(),
                                              f"Ciência confirmada no aplicativo (aviso nº {notice.id}; "
                                              f"{notice.nature_basis})", actor=user)
    return notice


def contact_view(user):
    contact = contact_of(user.operator_id, user.municipality_id)
    municipality = db.session.get(Municipality, user.municipality_id)
    act = electronic_service(municipality, contact)
    channels = configured_channels(current_app.config)
    return {"email": _masked_email(contact.email) if contact and contact.email else None,
            "mobile": f"(**) *****-{contact.mobile[-4:]}" if contact and contact.mobile else None,
            "channels": [CHANNELS[m] for m in ("email", "sms", "whatsapp") if m in channels],
            "optional_opt_out": bool(contact and contact.optional_opt_out),
            "intimacao": act,
            "lgpd_pt": compose.LGPD_PT,
            "retention_pt": RETENTION_PT}


RETENTION_PT = ("Cada aviso enviado fica registrado (o quê, para qual endereço, quando e a resposta do provedor) "
                "enquanto se guardam os autos do processo (prazo de retenção da Prefeitura); os endereços de e-mail "
                "e celular são apagados quando o cadastro é anonimizado.")


def _masked_email(email):
    user, _, domain = email.partition("@")
    return f"{user[:2]}{'*' * max(len(user) - 2, 1)}@{domain}"


def kinds_for_screen():
    return KINDS


def operator_for_contact(operator_id, municipality_id):
    return owned(Operator, operator_id, municipality_id)
