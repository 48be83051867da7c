"""What the record page shows, assembled from the signed record and the composed rules."""
import json
from datetime import datetime

from ...core.audit import AuditLog
from ...core.clock import as_utc
from ...core.tenancy import owned
from ...extensions import db
from ..accounts.models import Device, User
from ..autos.models import AutoCase
from ..fieldsync import provenance
from ..fieldsync.checks import signature_flags
from ..fieldsync.models import EvidencePhoto, FieldRecord, FieldRecordConflict
from ..fieldsync.record_photos import referenced_photos
from ..registry.models import Operator
from ..registry.vocabulary import vocabulary
from ..rules.citations import format_citation, penalty_label
from ..rules.service import composed_for
from .flags import explained
from .models import CancelRequestDecision

# Every fact area of the packs in words (issue 34, item 4: never "Conduct" or "Parking" on a page);
# tests/test_backoffice_words.py fails for an area a pack adds without one here.
AREAS = {"vehicle": "Veículo", "equipment": "Equipamentos", "driver": "Condutor", "passenger": "Passageiro",
         "operator": "Operador", "permit": "Permissão ou alvará", "insurance": "Seguro", "document": "Documentos",
         "conduct": "Conduta", "parking": "Estacionamento e pontos", "pickup": "Embarque de passageiros",
         "service": "Serviço prestado", "goods": "Carga transportada", "context": "Situação da abordagem"}
OTHER_AREA = "Outros"
SOURCES = {"registry": "cadastro", "fiscal": "fiscal", "checklist": "fiscal"}
VERDICTS = {"valido": "Válido", "invalido": "Inválido", "desconhecido": "Desconhecido"}


def parse_body(text):
    try:
        body = json.loads(text)
    except (TypeError, ValueError, RecursionError):  # a refused body may be nested past the parser
        return {}
    return body if isinstance(body, dict) else {}


def pretty(text):
    """A body indented for reading, as text any page can print: a refused body (the quarantine)
    may decode to lone surrogates or NUL, written back as escapes, or nest too deep to indent
    (then shown as stored)."""
    body = parse_body(text)
    if not body:
        return text
    try:
        shown = json.dumps(body, ensure_ascii=False, indent=2, sort_keys=False)
    except (ValueError, RecursionError):
        return text
    return shown.replace("\x00", "\\u0000").encode("utf-8", "backslashreplace").decode("utf-8")


def checklist_groups(rules, body, permit_word=None):
    """[(area label, [{fact, question, answer, how, citations, photos, not_applicable}])] in the
    order of the packs: every answer with how it was given (item by item, a group declaration,
    the registry, or "não registrada" for a record of an earlier app), then the items not asked
    because other answers rule them out, "não se aplica" with that reason (issue 34)."""
    answers = body.get("answers") if isinstance(body.get("answers"), dict) else {}
    sources = body.get("answer_sources") if isinstance(body.get("answer_sources"), dict) else {}
    hows = body.get("answer_how") if isinstance(body.get("answer_how"), dict) else {}
    item_photos = body.get("item_photos") if isinstance(body.get("item_photos"), dict) else {}
    cites = {}
    for req in rules.requirements:
        for compiled in (req.get("_applies"), req.get("_holds")):
            for name in getattr(compiled, "refs", ()) or ():
                label = format_citation(rules, req.get("citation"))
                if label and label not in cites.setdefault(name, []):
                    cites[name].append(label)
    groups = {}
    order = list(rules.facts) + [n for n in answers if n not in rules.facts]
    for name in order:
        if name not in answers:
            continue
        decl = rules.facts.get(name) or {}
        prefix = name.split(".")[0]
        area = permit_word if prefix == "permit" and permit_word else AREAS.get(prefix, OTHER_AREA)
        question = (decl.get("checklist") or {}).get("prompt_pt") or decl.get("label_pt") or name
        groups.setdefault(area, []).append({
            "fact": name, "question": question, "answer": provenance.answer_text(answers[name], decl, hows.get(name)),
            "how": provenance.how_text(body, name, sources.get(name) or decl.get("source")),
            "citations": cites.get(name, []),
            "photos": [h for h in item_photos.get(name) or [] if isinstance(h, str)],
            "unknown": name not in rules.facts, "not_applicable": False})
    for name, question, reason in provenance.not_applicable(rules, body):
        if name in answers:
            continue  # a signed body that says both: the answer is shown, the contradiction flagged
        prefix = name.split(".")[0]
        area = permit_word if prefix == "permit" and permit_word else AREAS.get(prefix, OTHER_AREA)
        groups.setdefault(area, []).append({
            "fact": name, "question": question, "answer": "Não se aplica", "how": f"não perguntado: {reason}",
            "citations": cites.get(name, []), "photos": [], "unknown": name not in rules.facts, "not_applicable": True})
    return list(groups.items())


def answers_how(rules, body):
    """The checklist card's reading of how the answers were given: the counts, each group
    declaration (what it showed, what it answered) and what a defence would point at."""
    return {"recorded": provenance.recorded(body), "summary": provenance.summary_text(provenance.summary(body)),
            "declarations": provenance.declarations(body), "contradictions": contradictions(rules, body)}


def contradictions(rules, body):
    """What a defence would point at in the signed answers (issue 34): an item stored although
    the record says it does not apply, or answered by a group declaration that did not show it."""
    out = []
    answers = body.get("answers") if isinstance(body.get("answers"), dict) else {}
    na = body.get("not_applicable") if isinstance(body.get("not_applicable"), dict) else {}
    for fact in answers:
        if fact in na:
            out.append(f"“{fact}” tem resposta e também consta como “não se aplica”.")
    shown = {d["n"]: set(d["shown"]) for d in provenance.declarations(body)}
    for fact, how in (body.get("answer_how") or {}).items() if isinstance(body.get("answer_how"), dict) else ():
        if isinstance(how, dict) and how.get("how") == "group" and fact not in shown.get(how.get("declaration"), set()):
            out.append(f"“{fact}” foi respondido por uma declaração de grupo que não o exibiu.")
    return out


def photos(record, body):
    """[(sha256, present)] of every photo the record references."""
    hashes = referenced_photos({"photos": _list(body.get("photos")),
                                "item_photos": body.get("item_photos") if isinstance(body.get("item_photos"), dict) else {},
                                "signatures": body.get("signatures") if isinstance(body.get("signatures"), dict) else {}})
    present = {p for (p,) in db.session.query(EvidencePhoto.sha256).filter(
        EvidencePhoto.municipality_id == record.municipality_id, EvidencePhoto.sha256.in_(hashes))} if hashes else set()
    return [(h, h in present) for h in hashes]


def _list(value):
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def gps_of(body):
    gps = body.get("gps") if isinstance(body.get("gps"), dict) else None
    if not gps or not isinstance(gps.get("lat"), (int, float)) or not isinstance(gps.get("lon"), (int, float)):
        return None
    lat, lon = float(gps["lat"]), float(gps["lon"])
    return {"lat": lat, "lon": lon, "accuracy": gps.get("accuracy_m"),
            "osm": f"https://www.openstreetmap.org/?mlat={lat:.6f}&mlon={lon:.6f}#map=18/{lat:.6f}/{lon:.6f}"}


def _sent_time(body, key):
    """A clock as the phone wrote it (ISO with its offset): the signed value, whatever the
    database did with the offset (SQLite keeps no time zone)."""
    clock = body.get("clock") if isinstance(body.get("clock"), dict) else {}
    try:
        moment = datetime.fromisoformat(str(clock.get(key)))
    except ValueError:
        return None
    return moment if moment.tzinfo else None


def clocks(record, body):
    device = _sent_time(body, "device_at") or as_utc(record.device_at)
    gps = _sent_time(body, "gps_at") or as_utc(record.gps_at)
    server = as_utc(record.received_at)

    def gap(a, b):
        if a is None or b is None:
            return None
        seconds = int((a - b).total_seconds())
        return f"{'+' if seconds >= 0 else '−'}{_duration(abs(seconds))}"
    return [("Relógio do celular", device, None), ("Hora do GPS", gps, gap(device, gps)),
            ("Recebido pelo servidor", server, gap(device, server))]


def _duration(seconds):
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    if seconds < 172800:
        return f"{seconds // 3600} h"
    return f"{seconds // 86400} dias"


def data_age(body):
    seconds = body.get("data_age_s")
    if not isinstance(seconds, int) or isinstance(seconds, bool) or seconds < 0:
        return None
    return _duration(seconds)


def credential_of(body):
    cred = body.get("credential") if isinstance(body.get("credential"), dict) else None
    if not cred:
        return None
    verdict = str(cred.get("verdict") or "")
    return {"verdict": VERDICTS.get(verdict.lower(), verdict or "—"), "reason": cred.get("reason"),
            "payload": cred.get("payload_text"), "code": verdict.lower()}


def neighbours(record):
    rows = (FieldRecord.query.filter(FieldRecord.municipality_id == record.municipality_id,
                                     FieldRecord.device_id == record.device_id,
                                     FieldRecord.seq.in_((record.seq - 1, record.seq + 1)))
            .order_by(FieldRecord.seq).all())
    before = [r for r in rows if r.seq == record.seq - 1]
    after = [r for r in rows if r.seq == record.seq + 1]
    return {"before": before, "after": after,
            "links": bool(before) and any(r.body_hash == record.prev_hash for r in before)}


def infraction_rows(rules, data, signed):
    """The auto's infractions as now held (corrected), with citation and amount as signed."""
    out = []
    signed_by_id = {i.get("id"): i for i in signed.get("infractions") or [] if isinstance(i, dict)}
    for inf in data.get("infractions") or []:
        if not isinstance(inf, dict):
            continue
        original = signed_by_id.get(inf.get("id"), {})
        citation = inf.get("citation") if isinstance(inf.get("citation"), dict) else None
        amount = inf.get("amount") if isinstance(inf.get("amount"), dict) else None
        known = rules.by_id.get(inf.get("id")) if isinstance(inf.get("id"), str) else None
        out.append({"id": inf.get("id"), "label": inf.get("label_pt") or (known or {}).get("label_pt") or inf.get("id"),
                    "citation": format_citation(rules, citation) if citation else "",
                    "amount": amount, "amount_brl": inf.get("amount_brl"),
                    "decision": inf.get("decision"), "removal_reason": inf.get("removal_reason"),
                    "corrected": original.get("decision") != inf.get("decision"),
                    # What it rests on, as the phone signed it (None: an auto of an earlier app).
                    "grounds": provenance.grounds(rules, original or inf),
                    "penalty": penalty_label((known or {}).get("penalty", {}).get("kind", "")) if known else ""})
    return out


def cancel_requests(case):
    requests = (FieldRecord.query.filter_by(municipality_id=case.municipality_id, kind="cancel_request",
                                            target_id=case.record_id).order_by(FieldRecord.received_at).all())
    decisions = {d.request_id: d for d in CancelRequestDecision.query.filter(
        CancelRequestDecision.request_id.in_([r.id for r in requests]))} if requests else {}
    return [{"record": r, "body": parse_body(r.body), "decision": decisions.get(r.id),
             "user": owned(User, r.user_id, case.municipality_id)} for r in requests]


def case_history(case, record_ids):
    """Audit entries of the case, its records (auto, requests) and its conflicts, oldest first."""
    conflict_ids = [str(c.id) for c in FieldRecordConflict.query.filter_by(
        record_id=case.record_id, municipality_id=case.municipality_id)]
    return (AuditLog.query.filter(AuditLog.municipality_id == case.municipality_id,
                                  ((AuditLog.entity == "auto_case") & (AuditLog.entity_id == str(case.id)))
                                  | ((AuditLog.entity == "field_record") & AuditLog.entity_id.in_(record_ids))
                                  | ((AuditLog.entity == "field_record_conflict")
                                     & AuditLog.entity_id.in_(conflict_ids)))
            .order_by(AuditLog.at, AuditLog.id).all())


def conflicts_of(record):
    return (FieldRecordConflict.query.filter_by(record_id=record.id, municipality_id=record.municipality_id)
            .order_by(FieldRecordConflict.id).all())


def signature_ok(device, body_text, signature):
    return not signature_flags(device.public_key if device else None, body_text, signature)


def context(municipality, record):
    body = parse_body(record.body)
    rules = composed_for(municipality)
    mid = record.municipality_id
    device = owned(Device, record.device_id, mid)
    hashes = photos(record, body)
    codes = list(record.flags or [])
    if any(not present for _h, present in hashes):
        codes.append("photo_missing")
    operator = owned(Operator, record.operator_id, mid)
    ctx = {"record": record, "body": body, "pretty": pretty(record.body), "rules": rules, "device": device,
           "fiscal": owned(User, record.user_id, mid), "photos": hashes, "gps": gps_of(body),
           "clocks": clocks(record, body), "flags": explained(codes),
           "groups": checklist_groups(rules, body, vocabulary(municipality).permit_title),
           "answers_how": answers_how(rules, body),
           "credential": credential_of(body), "data_age": data_age(body), "neighbours": neighbours(record),
           "conflicts": conflicts_of(record), "operator": operator,
           # The law's label of each auto field ("Tipificação da infração"), never its key.
           "field_labels": {f["id"]: f.get("label_pt") or f["id"] for f in getattr(rules, "auto_fields", [])},
           "signature_ok": signature_ok(device, record.body, record.signature), "now": datetime.now()}
    if record.kind == "inspection":
        ctx["autos"] = (db.session.query(FieldRecord, AutoCase).outerjoin(AutoCase, AutoCase.record_id == FieldRecord.id)
                        .filter(FieldRecord.inspection_id == record.id, FieldRecord.kind == "auto",
                                FieldRecord.municipality_id == record.municipality_id).all())
    return ctx
