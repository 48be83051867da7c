"""What the operator sees of their autos: the API list and the public page behind the QR the
fiscal shows at the roadside (routes in public_views.py). Minimal data: no names, no CPF, nothing
the link holder does not already know from the paper copy. Read from fieldsync's signed records
and this package's case and process."""
import hashlib
import json

from sqlalchemy import select

from ...core.clock import isoformat_utc
from ...core.clock import timezone as local_tz, to_local
from ...core.signals import gather
from ...core.tenancy import owned
from ...extensions import db
from ..fieldsync.models import FieldRecord
from ..fieldsync.schemas import TOKEN_RE
from ..registry.models import Municipality
from ..registry.vocabulary import vocabulary
from ..rules.citations import format_citation
from ..rules.service import composed_for
from .auto_data import amount_brl, municipal_infractions
from .instances import due, instances
from .notification_content import STEP_WORDS
from .models import AutoCase
from .operator_filings import receipt
from .outcome import current_step
from .process_models import APPEAL_DECISIONS
from .process_operations import appeals_of, calendar_for_case, notification_of, steps_for
from .signals import operator_auto_sections
from .views import CASE_STATE_PT


def _body(record):
    try:
        body = json.loads(record.body)
    except ValueError:  # cannot happen for accepted records; never fail a page over it
        return {}
    return body if isinstance(body, dict) else {}


def _inspection_body(record):
    if not record.inspection_id:
        return {}
    inspection = owned(FieldRecord, record.inspection_id, record.municipality_id)
    if inspection is None:
        return {}
    return _body(inspection)


def _confirmed(municipality, body):
    """The confirmed infractions of the municipal auto: a CTB/SNT one an older phone put in the
    body is the traffic authority's, never the operator's municipal auto (issue 34, item 2)."""
    items = body.get("infractions") if isinstance(body.get("infractions"), list) else []
    return [i for i in municipal_infractions(municipality, items) if i.get("decision", "confirmed") == "confirmed"]


def _cancel_requested(record):
    return db.session.execute(select(FieldRecord.id).where(
        FieldRecord.kind == "cancel_request", FieldRecord.target_id == record.id,
        FieldRecord.municipality_id == record.municipality_id)).first() is not None


def _iso(dt):
    return dt.isoformat() if dt else None


def operator_autos(user):
    if user.operator_id is None:
        return []
    sections = gather(operator_auto_sections, user)
    rows = (FieldRecord.query.filter_by(kind="auto", operator_id=user.operator_id,
                                        municipality_id=user.municipality_id)
            .order_by(FieldRecord.device_at.desc(), FieldRecord.id).all())
    municipality = db.session.get(Municipality, user.municipality_id)
    labels = _labels(composed_for(municipality)) if rows else {}
    out = []
    for record in rows:
        body, inspection = _body(record), _inspection_body(record)
        token = body.get("public_token")
        out.append({
            "id": record.id, "number": record.auto_number, "issued_at": _iso(record.device_at),
            "received_at": _iso(record.received_at), "plate": inspection.get("plate"),
            "permit_number": inspection.get("permit_number"),
            "infractions": [{**{k: i.get(k) for k in ("id", "citation", "amount", "amount_brl")},
                             "label_pt": i.get("label_pt") or labels.get(i.get("id")),
                             "amount_text": amount_text(i)} for i in _confirmed(municipality, body)],
            "defence": body.get("defence") if isinstance(body.get("defence"), dict) else None,
            "public_url": f"/a/{token}" if isinstance(token, str) and TOKEN_RE.match(token) else None,
            "cancel_requested": _cancel_requested(record),
            "process": process_status(record, with_filings=True),
            **{name: by_record.get(record.id) for name, by_record in sections.items()},
        })
    return out


def _brl_text(value):
    return f"R$ {value:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")


def amount_text(item) -> str:
    """What the operator reads for an infraction's amount: reais when the auto states them, the
    law's unit when only that is known, else "a definir" — never R$ 0,00."""
    brl = amount_brl(item)
    if brl is not None:
        return _brl_text(brl)
    amount = item.get("amount") if isinstance(item.get("amount"), dict) else {}
    if amount.get("value") is not None:
        return f"{amount['value']} {amount.get('unit') or ''}".strip() + " (valor em reais a definir)"
    return "a definir"


def process_status(record, with_filings=False) -> dict:
    """Where the auto stands in the municipality's process, for the operator: the review state,
    the notificação (number, when issued and served) and the defence/appeal deadlines as the law
    and the configuration set them (the first instance's last day once the notificação was served,
    on the municipality's legal calendar). `with_filings` (the operator's own list): the filings
    with their receipts and decisions, and what can be filed now."""
    case = AutoCase.query.filter_by(record_id=record.id, municipality_id=record.municipality_id).first()
    if case is None:
        empty = {"state": "recebido", "state_pt": "Recebido pelo servidor (aguarda revisão)",
                 "notification": None, "deadlines": []}
        return {**empty, "filings": [], "filing": _closed("O auto ainda não chegou ao setor de autos.")} \
            if with_filings else empty
    note = notification_of(case)
    notification = None
    if note is not None:
        notification = {"number": note.number, "issued_on": note.issued_at.astimezone(local_tz()).date().isoformat(),
                        "served_on": note.served_on.isoformat() if note.served_on else None}
    steps = steps_for(case)
    cal = calendar_for_case(case) if steps else None
    deadlines = []
    for step in steps:
        due_on = (due(cal, note.served_on, step) if (note is not None and note.served_on and step["level"] == 1)
                  else None)
        if step["days"] is not None:
            text = f"{step['days']} dias, contados {step['start_pt']}"
        else:
            text = "prazo a definir (a lei remete à regulamentação municipal)"
        deadlines.append({"label_pt": step["label_pt"], "days": step["days"], "text_pt": text,
                          "citation_pt": step["citation_pt"], "instance_pt": step.get("instance_pt"),
                          "due_on": due_on.isoformat() if due_on else None})
    out = {"state": case.state, "state_pt": CASE_STATE_PT.get(case.state, case.state),
           "notification": notification, "deadlines": deadlines}
    if with_filings:
        appeals = appeals_of(case)
        out["filings"] = [_filing(case, a) for a in appeals]
        out["filing"] = _open_step(case, steps, note, appeals, cal)
    return out


def _closed(why):
    return {"open": False, "why_pt": why, "level": None, "kind": None, "label_pt": None, "instance_pt": None,
            "due_on": None}


def _filing(case, appeal):
    made = receipt(appeal, case)
    return {**{k: made[k] for k in ("protocol", "level", "label_pt", "instance_pt", "late", "timeliness_pt")},
            "received_at": isoformat_utc(appeal.received_at) if appeal.received_at else None, "due_on": appeal.due_on.isoformat() if appeal.due_on else None,
            "filed_on": appeal.filed_on.isoformat(), "source": appeal.source,
            "text": appeal.summary if appeal.source == "app" else None, "attachments": made["attachments"],
            "decision": appeal.decision, "decision_pt": APPEAL_DECISIONS.get(appeal.decision),
            "decision_text": appeal.decision_text,
            "decided_on": appeal.decided_on.isoformat() if appeal.decided_on else None}


def _open_step(case, steps, note, appeals, cal):
    """The step the law gives the operator now (defesa prévia, defesa, recurso, second instance)."""
    if case.state == "insubsistente":
        return _closed("Auto declarado insubsistente (anulado): não há o que defender.")
    if not steps:
        return _closed("A lei municipal não prevê defesa ou recurso.")
    if any(a.decision is None and not a.late for a in appeals):
        return _closed("Há um pedido aguardando decisão.")
    step, due_on = current_step(steps, note.served_on if note else None, appeals, cal)
    if step is None:
        return _closed("Todas as instâncias previstas na lei já decidiram.")
    return {"open": True, "why_pt": None, "level": step["level"], "kind": step["kind"], "label_pt": step["label_pt"],
            "instance_pt": step["instance_pt"] or None, "due_on": due_on.isoformat() if due_on else None}


def _citation_text(composed, citation):
    if isinstance(citation, dict):
        return format_citation(composed, citation)
    return str(citation) if citation else ""


def _labels(composed, record=None):
    """{infraction id: its title} in the wording in force on the auto's day (SPEC §3 "Amendments")."""
    day = to_local(record.device_at or record.received_at).date().toordinal() if record is not None else None
    out = {}
    for inf in composed.infractions:
        entry = composed.as_of(inf["id"], day) if day is not None else composed.by_id.get(inf["id"])
        out[inf["id"]] = (entry or inf).get("label_pt")
    return out


def public_auto(token):
    """The page data of the auto behind a public link, or None while the server does not hold it.
    The token is looked up by its hash (an index on sha256), never compared as text."""
    if not isinstance(token, str) or not TOKEN_RE.match(token):
        return None
    digest = hashlib.sha256(token.encode()).hexdigest()
    record = (FieldRecord.query.filter_by(public_token_hash=digest, kind="auto")
              .order_by(FieldRecord.received_at, FieldRecord.id).first())
    if record is None:
        return None
    municipality = db.session.get(Municipality, record.municipality_id)
    body, inspection = _body(record), _inspection_body(record)
    composed = composed_for(municipality)
    labels = _labels(composed, record)
    infractions = []
    for item in _confirmed(municipality, body):
        infractions.append({"label": labels.get(item.get("id")) or item.get("label_pt") or item.get("id") or "Infração",
                            "citation": _citation_text(composed, item.get("citation")),
                            "amount_brl": amount_brl(item), "amount_text": amount_text(item)})
    defence = body.get("defence") if isinstance(body.get("defence"), dict) else {}
    return {
        "municipality": municipality, "number": record.auto_number,
        # Each law's words (issue 34, item 4): its instrument and how it names the first step.
        "permit_word": vocabulary(municipality).permit_title, "step_word": first_step_word(composed, record, defence),
        "issued_at": record.device_at.astimezone(local_tz()) if record.device_at else None,
        "received_at": record.received_at.astimezone(local_tz()) if record.received_at else None,
        "plate": inspection.get("plate"), "permit_number": inspection.get("permit_number"),
        "infractions": infractions, "defence_days": defence.get("deadline_days"),
        "defence_instance": defence.get("instance"), "cancel_requested": _cancel_requested(record),
        "process": process_status(record),
    }


def first_step_word(composed, record, defence=None):
    """"defesa", "defesa prévia" or "recurso": the first instance as the law names it — the kind
    the phone recorded with the auto, else the municipality's law on the auto's day."""
    kind = (defence or {}).get("kind")
    if kind not in STEP_WORDS:
        day = (record.device_at or record.received_at).astimezone(local_tz()).date()
        steps = instances(composed, day)
        kind = steps[0]["kind"] if steps else None
    return STEP_WORDS.get(kind, "defesa ou recurso")


def public_auto_json(token):
    """What the operator's copy page (autocopy/page.js) shows once the auto reached the server."""
    auto = public_auto(token)
    if auto is None:
        return None
    return {"number": auto["number"], "received_at": _iso(auto["received_at"]),
            "issued_at": _iso(auto["issued_at"]),
            "municipality": {"name": auto["municipality"].name, "uf": auto["municipality"].uf},
            "infractions": [{"label_pt": i["label"], "citation_pt": i["citation"], "amount_brl": i["amount_brl"],
                             "amount_text": i["amount_text"]} for i in auto["infractions"]],
            "cancel_requested": auto["cancel_requested"], "process": auto["process"]}
