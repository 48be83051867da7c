"""Back-office review screens (pt-BR). Thin handlers: parse → scope → operation → render.
Staff only (backoffice, admin of the chosen municipality); another municipality's record is 404."""
import re

from flask import Response, abort, flash, g, redirect, render_template, request, url_for

from ...core.csv_export import csv_response
from ...core.errors import ApiError
from ...core.routes import RouteTable
from ...core.tenancy import in_scope, owned
from ...extensions import db
from ..autos import versions
from ..autos.auto_data import auto_data, traffic_authority_act
from ..autos.models import AutoCase
from ..registry.scope import municipality, staff_view
from ..fieldsync.models import FieldRecord, FieldRecordConflict
from ..fieldsync import provenance
from ..traffic import queries as traffic_queries
from ..fieldsync.checks import signature_flags
from ..accounts.models import Device
from . import details, operations, photos, queue, reevaluation
from .flags import FILTERABLE, explained, label as flag_label
from ..registry.vocabulary import vocabulary
from ..autos.operations import decide as decide_case

routes = RouteTable()

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
SHA_RE = re.compile(r"^[0-9a-f]{64}$")
CSV_LIMIT = 50_000
KIND_LABELS = {"inspection": "Inspeção", "auto": "Auto de infração", "cancel_request": "Pedido de cancelamento"}
STATE_LABELS = {"recebido": "Recebido", "homologado": "Homologado", "insubsistente": "Insubsistente"}


@routes.app_context_processor
def _labels():
    return {"review_kind_label": KIND_LABELS, "review_state_label": STATE_LABELS}


def _record_or_404(rid):
    if not UUID_RE.match(rid or ""):
        abort(404)
    record = owned(FieldRecord, rid, municipality().id)
    if record is None or record.kind not in ("inspection", "auto"):
        abort(404)
    return record


def _case_or_404(rid):
    record = _record_or_404(rid)
    case = in_scope(AutoCase, record.municipality_id).filter_by(record_id=record.id).first()
    if case is None:
        abort(404)
    return record, case


@routes.get("/")
@staff_view
def queue_page():
    mid = municipality().id
    f = queue.parse_filters()
    ids, count = queue.query(mid, f)
    if request.args.get("formato") == "csv":
        return _csv(mid, queue.load(ids.limit(CSV_LIMIT)))
    page = queue.TwoEndedPage(ids, count)
    page.items = queue.load([i for (i,) in page.items])
    page_records = [r for r, _c, _n in page.items]
    extra = queue.page_details(mid, page_records)
    fiscais, pontos = queue.options(mid)
    return render_template("review/queue.html", page=page, f=f, extra=extra, fiscais=fiscais, pontos=pontos,
                           statuses=queue.STATUSES, kinds=queue.KINDS, bases=queue.BASES,
                           flag_codes=[(c, flag_label(c)) for c in FILTERABLE], flag_label=flag_label,
                           explained=explained, summary=_summary, active=queue.filters_active(f),
                           csv_args={**{k: v for k, v in request.args.items() if k != "page" and v},
                                     "formato": "csv"})


def _summary(record):
    body = details.parse_body(record.body)
    how = body.get("checklist_how") if record.kind == "auto" else provenance.summary(body)
    return {"plate": body.get("plate"), "permit": body.get("permit_number"),
            "answers_how": provenance.summary_text(how) if record.kind in ("inspection", "auto") else ""}


def _csv(mid, rows):
    extra = queue.page_details(mid, [r for r, _c, _n in rows])
    out = []
    for record, case, fiscal in rows:
        s = _summary(record)
        flags = list(record.flags or []) + (["photo_missing"] if extra[record.id]["photo_missing"] else [])
        out.append([KIND_LABELS[record.kind], record.auto_number or "", record.received_at, record.device_at,
                    fiscal, s["plate"], s["permit"], STATE_LABELS.get(case.state) if case else "",
                    ", ".join(flag_label(c) for c in flags), extra[record.id]["conflicts"],
                    extra[record.id]["cancel_pending"], s["answers_how"], record.id])
    return csv_response("revisao.csv", ["Tipo", "Número do auto", "Recebido em", "Hora do celular", "Fiscal",
                                        "Placa", vocabulary(municipality()).permit_title, "Situação do auto",
                                        "Indicadores", "Conflitos abertos", "Pedido de cancelamento",
                                        "Como as respostas foram dadas", "Registro"], out)


def _render_record(record, case=None, errors=None, status=200):
    muni = municipality()
    ctx = details.context(muni, record)
    # The stop's CTB observations, communicated apart from the municipal auto (issue 34, item 2).
    report = traffic_queries.report_for_stop(muni.id, [record.id, record.inspection_id])
    ctx["traffic"] = traffic_queries.shown(report, muni, ctx.get("rules")) if report is not None else None
    if case is not None:
        data = auto_data(case)  # the municipal auto's infractions only (a CTB one is communicated)
        signed = details.parse_body(record.body)
        inspection = owned(FieldRecord, record.inspection_id, muni.id)
        source = details.parse_body(inspection.body) if inspection else signed
        if ctx["credential"] is None and inspection is not None:
            # The crachá was read on the inspection this auto was begun from: its card says so.
            ctx["credential"] = details.credential_of(source)
            ctx["credential_from_inspection"] = ctx["credential"] is not None
        server = reevaluation.server_evaluation(muni, inspection or record, source)
        ctx.update(case=case, data=data, history=versions.history(case),
                   infractions=details.infraction_rows(ctx["rules"], data, signed),
                   requests=details.cancel_requests(case), inspection=inspection, server=server,
                   comparison=reevaluation.compare(server, source.get("evaluation"), signed.get("infractions"),
                                                   integrated=bool(traffic_authority_act(muni))),
                   audit=details.case_history(case, [record.id] + [r["record"].id for r in details.cancel_requests(case)]),
                   signatures=signed.get("signatures") if isinstance(signed.get("signatures"), dict) else {},
                   notified=operations.notified(case),
                   field_names=versions.FIELD_NAMES,
                   auto_answers_how=provenance.summary_text(signed.get("checklist_how")))
    return render_template("review/record.html", errors=errors or {}, form=request.form,
                           not_recorded=provenance.NOT_RECORDED, **ctx), status


@routes.get("/registros/<rid>")
@staff_view
def record_page(rid):
    record = _record_or_404(rid)
    case = (in_scope(AutoCase, record.municipality_id).filter_by(record_id=record.id).first()
            if record.kind == "auto" else None)
    return _render_record(record, case)


@routes.get("/registros/<rid>/respostas.csv")
@staff_view
def answers_csv(rid):
    """Every checklist answer of the record (its inspection's, for an auto) with how it was given,
    and the items not asked with the reason (issue 34)."""
    record = _record_or_404(rid)
    muni = municipality()
    source = record
    if record.kind == "auto":
        source = owned(FieldRecord, record.inspection_id, muni.id) or record
    ctx = details.context(muni, source)
    rows = [[area, it["question"], it["answer"], it["how"], "; ".join(it["citations"]), it["fact"]]
            for area, items in ctx["groups"] for it in items]
    return csv_response(f"respostas-{record.id}.csv", ["Área", "Pergunta", "Resposta", "Como foi respondida",
                                                       "Fundamento", "Fato"], rows)


def _run(record, case, operation, message):
    try:
        operation()
    except ApiError as exc:
        db.session.rollback()
        errors = dict(exc.fields or {})
        if not errors:
            errors["_"] = [exc.message]
        return _render_record(record, case, errors, exc.status)
    flash(message)
    return redirect(url_for("review.record_page", rid=record.id))


@routes.post("/registros/<rid>/decisao")
@staff_view
def decide(rid):
    record, case = _case_or_404(rid)
    action = {"homologar": "auto_homologate", "insubsistente": "auto_void"}.get(request.form.get("action"))
    if action is None:
        return _render_record(record, case, {"action": ["Escolha homologar ou declarar insubsistente."]}, 422)
    return _run(record, case, lambda: decide_case(case, action, request.form.get("reason"), actor=g.user),
                "Auto homologado." if action == "auto_homologate" else "Auto declarado insubsistente.")


@routes.post("/registros/<rid>/correcao")
@staff_view
def correct(rid):
    record, case = _case_or_404(rid)
    form = request.form
    current = versions.correctable_of(versions.current_data(case))
    changes = {}
    for key in ("plate", "permit_number", "place"):
        if key in form and (form.get(key) or "").strip() != (current.get(key) or ""):
            changes[key] = form.get(key)
    fields = {name: form.get(f"af.{name}") for name in current["auto_fields"] if f"af.{name}" in form}
    changes["auto_fields"] = {k: v for k, v in fields.items() if (v or "").strip() != (current["auto_fields"][k] or "")}
    changes["removals"] = {i["id"]: form.get(f"why.{i['id']}") for i in current["infractions"]
                           if form.get(f"remove.{i['id']}") == "1"}
    return _run(record, case, lambda: operations.correct(case, changes, form.get("reason"), actor=g.user),
                "Correção registrada como nova versão.")


@routes.post("/registros/<rid>/cancelamento/<req_id>")
@staff_view
def cancel_request(rid, req_id):
    record, case = _case_or_404(rid)
    request_record = owned(FieldRecord, req_id, case.municipality_id) if UUID_RE.match(req_id or "") else None
    if request_record is None:  # another municipality's request (or none): nothing to answer here
        abort(404)
    accept = request.form.get("answer")
    if accept not in ("aceitar", "recusar"):
        return _render_record(record, case, {"answer": ["Escolha aceitar ou recusar."]}, 422)
    return _run(record, case, lambda: operations.answer_cancel_request(
        case, request_record, accept == "aceitar", request.form.get("note"), actor=g.user),
        "Pedido aceito: auto insubsistente." if accept == "aceitar" else "Pedido recusado.")


def _conflict_or_404(cid):
    """The conflict and the record it names, both of this municipality (a conflict filed against
    another municipality's record, as the push once did, opens nothing)."""
    mid = municipality().id
    conflict = owned(FieldRecordConflict, cid, mid)
    record = owned(FieldRecord, conflict.record_id, mid) if conflict is not None else None
    if record is None:
        abort(404)
    return conflict


def _render_conflict(conflict, errors=None, status=200):
    mid = conflict.municipality_id
    record = owned(FieldRecord, conflict.record_id, mid)
    device = owned(Device, record.device_id, mid)
    original, divergent = details.parse_body(record.body), details.parse_body(conflict.body)
    rows = _field_diff(original, divergent)
    case = in_scope(AutoCase, mid).filter_by(record_id=record.id).first()
    return render_template(
        "review/conflict.html", conflict=conflict, record=record, rows=rows, case=case,
        original_ok=not signature_flags(device.public_key if device else None, record.body, record.signature),
        divergent_ok=not signature_flags(device.public_key if device else None, conflict.body, conflict.signature),
        original_pretty=details.pretty(record.body), divergent_pretty=details.pretty(conflict.body),
        errors=errors or {}, form=request.form), status


def _field_diff(a, b, prefix=""):
    """[(path, left text, right text, differs)] over both JSON objects, nested keys joined by '.'."""
    rows = []
    for key in list(dict.fromkeys([*a, *b])):
        path = f"{prefix}{key}"
        left, right = a.get(key, _ABSENT), b.get(key, _ABSENT)
        if isinstance(left, dict) and isinstance(right, dict) and len(prefix.split(".")) < 4:
            rows += _field_diff(left, right, path + ".")
        else:
            rows.append((path, _show(left), _show(right), left != right))
    return rows


_ABSENT = object()


def _show(value):
    if value is _ABSENT:
        return "(ausente)"
    return details.json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


@routes.route("/conflitos/<int(max=2147483647):cid>", methods=["GET", "POST"])
@staff_view
def conflict_page(cid):
    conflict = _conflict_or_404(cid)
    if request.method == "POST":
        choice = request.form.get("choice")
        if choice not in ("manter", "adotar"):
            return _render_conflict(conflict, {"choice": ["Escolha manter o original ou adotar a versão divergente."]}, 422)
        try:
            operations.resolve_conflict(conflict, choice == "adotar", request.form.get("note"), actor=g.user)
        except ApiError as exc:
            db.session.rollback()
            return _render_conflict(conflict, dict(exc.fields or {"_": [exc.message]}), exc.status)
        flash("Conflito resolvido.")
        return redirect(url_for("review.record_page", rid=conflict.record_id))
    return _render_conflict(conflict)


@routes.get("/fotos/<sha256>")
@staff_view
def photo(sha256):
    if not SHA_RE.match(sha256 or ""):
        abort(404)
    found = photos.find(municipality().id, sha256)
    if found is None:
        abort(404)
    if request.args.get("miniatura") != "1":
        return photos.original_response(found) or abort(404)
    data = photos.thumbnail(found)
    if data is None:
        abort(404)
    return Response(data, mimetype="image/jpeg",
                    headers={"Cache-Control": "private, max-age=86400", "X-Content-Type-Options": "nosniff"})
