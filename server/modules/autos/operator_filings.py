"""Defence and appeal filed by the operator from the app (issue 37).

The phone keeps a filing in its outbox until the server answers (pwa/js/data/operator-outbox.js,
the fiscal outbox's replay): attachments first, each addressed by its SHA-256 (PUT, idempotent),
then the filing under the phone's UUID. Same id + same content → "duplicate" with the same
receipt; same id + other content → "conflict", never an overwrite; a filing is never lost
(accepted with `missing_photos` until its attachments arrive, as the field sync does).

Reading followed (declared in shared_rules/LEGAL.md, "Defesa pelo aplicativo"): the protocol is
the server's receipt, in the municipality's time zone, as a petition handed in at the counter;
the phone's clock when the text was saved is kept (`drafted_at`) and shown to the authority, but
does not move the protocol date (a phone's clock can be set to anything). A filing after the
deadline is received, protocolled and marked intempestiva, never refused.
"""
import hashlib
import json
import re
import zlib

from flask import current_app
from marshmallow import ValidationError
from sqlalchemy.exc import IntegrityError

from ...core.audit import record
from ...core.clock import to_local
from ...core.errors import ApiError
from ...core.security import NUL_MESSAGE, holds_nul
from ...core.storage import storage
from ...extensions import db
from ..fieldsync.models import FieldRecord
from ..fieldsync.photos import inspect_image
from .filing_schemas import FilingSchema
from .models import AutoCase, utcnow
from .process_operations import protocol_filing, steps_for
from .process_models import ATTACHMENT_TYPES, AutoAppeal, FilingAttachment

IMAGE_MAX_BYTES = 2 * 1024 * 1024
PDF_MAX_BYTES = 5 * 1024 * 1024
FILING_SCHEMA = FilingSchema()
# Names of PDF features that run or carry something: refused in an attachment (after undoing the
# #xx escapes a name may be written with, in the file and in its compressed streams).
PDF_ACTIVE = (b"/JavaScript", b"/JS", b"/Launch", b"/EmbeddedFile", b"/RichMedia", b"/XFA", b"/SubmitForm")
PDF_INFLATE_BUDGET = 20 * 1024 * 1024


def max_bytes(content_type):
    if content_type == "application/pdf":
        return int(current_app.config.get("FILING_PDF_MAX_BYTES", PDF_MAX_BYTES))
    return int(current_app.config.get("FILING_IMAGE_MAX_BYTES", IMAGE_MAX_BYTES))


def _refuse(message):
    return ApiError(422, "validation_error", "Dados inválidos.", {"attachment": [message]})


def read_limited(stream, content_length, content_type):
    limit = max_bytes(content_type)
    too_big = ApiError(413, "attachment_too_large", f"Anexo grande demais (máximo {limit // 1024} KB).")
    if content_length is not None and content_length > limit:
        raise too_big
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise too_big
    return data


def _unescape_names(data: bytes) -> bytes:
    return re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), data)


def check_pdf(data: bytes):
    """A PDF file (header and end marker) with no active content, in the file or in its streams."""
    if not data.startswith(b"%PDF-") or b"%%EOF" not in data[-2048:]:
        raise _refuse("O arquivo não é um PDF válido.")
    texts, budget = [data], PDF_INFLATE_BUDGET
    for match in re.finditer(rb"stream\r?\n", data):
        start = match.end()
        end = data.find(b"endstream", start)
        if end < 0 or budget <= 0:
            break
        inflater = zlib.decompressobj()
        try:
            inflated = inflater.decompress(data[start:end], budget)
        except zlib.error:
            continue  # not Flate (images, other filters): nothing readable to scan
        budget -= len(inflated)
        texts.append(inflated)
    for text in texts:
        plain = _unescape_names(text)
        for name in PDF_ACTIVE:
            if re.search(re.escape(name) + rb"(?![A-Za-z])", plain):
                raise _refuse("PDF com conteúdo ativo (scripts, anexos, formulários) não é aceito: "
                              "imprima-o em PDF novamente ou envie fotos das páginas.")


def storage_key(sha256, content_type):
    return f"{sha256[:2]}/{sha256}.{ATTACHMENT_TYPES[content_type]}"


def has_attachment(municipality_id, sha256) -> bool:
    return FilingAttachment.query.filter_by(municipality_id=municipality_id, sha256=sha256).first() is not None


def store_attachment(user, sha256, content_type, data):
    """(created, row). Images pass the evidence photos' checks (declared type, pixel limit before
    decoding, decoded once); PDFs the checks above. Stored as sent: the hash is the name."""
    if content_type not in ATTACHMENT_TYPES:
        raise ApiError(415, "unsupported_media_type", "Envie foto (image/jpeg, image/png) ou PDF (application/pdf).")
    if hashlib.sha256(data).hexdigest() != sha256:
        raise _refuse("O hash SHA-256 do conteúdo não confere com o endereço.")
    existing = FilingAttachment.query.filter_by(municipality_id=user.municipality_id, sha256=sha256).first()
    if existing is not None:
        return False, existing
    if content_type == "application/pdf":
        check_pdf(data)
    else:
        inspect_image(data, content_type)
    storage("filings").write(storage_key(sha256, content_type), data)  # before the row: a row means bytes
    row = FilingAttachment(municipality_id=user.municipality_id, sha256=sha256, content_type=content_type,
                           size=len(data), uploaded_by_id=user.id)
    try:
        with db.session.begin_nested():
            db.session.add(row)
            db.session.flush()
    except IntegrityError:  # the same file arriving twice at once: the other upload won (savepoint undone)
        return False, FilingAttachment.query.filter_by(municipality_id=user.municipality_id, sha256=sha256).one()
    record("filing_attachment_upload", "filing_attachment", row.id, None,
           {"sha256": sha256, "size": len(data), "content_type": content_type},
           municipality_id=user.municipality_id, actor=user)
    return True, row


# --- the push of filings ---------------------------------------------------------------------------

def content_hash(item) -> str:
    canonical = json.dumps({"auto_id": item["auto_id"], "text": item["text"], "attachments": item["attachments"]},
                           ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def case_of_operator(user, record_id):
    """The case of an auto against this operator, in their municipality; None otherwise."""
    if user.operator_id is None:
        return None
    return (AutoCase.query.join(FieldRecord, (FieldRecord.id == AutoCase.record_id)
                                & (FieldRecord.municipality_id == AutoCase.municipality_id))
            .filter(AutoCase.record_id == record_id, AutoCase.municipality_id == user.municipality_id,
                    FieldRecord.operator_id == user.operator_id, FieldRecord.kind == "auto").first())


def _missing(municipality_id, hashes):
    if not hashes:
        return []
    found = {row.sha256 for row in FilingAttachment.query.filter(
        FilingAttachment.municipality_id == municipality_id, FilingAttachment.sha256.in_(hashes))}
    return [h for h in hashes if h not in found]


def push(user, items):
    """One result per item, in order; each item judged alone (a bad one never blocks the rest)."""
    return [_one(user, raw) for raw in items]


def _rejected(ident, errors):
    return {"id": ident, "status": "rejected", "errors": errors, "missing_photos": [], "receipt": None}


def _one(user, raw):
    ident = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
    if holds_nul(raw):  # its own refusal, not the batch's (the view's nul_refused_per_item)
        return _rejected(ident, {"_schema": [NUL_MESSAGE]})
    try:
        item = FILING_SCHEMA.load(raw if isinstance(raw, dict) else {})
    except ValidationError as exc:
        return _rejected(ident, exc.messages)
    digest = content_hash(item)
    existing = AutoAppeal.query.filter_by(client_id=item["id"]).first()
    if existing is not None:
        return _known(user, existing, item, digest)
    case = case_of_operator(user, item["auto_id"])
    if case is None:
        return _rejected(item["id"], {"auto_id": ["Auto não encontrado entre os seus."]})
    if case.state == "insubsistente":
        return _rejected(item["id"], {"auto_id": ["O auto foi declarado insubsistente (anulado): não há o que "
                                                  "defender."]})
    for attempt in range(3):
        try:
            with db.session.begin_nested():
                appeal = _protocol(user, case, item, digest)
            break
        except IntegrityError:  # two filings took the same protocol number: take the next one
            if attempt == 2:
                raise ApiError(409, "busy", "Muitos protocolos ao mesmo tempo; tente novamente.") from None
            existing = AutoAppeal.query.filter_by(client_id=item["id"]).first()
            if existing is not None:  # the same filing sent twice at once: the other one won
                return _known(user, existing, item, digest)
        except ApiError as exc:
            return _rejected(item["id"], exc.fields or {"_schema": [exc.message]})
    return {"id": item["id"], "status": "accepted", "errors": None,
            "missing_photos": _missing(user.municipality_id, item["attachments"]), "receipt": receipt(appeal, case)}


def _known(user, appeal, item, digest):
    if appeal.municipality_id != user.municipality_id or appeal.filed_by_id != user.id:
        return _rejected(item["id"], {"id": ["Identificador já usado por outro pedido."]})
    if appeal.content_hash != digest:
        record("filing_conflict", "auto_appeal", appeal.id, None, {"content_hash": digest},
               municipality_id=user.municipality_id, actor=user)
        return {"id": item["id"], "status": "conflict", "errors": None, "missing_photos": [], "receipt": None}
    case = db.session.get(AutoCase, appeal.case_id)
    return {"id": item["id"], "status": "duplicate", "errors": None,
            "missing_photos": _missing(user.municipality_id, item["attachments"]), "receipt": receipt(appeal, case)}


def _protocol(user, case, item, digest):
    now = utcnow()
    attachments = [{"sha256": h} for h in item["attachments"]]
    return protocol_filing(case, to_local(now).date(), item["text"].strip(), actor=user, source="app",
                           received_at=now, client_id=item["id"], content_hash=digest, attachments=attachments,
                           drafted_at=item.get("drafted_at"))


def _br(day):
    return day.strftime("%d/%m/%Y")


def timeliness_pt(appeal) -> str:
    """Tempestiva or intempestiva, and why, in the words the receipt and the back office show."""
    filed = _br(appeal.filed_on)
    if appeal.late:
        return (f"Intempestiva: protocolada em {filed}, depois do prazo, que terminou em {_br(appeal.due_on)}. "
                "Foi recebida e segue à autoridade, que pode rever o ato de ofício.")
    if appeal.due_on is None:
        return (f"Tempestiva: protocolada em {filed}, antes de o prazo começar a correr "
                "(ciência ainda não registrada) ou sem prazo definido.")
    return f"Tempestiva: protocolada em {filed}; o prazo vai até {_br(appeal.due_on)}."


def step_label(case, appeal) -> str:
    for step in steps_for(case):
        if step["level"] == appeal.level:
            return step["label_pt"]
    return f"{appeal.level}ª instância"


def receipt(appeal, case) -> dict:
    return {"protocol": appeal.protocol, "received_at": appeal.received_at, "auto_number": case.number,
            "level": appeal.level, "label_pt": step_label(case, appeal), "instance_pt": appeal.instance_pt,
            "due_on": appeal.due_on, "late": bool(appeal.late), "timeliness_pt": timeliness_pt(appeal),
            "attachments": len(appeal.attachments or []), "content_hash": appeal.content_hash or ""}
