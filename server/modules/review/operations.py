"""Every write of the review: corrections (new versions), answers to cancellation requests and
conflict resolutions. Each is audited in the caller's transaction; nothing is deleted or overwritten."""
import copy
import json

from ...core.audit import current_actor, record
from ...core.errors import ApiError
from ...core.tenancy import in_scope, owned
from ...core.validation import normalize_plate, plate_is_valid
from ...extensions import db
from ..autos import versions
from ..autos.auto_data import municipal_infractions
from ..autos.models import AutoCase, AutoCaseVersion, utcnow
from ..autos.process_models import AutoNotification
from ..autos.operations import REASON_MIN, decide
from ..fieldsync.models import FieldRecord
from ..registry.models import Municipality
from .models import CancelRequestDecision

MAX_TEXT = 2000


def _invalid(field, message, status=422):
    return ApiError(status, "validation_error", "Dados inválidos.", {field: [message]})


def _reason(text, field="reason"):
    text = (text or "").strip()
    if len(text) < REASON_MIN:
        raise _invalid(field, f"Justifique (ao menos {REASON_MIN} caracteres).")
    if len(text) > MAX_TEXT:
        raise _invalid(field, f"No máximo {MAX_TEXT} caracteres.")
    return text


def _actor_id(actor):
    return getattr(actor or current_actor(), "id", None)


def _add_version(case, data, reason, source, actor=None, conflict_id=None):
    before = versions.current_data(case)
    version = AutoCaseVersion(case_id=case.id, n=versions.next_number(case), data=data, reason=reason,
                              source=source, conflict_id=conflict_id, author_id=_actor_id(actor),
                              created_at=utcnow())
    db.session.add(version)
    db.session.flush()
    changed = versions.diff(versions.correctable_of(before), data, versions.labels_of(case))
    record("auto_correct", "auto_case", case.id, {k: b for k, b, _a in changed}, {k: a for k, _b, a in changed},
           reason=reason, municipality_id=case.municipality_id, actor=actor)
    return version


def notified(case):
    """The case's notificação was issued (autos.process_models.AutoNotification)."""
    return db.session.query(AutoNotification.id).filter_by(case_id=case.id).first() is not None


def correct(case, changes, reason, actor=None):
    """A clerk's correction: `changes` may hold plate, permit_number, place, auto_fields {name:
    text} and removals {infraction id: reason}. Creates version n+1 (see versions.CORRECTABLE)."""
    reason = _reason(reason)
    if case.state == "insubsistente":
        raise ApiError(409, "invalid_transition", "O auto é insubsistente: não se corrige mais.")
    if notified(case):
        # The notificação prints the auto as it stood when issued, and its deadlines run from it: a
        # later correction would leave the operator holding an auto the municipality no longer
        # holds (issue 34, item 3).
        raise ApiError(409, "already_notified", "O autuado já foi notificado desta versão do auto: uma correção "
                       "agora exigiria nova notificação, com novo prazo. Se o erro invalida o auto, declare-o "
                       "insubsistente e lavre outro.", {"reason": ["O auto já foi notificado."]})
    current = versions.correctable_of(versions.current_data(case))
    data = copy.deepcopy(current)
    if "plate" in changes:
        plate = normalize_plate(changes["plate"] or "")
        if not plate_is_valid(plate):
            raise _invalid("plate", "Placa inválida (ABC1234 ou ABC1D23).")
        data["plate"] = plate
    for key in ("permit_number", "place"):
        if key in changes:
            text = (changes[key] or "").strip()
            if len(text) > 200:
                raise _invalid(key, "No máximo 200 caracteres.")
            data[key] = text or None
    for name, text in (changes.get("auto_fields") or {}).items():
        if name not in data["auto_fields"]:
            raise _invalid(f"auto_fields.{name}", "Campo que o auto não tem.")
        text = (text or "").strip()
        if len(text) > MAX_TEXT:
            raise _invalid(f"auto_fields.{name}", f"No máximo {MAX_TEXT} caracteres.")
        data["auto_fields"][name] = text
    by_id = {i["id"]: i for i in data["infractions"]}
    for inf_id, why in (changes.get("removals") or {}).items():
        inf = by_id.get(inf_id)
        if inf is None:
            raise _invalid(f"remove.{inf_id}", "Infração que o auto não tem.")
        if inf["decision"] != "confirmed":
            continue
        why = (why or "").strip()
        if len(why) < 3:
            raise _invalid(f"removal_reason.{inf_id}", "Diga por que a infração é removida.")
        inf.update(decision="removed", removal_reason=why[:MAX_TEXT])
    municipality = db.session.get(Municipality, case.municipality_id)
    own = municipal_infractions(municipality, data["infractions"])
    if not [i for i in own if i["decision"] == "confirmed"] and municipal_infractions(municipality, current["infractions"]):
        raise _invalid("remove", "Não remova todas as infrações: declare o auto insubsistente.")
    if data == current:
        raise _invalid("reason", "Nada foi alterado.")
    return _add_version(case, data, reason, "correction", actor)


# --- cancellation requests from the field ----------------------------------------------------

def request_reason(request_record):
    try:
        body = json.loads(request_record.body)
    except ValueError:
        return ""
    return str(body.get("reason") or "") if isinstance(body, dict) else ""


def _open_request(case, request_record):
    if (request_record is None or request_record.kind != "cancel_request"
            or request_record.target_id != case.record_id or request_record.municipality_id != case.municipality_id):
        raise ApiError(404, "not_found")
    if CancelRequestDecision.query.filter_by(request_id=request_record.id).first() is not None:
        raise ApiError(409, "already_decided", "Este pedido de cancelamento já foi decidido.")


def answer_cancel_request(case, request_record, accept, note, actor=None):
    """Accept (→ insubsistente, the request's reason quoted) or refuse (with a reason)."""
    _open_request(case, request_record)
    note = _reason(note, "note")
    quoted = request_reason(request_record)
    if accept and case.state == "insubsistente":
        raise ApiError(409, "invalid_transition", "O auto já é insubsistente.")
    decision = CancelRequestDecision(municipality_id=case.municipality_id, request_id=request_record.id,
                                     decision="accepted" if accept else "refused", reason=note,
                                     decided_by_id=_actor_id(actor), decided_at=utcnow())
    db.session.add(decision)
    db.session.flush()
    record("cancel_request_accept" if accept else "cancel_request_refuse", "field_record", request_record.id,
           None, {"auto": case.number, "request_reason": quoted}, reason=note,
           municipality_id=case.municipality_id, actor=actor)
    if accept:
        decide(case, "auto_void", f"Pedido de cancelamento do fiscal: “{quoted}”. {note}", actor=actor)
    return decision


# --- conflicts --------------------------------------------------------------------------------

def resolve_conflict(conflict, adopt, note, actor=None):
    """A person decides between the stored record and a divergent body that came under its id:
    keep the original, or adopt the divergent one (autos only: its correctable fields become a new
    version of the case; the signed original is never overwritten)."""
    note = _reason(note, "note")
    if conflict.reviewed_at is not None:
        raise ApiError(409, "already_reviewed", "Este conflito já foi resolvido.")
    original = owned(FieldRecord, conflict.record_id, conflict.municipality_id)
    if original is None:  # a conflict filed against another municipality's record: nothing to decide
        raise ApiError(404, "not_found")
    case = in_scope(AutoCase, conflict.municipality_id).filter_by(record_id=conflict.record_id).first()
    if adopt:
        if original.kind != "auto" or case is None:
            raise _invalid("choice", "Só a versão divergente de um auto pode ser adotada (como correção).")
        if case.state == "insubsistente":
            raise ApiError(409, "invalid_transition", "O auto é insubsistente: não se corrige mais.")
        try:
            body = json.loads(conflict.body)
        except ValueError:
            raise _invalid("choice", "O corpo divergente não é JSON: não pode ser adotado.") from None
        if not isinstance(body, dict):
            raise _invalid("choice", "O corpo divergente não é um objeto JSON.")
        data = versions.correctable_of(body)
        if data == versions.correctable_of(versions.current_data(case)):
            raise _invalid("choice", "A versão divergente não difere nos campos corrigíveis: mantenha o original.")
        _add_version(case, data, f"Versão divergente adotada: {note}", "conflict", actor, conflict.id)
    conflict.reviewed_at = utcnow()
    conflict.review_note = ("Adotada a versão divergente: " if adopt else "Mantido o original: ") + note
    record("conflict_resolve", "field_record_conflict", conflict.id, None,
           {"record_id": conflict.record_id, "choice": "adopt" if adopt else "keep"}, reason=note,
           municipality_id=conflict.municipality_id, actor=actor)
    return conflict
