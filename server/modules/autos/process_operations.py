"""Every step of an auto's process after homologation: the notificação, its service (ciência),
defences and appeals, their decisions and the ciência of each decision. Each audited, in the
caller's transaction; each brings the case's penalties up to date (penalties.py, which also reads
where the process stands). Payments and seizures are in payments.py, the municipal settings in
process_settings.py; callers reach every operation of the process through this module."""
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError

from ...core.audit import record
from ...core.signals import announce
from ...core.clock import local_today, to_local
from ...core.errors import ApiError
from ...core.tenancy import owned
from ...extensions import db
from ..credentials import keys as keystore
from ..credentials import signing
from ..credentials.operations import active_key
from ..registry.models import Municipality
from ..registry.public_address import public_base_url
from ..rules.service import composed_for
from . import notification as codec
from .auto_data import auto_data, confirmed_infractions
from ..calendar.service import move_stored_days
from .instances import due, instances
from .models import AutoCase, utcnow
from .notification_content import authority, build_content, deadline_source, infraction_date, process_settings
from .operations import decide
from .signals import appeal_decided, appeal_filed, notification_issued
from .outcome import current_step
from .inputs import form_date, invalid_field, form_text
from .process_models import APPEAL_DECISIONS, DECISION_SERVICE_WAYS, SERVICE_WAYS, AutoAppeal, AutoNotification
# Where the process stands and its penalties, payments and seizures, the municipal settings: each
# in its own module, reached through this one too.
from .penalties import (appeals_of, calendar_for_case, case_voided, notification_of,  # noqa: F401
                        refresh_penalties, server_history, steps_for)
from .payments import (record_fee_payment, record_payment, record_seizure, release_seizure,  # noqa: F401
                       seizure_law, seizure_statement)
from .process_settings import SETTING_FIELDS, fee_settings, save_process_settings  # noqa: F401


def steps_for_municipality(municipality):
    return instances(composed_for(municipality), local_today())


def described_steps(municipality, steps):
    """The steps as the screens show them, read from what was configured: the authority (the law's,
    else the municipality's setting) and the source of the days (the article that fixes them, else
    the act recorded when the municipality configured them)."""
    settings = process_settings(municipality)
    sources = (municipality.settings or {}).get("rules_sources") or {}
    out = []
    for step in steps:
        text, source = authority(step, settings)
        out.append({**step, "authority_shown": text, "authority_from_law": source == "lei",
                    "authority_configured": source != "lei" and source != "configuração municipal ausente",
                    "source_pt": deadline_source(step, sources) if step["days"] is not None else step["citation_pt"],
                    "configured_act": sources.get(f"deadlines:{step['config_key']}") if step.get("config_key") else None})
    return out


# --- notification --------------------------------------------------------------------------------

def issue_notification(case, actor=None, attempts=3):
    """The notificação of a homologated auto; issued once, then re-printed from the same row.
    Two clerks issuing at once collide on the (municipality, serial) or case key: the loser
    retries and, for the same case, gets the winner's notification."""
    case_id = case.id
    for attempt in range(attempts):
        try:
            # A SAVEPOINT: the loser undoes only its own attempt, not what its request staged before.
            with db.session.begin_nested():
                return _issue_notification_once(case, actor)
        except IntegrityError:
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
    signature = signing.sign(keystore.load_private_key(key), body)
    note = AutoNotification(municipality_id=municipality.id, case_id=case.id, serial=serial,
                            number=f"NOT-{case.number or case.id}", issued_at=now,
                            issued_by_id=getattr(actor, "id", None), content=content, content_hash=digest,
                            issuer_key_id=key.id,
                            payload=codec.payload(body, signature, public_base_url(municipality)))
    db.session.add(note)
    db.session.flush()
    record("auto_notification_issue", "auto_notification", note.id, None,
           {"number": note.number, "serial": serial, "content_hash": digest, "kid": key.kid},
           municipality_id=municipality.id, actor=actor)
    announce(notification_issued, case, note=note)
    return note


def _check_notifiable(municipality, steps):
    """A notification without the defence deadline or the authority that decides would be void
    (Sapezal art. 28 VI asks for the deadline and fixes none): refuse, saying what to configure."""
    first = steps[0] if steps else None
    if first is None:
        return  # the law provides no defence instance: nothing to print (said on the document)
    if first["days"] is None:
        raise ApiError(409, "deadline_not_configured",
                       f"Prazo de defesa não definido em lei ({first['citation_pt']}): configure-o, com o ato "
                       f"que o fixa, em Prazos e autoridades — “{first['label_pt']}” — antes de notificar.")
    if not first.get("instance_pt") and not (process_settings(municipality).get("authority_pt") or "").strip():
        raise ApiError(409, "authority_not_configured",
                       "A lei não indica a autoridade que julga a defesa: configure-a em Prazos e "
                       "autoridades antes de notificar.")


def record_service(case, via, served_on, note_text=None, actor=None):
    """How and when the operator learnt of the auto: the day every deadline counts from."""
    note = notification_of(case)
    if note is None:
        raise ApiError(409, "not_notified", "Emita a notificação antes de registrar a ciência.")
    if note.served_on is not None:
        raise ApiError(409, "already_served", "A ciência já foi registrada; ela não se altera.")
    if via not in SERVICE_WAYS:
        raise invalid_field("via", "Escolha como o autuado foi notificado.")
    data = auto_data(case)
    signatures = data.get("signatures") if isinstance(data.get("signatures"), dict) else {}
    if via == "assinatura_local":
        if not signatures.get("operator"):
            raise invalid_field("via", "O autuado não assinou o auto no local (recusa ou sem assinatura): "
                                  "use outra forma de notificação.")
        served_on = infraction_date(case, data)
    elif via == "eletronica":
        settings = process_settings(db.session.get(Municipality, case.municipality_id))
        if not (settings.get("electronic_service_act") or "").strip():
            raise invalid_field("via", "Nenhum ato municipal admite a intimação eletrônica: registre-o em Prazos e "
                                  "autoridades antes de usá-la.")
        served_on = form_date(served_on, "served_on")
    elif via == "edital":
        settings = process_settings(db.session.get(Municipality, case.municipality_id))
        if not (settings.get("edital_basis_pt") or "").strip():
            raise invalid_field("via", "A lei municipal não prevê notificação por edital; só com o ato que a "
                                  "autorize registrado na configuração do processo.")
        served_on = form_date(served_on, "served_on")
    else:
        served_on = form_date(served_on, "served_on")
    if via in ("postal_ar", "edital", "eletronica"):
        form_text(note_text, "note", 3)  # AR number / edital's publication
    if served_on < to_local(note.issued_at).date() and via != "assinatura_local":
        raise invalid_field("served_on", "A ciência não pode ser anterior à emissão da notificação.")
    before = {"served_via": None, "served_on": None}
    note.served_via, note.served_on = via, served_on
    note.served_note = (note_text or "").strip() or None
    note.served_recorded_at = utcnow()
    record("auto_service", "auto_notification", note.id, before,
           {"served_via": via, "served_on": served_on.isoformat(), "note": note.served_note},
           municipality_id=case.municipality_id, actor=actor)
    refresh_penalties(case, local_today())
    return note


# --- defence and appeals ---------------------------------------------------------------------------

def file_appeal(case, filed_on, summary, actor=None):
    """A defence or appeal protocolled at the counter: the clerk types the protocol's date."""
    if case.state != "homologado":
        raise ApiError(409, "not_homologated", "Só cabe defesa ou recurso num auto homologado e não anulado.")
    filed_on = form_date(filed_on, "filed_on")
    summary = form_text(summary, "summary")
    return protocol_filing(case, filed_on, summary, actor=actor)


def protocol_filing(case, filed_on, summary, actor=None, **origin):
    """Protocol a filing: the instance the law gives now (outcome.current_step),
    its due date on the legal calendar from the right start, tempestiva or not. A filing after the
    due date is received and marked intempestiva, never refused (the administration must see it
    and may review its own act: Lei 9.784/1999 art. 63 § 2º, STF Súmula 473). `origin`: the app's
    columns (source, received_at, client_id, content_hash, attachments, drafted_at)."""
    steps = steps_for(case)
    if not steps:
        raise ApiError(409, "no_instance", "A lei não prevê instância de defesa ou recurso.")
    note = notification_of(case)
    served_on = note.served_on if note else None
    appeals = appeals_of(case)
    step, due_on = current_step(steps, served_on, appeals, calendar_for_case(case))
    if step is None:
        raise ApiError(409, "instances_exhausted", "Todas as instâncias previstas na lei já decidiram.")
    late = due_on is not None and filed_on > due_on
    seq = _next_protocol_seq(case.municipality_id)
    received_at = origin.pop("received_at", None) or utcnow()
    appeal = AutoAppeal(municipality_id=case.municipality_id, case_id=case.id, level=step["level"],
                        deadline_id=step["id"], instance_pt=step["instance_pt"] or _configured_authority(case),
                        filed_on=filed_on, due_on=due_on, late=late, suspensive=step["suspensive"] and not late,
                        summary=summary, protocol_seq=seq, protocol=f"{to_local(received_at).year}/{seq:06d}",
                        received_at=received_at, filed_by_id=getattr(actor, "id", None), **origin)
    db.session.add(appeal)
    db.session.flush()
    record("auto_appeal_file", "auto_appeal", appeal.id, None,
           {"level": appeal.level, "filed_on": filed_on.isoformat(), "due_on": due_on.isoformat() if due_on else None,
            "late": late, "suspensive": appeal.suspensive, "protocol": appeal.protocol, "filed_via": appeal.source},
           municipality_id=case.municipality_id, actor=actor)
    refresh_penalties(case, local_today())
    announce(appeal_filed, case, appeal=appeal)
    return appeal


def _next_protocol_seq(municipality_id):
    """Next protocol number of the municipality; two filings at once collide on the unique key
    (municipality, seq) and the loser's caller retries (operator_filings.push)."""
    return (db.session.query(func.max(AutoAppeal.protocol_seq))
            .filter_by(municipality_id=municipality_id).scalar() or 0) + 1


def _configured_authority(case):
    settings = process_settings(db.session.get(Municipality, case.municipality_id))
    return (settings.get("authority_pt") or "").strip() or "Autoridade não definida em lei (configure)"


def decide_appeal(appeal, decision, text, decided_on, infraction_id=None, actor=None):
    case = owned(AutoCase, appeal.case_id, appeal.municipality_id)
    if appeal.decision is not None:
        raise ApiError(409, "already_decided", "Este pedido já foi decidido.")
    if decision not in APPEAL_DECISIONS:
        raise invalid_field("decision", "Escolha deferido ou indeferido.")
    text = form_text(text, "decision_text")
    decided_on = form_date(decided_on, "decided_on")
    if decided_on < appeal.filed_on:
        raise invalid_field("decided_on", "A decisão não pode ser anterior ao protocolo.")
    infraction_id = (infraction_id or "").strip() or None
    confirmed = {i["id"] for i in confirmed_infractions(auto_data(case))}
    if infraction_id and infraction_id not in confirmed:
        raise invalid_field("infraction_id", "Escolha uma infração deste auto.")
    if infraction_id and decision != "deferido":
        infraction_id = None  # an indeferido covers the whole request
    appeal.decision, appeal.decision_text, appeal.decided_on = decision, text, decided_on
    appeal.decision_infraction_id = infraction_id
    record("auto_appeal_decide", "auto_appeal", appeal.id, {"decision": None},
           {"decision": decision, "decided_on": decided_on.isoformat(), "infraction_id": infraction_id},
           reason=text, municipality_id=case.municipality_id, actor=actor)
    refresh_penalties(case, local_today())
    announce(appeal_decided, case, appeal=appeal)
    whole = decision == "deferido" and (infraction_id is None or confirmed == {infraction_id})
    if whole and case.state == "homologado":
        # The operator won on every infraction: the auto itself is void.
        decide(case, "auto_void", f"Recurso deferido ({appeal.instance_pt}): {text}", actor=actor)
        refresh_penalties(case, local_today())
    return appeal


def record_decision_service(appeal, via, known_on, note_text=None, actor=None):
    """When the operator learnt of a decision (its ciência): the day the next instance's period
    runs from (Paranatinga art. 48: "Da nova decisão, caberá recurso ao Sr. Prefeito Municipal,
    observando o mesmo prazo", 3 days "a contar do recebimento da notificação"). By notificação of
    the decision (hand delivery), its AR's receipt date, or its publication; audited; not changed
    once recorded (as the auto's own ciência)."""
    case = owned(AutoCase, appeal.case_id, appeal.municipality_id)
    if appeal.decision is None:
        raise ApiError(409, "not_decided", "Registre a decisão antes da ciência dela.")
    if appeal.decision_known_on is not None:
        raise ApiError(409, "already_served", "A ciência desta decisão já foi registrada; ela não se altera.")
    if via not in DECISION_SERVICE_WAYS:
        raise invalid_field("decision_known_via", "Escolha como o autuado teve ciência da decisão.")
    known_on = form_date(known_on, "decision_known_on")
    if known_on < appeal.decided_on:
        raise invalid_field("decision_known_on", "A ciência não pode ser anterior à decisão.")
    note = (note_text or "").strip() or None
    if via in ("postal_ar", "publicacao") and not note:
        raise invalid_field("decision_known_note", "Informe o número do AR ou onde a decisão foi publicada.")
    appeal.decision_known_on, appeal.decision_known_via, appeal.decision_known_note = known_on, via, note
    record("auto_decision_service", "auto_appeal", appeal.id, {"decision_known_on": None},
           {"decision_known_on": known_on.isoformat(), "decision_known_via": via, "note": note},
           municipality_id=case.municipality_id, actor=actor)
    refresh_penalties(case, local_today())
    return appeal


def move_appeal_dues(municipality, closed_day):
    """The calendar's closure_added receiver (server/subscriptions.py), inside its transaction: each
    filing's stored `due_on` on or after the closed day is counted again from its start (the
    auto's ciência, or the ciência of the previous decision) on the new calendar; when the closure
    moved it later, the filing keeps the later day — and one filed by then is no longer
    intempestiva (the office was closed on what had been its last day: CC art. 132 § 1º, Lei
    9.784/1999 art. 66 § 1º). Audited; the case's penalties brought up to date. Returns the count."""
    rows = (AutoAppeal.query.filter(AutoAppeal.municipality_id == municipality.id, AutoAppeal.due_on >= closed_day)
            .order_by(AutoAppeal.case_id, AutoAppeal.level, AutoAppeal.id).all())

    found = {}  # appeal id → (case, step), as recount read them: move acts on the same

    def recount(appeal, cal):
        case = owned(AutoCase, appeal.case_id, appeal.municipality_id)
        step = next((s for s in steps_for(case) if s["level"] == appeal.level), None)
        found[appeal.id] = (case, step)
        start = _start_of_level(case, appeal.level)
        return None if step is None or start is None else due(cal, start, step)

    def move(appeal, new_due):
        case, step = found[appeal.id]
        before = {"due_on": appeal.due_on.isoformat(), "late": appeal.late, "suspensive": appeal.suspensive}
        appeal.due_on = new_due
        if appeal.late and appeal.filed_on <= new_due:
            appeal.late, appeal.suspensive = False, bool(step["suspensive"])
        record("auto_appeal_due_moved", "auto_appeal", appeal.id, before,
               {"due_on": new_due.isoformat(), "late": appeal.late, "suspensive": appeal.suspensive},
               reason=f"Dia sem expediente registrado ({closed_day:%d/%m/%Y}): prazo até {new_due:%d/%m/%Y} "
                      "(Código Civil, art. 132, § 1º; Lei 9.784/1999, art. 66, § 1º)",
               municipality_id=municipality.id)
        refresh_penalties(case, local_today())

    return move_stored_days(municipality, rows, recount, lambda appeal: appeal.due_on, move)


def _start_of_level(case, level):
    """The day an instance's period starts: the auto's ciência for the first, the ciência of the
    previous level's decision for the next (None while unknown)."""
    if level == 1:
        note = notification_of(case)
        return note.served_on if note else None
    previous = [a for a in appeals_of(case) if a.level == level - 1 and a.decision == "indeferido" and not a.late]
    return previous[0].decision_known_on if previous else None
