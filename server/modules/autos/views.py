"""Thin handlers: parse → scope → operation → render. Every write is a process_operations call."""
import json

from flask import Response, current_app, g, redirect, render_template, request, url_for

from ...core.auth import STAFF_ROLES, get_scoped_or_404, login_required, require_municipality_id
from ...core.clock import local_today
from ...core.csv_export import csv_response
from ...core.errors import ApiError
from ...core.tenancy import crosses_municipalities, owned
from ...core.http import bounded_int
from ...core.routes import RouteTable
from ...extensions import db, limiter
from . import process_operations as ops
from .auto_data import amount_words, auto_data, confirmed_infractions
from .models import AutoCase
from .notification_pdf import notification_pdf_bytes
from .outcome import current_step
from .process_models import (APPEAL_DECISIONS, DECISION_SERVICE_WAYS, FEE_KINDS, SERVICE_WAYS, SEIZURE_KINDS, STORAGE_DAY_COUNTS,
                             AutoAppeal, AutoPayment, AutoPenalty, Seizure)
from .notification_content import process_settings, steps_title
from .operator_filings import timeliness_pt
from .public_check import check_code
from .seizure_pdf import seizure_pdf_bytes
from .ledger import csv_rows, ledger
from ..registry.models import Municipality, Operator, Permit
from ..registry.vocabulary import vocabulary
from ..rules.configuration_page import anchor
from ..rules.service import composed_for

routes = RouteTable()

PENALTY_STATE_PT = {"pendente": "Pendente", "suspensa": "Suspensa (efeito suspensivo)", "aplicada": "Aplicada",
                    "anulada": "Anulada", "registro_cancelado": "Registro cancelado"}
CASE_STATE_PT = {"recebido": "Recebido (aguarda revisão)", "homologado": "Homologado",
                 "insubsistente": "Insubsistente"}


def _labels(municipality_id):
    """Infraction id → the law's label, for tables (the id stays in CSVs)."""
    return {inf["id"]: inf.get("label_pt") or inf["id"]
            for inf in composed_for(db.session.get(Municipality, municipality_id)).infractions}


def _page(case, errors=None, values=None, status=200):
    note = ops.notification_of(case)
    appeals = ops.appeals_of(case)
    steps = ops.steps_for(case)
    step, due_on = current_step(steps, note.served_on if note and note.served_on else None, appeals,
                                ops.calendar_for_case(case))
    content = json.loads(note.content) if note else None
    data = auto_data(case)
    municipality = db.session.get(Municipality, case.municipality_id)
    seizures = Seizure.query.filter_by(case_id=case.id).order_by(Seizure.seized_on, Seizure.id).all()
    return render_template(
        "autos/process.html", case=case, note=note, content=content, appeals=appeals,
        steps=ops.described_steps(municipality, steps), steps_word=steps_title([s["kind"] for s in steps]).lower(),
        next_step=step, next_due=due_on, next_waits_for_decision_service=_waits_for_decision_service(step, appeals),
        infractions=confirmed_infractions(data),
        penalties=AutoPenalty.query.filter_by(case_id=case.id).order_by(AutoPenalty.id).all(),
        payments=AutoPayment.query.filter_by(case_id=case.id).order_by(AutoPayment.paid_on, AutoPayment.id).all(),
        seizures=seizures, fees={s.id: ops.seizure_statement(s) for s in seizures}, fee_kinds=FEE_KINDS,
        fee_settings=ops.fee_settings(municipality), seizure_law=ops.seizure_law(municipality),
        service_ways=SERVICE_WAYS, decision_service_ways=DECISION_SERVICE_WAYS, decisions=APPEAL_DECISIONS, seizure_kinds=SEIZURE_KINDS,
        timeliness={a.id: timeliness_pt(a) for a in appeals},
        penalty_state=PENALTY_STATE_PT, case_state=CASE_STATE_PT, errors=errors or {}, values=values or {},
        today=local_today(), labels=_labels(case.municipality_id), settings=process_settings(municipality),
        infraction_options=[("", "Todo o auto")] + [(i["id"], i.get("label_pt") or i["id"]) for i in confirmed_infractions(data)],
        payment_options=[("", "Nenhum")] + [(str(p.id), f"Guia {p.guia_number}")
                                            for p in AutoPayment.query.filter_by(case_id=case.id).order_by(AutoPayment.id)], operator_signed=bool((data.get("signatures") or {}).get("operator"))
        if isinstance(data.get("signatures"), dict) else False), status


def _waits_for_decision_service(step, appeals):
    """The decision before `step` whose ciência is not recorded yet (its period has not started), or None."""
    if step is None or step["level"] == 1:
        return None
    return next((a for a in appeals if a.level == step["level"] - 1 and a.decision == "indeferido"
                 and not a.late and a.decision_known_on is None), None)


@routes.get("/autos/<int:case_id>/processo")
@login_required(*STAFF_ROLES)
def process_page(case_id):
    return _page(get_scoped_or_404(AutoCase, case_id))


def _form(name):
    value = request.form.get(name)
    return value if isinstance(value, str) else None


def _child(model, raw, case):
    ident = bounded_int(raw, 1)
    obj = owned(model, ident, case.municipality_id) if ident else None
    if obj is None or obj.case_id != case.id:
        raise ApiError(404, "not_found")
    return obj


ACTIONS = {
    "notificar": lambda case: ops.issue_notification(case, g.user),
    "ciencia": lambda case: ops.record_service(case, _form("via"), _form("served_on"), _form("note"), g.user),
    "defesa": lambda case: ops.file_appeal(case, _form("filed_on"), _form("summary"), g.user),
    "decisao": lambda case: ops.decide_appeal(_child(AutoAppeal, _form("appeal_id"), case), _form("decision"),
                                              _form("decision_text"), _form("decided_on"), _form("infraction_id"), g.user),
    "ciencia_decisao": lambda case: ops.record_decision_service(_child(AutoAppeal, _form("appeal_id"), case),
                                                                _form("decision_known_via"), _form("decision_known_on"),
                                                                _form("decision_known_note"), g.user),
    "pagamento": lambda case: ops.record_payment(case, _form("guia_number"), _form("paid_on"), _form("amount"), g.user),
    "apreensao": lambda case: ops.record_seizure(case, _form("kind"), _form("seized_on"), g.user),
    "liberacao": lambda case: ops.release_seizure(_child(Seizure, _form("seizure_id"), case), _form("released_on"),
                                                  _form("alvara"), _form("payment_id"), g.user),
    "taxa": lambda case: ops.record_fee_payment(_child(Seizure, _form("seizure_id"), case), _form("charge_id"),
                                                _form("guia_number"), _form("paid_on"), _form("amount"), g.user),
}


@routes.post("/autos/<int:case_id>/processo/<action>")
@login_required(*STAFF_ROLES)
def process_action(case_id, action):
    case = get_scoped_or_404(AutoCase, case_id)
    if action not in ACTIONS:
        raise ApiError(404, "not_found")
    try:
        ACTIONS[action](case)
    except ApiError as exc:
        db.session.rollback()
        if exc.status not in (409, 422):
            raise
        # Shown next to the form: a field's reason, or why the step is not possible now.
        return _page(case, {action: exc.fields or {"_schema": [exc.message]}}, {action: request.form}, exc.status)
    return redirect(url_for("autos.process_page", case_id=case.id, _anchor=f"form-{action}"), 303)


@routes.get("/autos/<int:case_id>/notificacao.pdf")
@login_required(*STAFF_ROLES)
def notification_pdf(case_id):
    case = get_scoped_or_404(AutoCase, case_id)
    note = ops.notification_of(case)
    if note is None:
        raise ApiError(404, "not_found")
    return Response(notification_pdf_bytes(note), mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="notificacao-{note.serial}.pdf"',
                             "Cache-Control": "no-store"})


@routes.get("/autos/<int:case_id>/apreensao/<int:seizure_id>.pdf")
@login_required(*STAFF_ROLES)
def seizure_pdf(case_id, seizure_id):
    """The seizure's paper: release term (or, while held, the statement of its fees)."""
    case = get_scoped_or_404(AutoCase, case_id)
    seizure = _child(Seizure, str(seizure_id), case)
    return Response(seizure_pdf_bytes(case, seizure, db.session), mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="apreensao-{seizure.id}.pdf"',
                             "Cache-Control": "no-store"})


@routes.get("/autos/<int:case_id>/processo.csv")
@login_required(*STAFF_ROLES)
def process_csv(case_id):
    case = get_scoped_or_404(AutoCase, case_id)
    rows = [[p.infraction_id, PENALTY_STATE_PT.get(p.state, p.state), p.applied_on,
             # Never an empty cell read as zero: why there is no amount (auto_data.amount_words).
             amount_words(None, penalty_kind=p.penalty) if p.amount_brl_cents is None else p.amount_brl_cents / 100,
             p.state_reason]
            for p in AutoPenalty.query.filter_by(case_id=case.id).order_by(AutoPenalty.id)]
    return csv_response(f"auto-{case.id}-penalidades.csv",
                        ["Infração", "Situação", "Aplicada em", "Valor (R$)", "Motivo"], rows)


# --- public check -------------------------------------------------------------------------------

@crosses_municipalities("public look-up: the signed notification code names its municipality")
def _public(code):
    result = check_code(code)
    steps = steps_title([s.get("kind") for s in (result.get("content") or {}).get("instances") or []])
    response = current_app.make_response((render_template("autos/notification_public.html", result=result,
                                                          steps_title=steps),
                                          200 if result["authentic"] else 404))
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


@routes.get("/N/", defaults={"code": ""})
@routes.get("/N/<path:code>")
@limiter.limit("60 per minute")
def public_notification(code):
    """The notification's QR: HTTPS://HOST/N/<base32 code>."""
    return _public(code)


@routes.get("/n/", defaults={"code": ""})
@routes.get("/n/<path:code>")
@limiter.limit("60 per minute")
def public_notification_lower(code):
    """Typed by hand or lower-cased by an app: the code is case-folded only when all lower case."""
    return _public(code.upper() if code == code.lower() else code)


# --- ledger per operator and per permit -----------------------------------------------------------

LEDGER_LISTS = {"autos": "Autos", "penalidades": "Penalidades", "pagamentos": "Pagamentos", "apreensoes": "Apreensões",
                "taxas": "Taxas de remoção e pátio"}


def _ledger_owner(kind, ident):
    if kind == "operador":
        operator = get_scoped_or_404(Operator, ident)
        return operator.name, [operator.id], None, url_for("backoffice.operator_detail", ident=operator.id)
    permit = get_scoped_or_404(Permit, ident)
    people = {d.id for d in permit.drivers} | ({permit.holder_operator_id} if permit.holder_operator_id else set())
    vocab = vocabulary(db.session.get(Municipality, permit.municipality_id))
    return vocab.numbered(permit.number), sorted(people), permit.id, url_for("backoffice.permit_detail", ident=permit.id)


@routes.get("/autos/ficha/<any(operador, permissao):kind>/<int:ident>")
@login_required(*STAFF_ROLES)
def ledger_page(kind, ident):
    title, operator_ids, permit_id, back = _ledger_owner(kind, ident)
    data = ledger(require_municipality_id(), operator_ids, permit_id)
    return render_template("autos/ledger.html", labels=_labels(require_municipality_id()), title=title, back=back, kind=kind, ident=ident, lists=LEDGER_LISTS,
                           penalty_state=PENALTY_STATE_PT, case_state=CASE_STATE_PT, seizure_kinds=SEIZURE_KINDS,
                           fee_kinds=FEE_KINDS, **data)


@routes.get("/autos/ficha/<any(operador, permissao):kind>/<int:ident>/<any(autos, penalidades, pagamentos, apreensoes, taxas):lista>.csv")
@login_required(*STAFF_ROLES)
def ledger_csv(kind, ident, lista):
    _, operator_ids, permit_id, _ = _ledger_owner(kind, ident)
    data = ledger(require_municipality_id(), operator_ids, permit_id)
    header, rows = csv_rows(data, lista, {"case": CASE_STATE_PT, "penalty": PENALTY_STATE_PT, "seizure": SEIZURE_KINDS})
    return csv_response(f"ficha-{kind}-{ident}-{lista}.csv", header, rows)


# --- settings of the process the laws leave open -------------------------------------------------

@routes.route("/autos/processo/configuracao", methods=["GET", "POST"])
@login_required(*STAFF_ROLES)
def process_settings_page():
    municipality = db.session.get(Municipality, require_municipality_id())
    errors, status = {}, 200
    if request.method == "POST":
        try:
            ops.save_process_settings(municipality, {k: _form(k) for k in ops.SETTING_FIELDS}, g.user)
            return redirect(url_for("autos.process_settings_page"), 303)
        except ApiError as exc:
            db.session.rollback()
            if exc.status != 422:
                raise
            errors, status = exc.fields or {}, 422
    current, fees = process_settings(municipality), ops.fee_settings(municipality)
    values = request.form if request.method == "POST" else {
        "authority_pt": current.get("authority_pt") or "", "edital_basis_pt": current.get("edital_basis_pt") or "",
        "electronic_service_act": current.get("electronic_service_act") or "",
        "traffic_authority_act": current.get("traffic_authority_act") or "",
        "removal_fee": _cents_text(current.get("removal_fee_cents")),
        "removal_fee_act": current.get("removal_fee_act") or current.get("source") or "",
        "storage_fee_daily": _cents_text(current.get("storage_fee_daily_cents")),
        "storage_fee_act": current.get("storage_fee_act") or current.get("source") or "",
        "storage_day_count": current.get("storage_day_count") or "",
        "release_requires_fees": "1" if current.get("release_requires_fees") else ""}
    return render_template("autos/settings.html", fields=ops.SETTING_FIELDS, values=values, errors=errors,
                           day_counts=STORAGE_DAY_COUNTS, fees=fees, seizure_law=ops.seizure_law(municipality),
                           steps=ops.described_steps(municipality, ops.steps_for_municipality(municipality)),
                           rules_anchor=_rules_anchor), status


def _rules_anchor(config_key):
    """Link to a deadline's row on Configuração das regras (where days and their act are saved)."""
    return url_for("rules_bo.configuration", _anchor=anchor({"kind": "deadlines", "key": config_key}))


def _cents_text(cents):
    return "" if cents is None else f"{cents / 100:.2f}".replace(".", ",")
