"""What the operator sees of their autos: the API list and the public page behind the QR the
fiscal shows at the roadside (routes in public_views.py). Minimal data: no names, no CPF, nothing
the link holder does not already know from the paper copy. Read from fieldsync's signed records
and this package's case and process."""
import hashlib
import json

from sqlalchemy import select

from ...core.clock import timezone as local_tz
from ...core.tenancy import owned
from ...extensions import db
from ..fieldsync.models import FieldRecord
from ..fieldsync.schemas import TOKEN_RE
from ..registry.models import Municipality
from ..rules.citations import format_citation
from ..rules.service import composed_for
from .auto_data import amount_brl
from .instances import due
from .models import AutoCase
from .process_operations import notification_of, steps_for
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


def _confirmed(body):
    items = body.get("infractions") if isinstance(body.get("infractions"), list) else []
    return [i for i in items if isinstance(i, dict) and i.get("decision", "confirmed") == "confirmed"]


def _cancel_requested(record):
    return db.session.execute(select(FieldRecord.id).where(
        FieldRecord.kind == "cancel_request", FieldRecord.target_id == record.id,
        FieldRecord.municipality_id == record.municipality_id)).first() is not None


def _iso(dt):
    return dt.isoformat() if dt else None


def operator_autos(user):
    if user.operator_id is None:
        return []
    rows = (FieldRecord.query.filter_by(kind="auto", operator_id=user.operator_id,
                                        municipality_id=user.municipality_id)
            .order_by(FieldRecord.device_at.desc(), FieldRecord.id).all())
    labels = _labels(composed_for(db.session.get(Municipality, user.municipality_id))) if rows else {}
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
                             "amount_text": amount_text(i)} for i in _confirmed(body)],
            "defence": body.get("defence") if isinstance(body.get("defence"), dict) else None,
            "public_url": f"/a/{token}" if isinstance(token, str) and TOKEN_RE.match(token) else None,
            "cancel_requested": _cancel_requested(record),
            "process": process_status(record),
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


def process_status(record) -> dict:
    """Where the auto stands in the municipality's process, for the operator: the review state,
    the notificação (number, when issued and served) and the defence/appeal deadlines as the law
    and the configuration set them (a due date once the notificação was served)."""
    case = AutoCase.query.filter_by(record_id=record.id, municipality_id=record.municipality_id).first()
    if case is None:
        return {"state": "recebido", "state_pt": "Recebido pelo servidor (aguarda revisão)",
                "notification": None, "deadlines": []}
    note = notification_of(case)
    notification = None
    if note is not None:
        notification = {"number": note.number, "issued_on": note.issued_at.astimezone(local_tz()).date().isoformat(),
                        "served_on": note.served_on.isoformat() if note.served_on else None}
    deadlines = []
    for step in steps_for(case):
        due_on = due(note.served_on, step["days"]) if (note is not None and note.served_on and step["level"] == 1) else None
        if step["days"] is not None:
            text = f"{step['days']} dias, contados {step['start_pt']}"
        else:
            text = "prazo a definir (a lei remete à regulamentação municipal)"
        deadlines.append({"label_pt": step["label_pt"], "days": step["days"], "text_pt": text,
                          "citation_pt": step["citation_pt"], "instance_pt": step.get("instance_pt"),
                          "due_on": due_on.isoformat() if due_on else None})
    return {"state": case.state, "state_pt": CASE_STATE_PT.get(case.state, case.state),
            "notification": notification, "deadlines": deadlines}


def _citation_text(composed, citation):
    if isinstance(citation, dict):
        return format_citation(composed, citation)
    return str(citation) if citation else ""


def _labels(composed):
    return {inf.get("id"): inf.get("label_pt") for pack in composed.packs for inf in pack.get("infractions", [])}


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
    labels = _labels(composed)
    infractions = []
    for item in _confirmed(body):
        infractions.append({"label": labels.get(item.get("id")) or item.get("label_pt") or item.get("id") or "Infração",
                            "citation": _citation_text(composed, item.get("citation")),
                            "amount_brl": amount_brl(item), "amount_text": amount_text(item)})
    defence = body.get("defence") if isinstance(body.get("defence"), dict) else {}
    return {
        "municipality": municipality, "number": record.auto_number,
        "issued_at": record.device_at.astimezone(local_tz()) if record.device_at else None,
        "received_at": record.received_at.astimezone(local_tz()) if record.received_at else None,
        "plate": inspection.get("plate"), "permit_number": inspection.get("permit_number"),
        "infractions": infractions, "defence_days": defence.get("deadline_days"),
        "defence_instance": defence.get("instance"), "cancel_requested": _cancel_requested(record),
        "process": process_status(record),
    }


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
