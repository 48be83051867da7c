"""Notices: the back office's list (failures shown, sent again), an operator's contacts, and the
operator's API (preferences, reading a notice). Thin handlers over operations.py. Endpoints notices.*."""
from flask import current_app, g, redirect, render_template, request, url_for

from ...core.auth import api_auth, get_scoped_or_404
from ...core.errors import ApiError
from ...core.openapi import ERROR, api_doc
from ...core.routes import RouteTable
from ...extensions import db
from ..registry.models import Operator
from ..registry.scope import municipality, staff_view
from . import operations as ops
from .channels import configured_channels
from .models import CHANNELS, KINDS, NATURES, STATES, Notice, NoticeAttempt
from .schemas import ContactViewSchema, NoticePathSchema, NoticeViewSchema, PreferencesSchema
from ..autos.notification_content import process_settings

routes = RouteTable()

PROBLEM_STATES = ("falhou", "desistiu", "sem_canal")


def _form(name):
    value = request.form.get(name)
    return value if isinstance(value, str) else None


@routes.get("/bo/avisos/")
@staff_view
def notice_list():
    muni = municipality()
    state = request.args.get("situacao") or ""
    query = Notice.query.filter_by(municipality_id=muni.id)
    if state == "problemas":
        query = query.filter(Notice.state.in_(PROBLEM_STATES))
    elif state in STATES:
        query = query.filter_by(state=state)
    else:
        state = ""
    rows = query.order_by(Notice.created_at.desc(), Notice.id.desc()).limit(200).all()
    names = {o.id: o.name for o in Operator.query.filter(
        Operator.municipality_id == muni.id, Operator.id.in_({n.operator_id for n in rows} or {-1}))}
    problems = Notice.query.filter(Notice.municipality_id == muni.id, Notice.state.in_(PROBLEM_STATES)).count()
    return render_template("notices/list.html", rows=rows, names=names, state=state, states=STATES, kinds=KINDS,
                           natures=NATURES, channels=CHANNELS, problems=problems,
                           configured=sorted(configured_channels(current_app.config)))


@routes.post("/bo/avisos/<int:notice_id>/reenviar")
@staff_view
def notice_retry(notice_id):
    notice = get_scoped_or_404(Notice, notice_id)
    try:
        ops.retry(notice, g.user)
    except ApiError as exc:
        db.session.rollback()
        if exc.status != 409:
            raise
        return redirect(url_for("notices.notice_detail", notice_id=notice.id, erro=exc.message), 303)
    return redirect(url_for("notices.notice_detail", notice_id=notice.id), 303)


@routes.get("/bo/avisos/<int:notice_id>")
@staff_view
def notice_detail(notice_id):
    notice = get_scoped_or_404(Notice, notice_id)
    attempts = (NoticeAttempt.query.filter_by(notice_id=notice.id, municipality_id=notice.municipality_id)
                .order_by(NoticeAttempt.at, NoticeAttempt.id).all())
    operator = ops.operator_for_contact(notice.operator_id, notice.municipality_id)
    return render_template("notices/detail.html", notice=notice, attempts=attempts, operator=operator, states=STATES,
                           kinds=KINDS, natures=NATURES, channels=CHANNELS, error=request.args.get("erro"))


@routes.route("/bo/avisos/operador/<int:operator_id>", methods=["GET", "POST"])
@staff_view
def operator_contact(operator_id):
    operator = get_scoped_or_404(Operator, operator_id)
    errors, status = {}, 200
    if request.method == "POST":
        try:
            ops.save_contact(operator, {k: _form(k) for k in ("email", "mobile", "sms", "whatsapp", "adhered_on",
                                                                "adhesion_ref", "optional_opt_out")}, g.user)
            return redirect(url_for("notices.operator_contact", operator_id=operator.id, salvo=1), 303)
        except ApiError as exc:
            db.session.rollback()
            if exc.status != 422:
                raise
            errors, status = exc.fields or {}, 422
    contact = ops.contact_of(operator.id, operator.municipality_id)
    values = request.form if request.method == "POST" else {
        "email": (contact.email if contact else None) or "",
        "mobile": (contact.mobile if contact else operator.phone) or "",
        "sms": "1" if contact and contact.sms else "", "whatsapp": "1" if contact and contact.whatsapp else "",
        "adhered_on": contact.adhered_on.isoformat() if contact and contact.adhered_on else "",
        "adhesion_ref": (contact.adhesion_ref if contact else None) or "",
        "optional_opt_out": "1" if contact and contact.optional_opt_out else ""}
    rows = (Notice.query.filter_by(municipality_id=operator.municipality_id, operator_id=operator.id)
            .order_by(Notice.created_at.desc(), Notice.id.desc()).limit(100).all())
    return render_template("notices/contact.html", operator=operator, values=values, errors=errors, rows=rows,
                           states=STATES, kinds=KINDS, natures=NATURES, channels=CHANNELS,
                           saved=bool(request.args.get("salvo")),
                           act=(process_settings(municipality()).get("electronic_service_act") or "").strip()), status


# --- the operator's API ----------------------------------------------------------------------------

@routes.get("/api/v1/operator/notices/preferences")
@api_auth("operator")
@api_doc(summary="Contatos para avisos e a preferência de avisos opcionais", tags=["operator"],
         responses={200: ContactViewSchema})
def preferences():
    return ops.contact_view(g.user)


@routes.put("/api/v1/operator/notices/preferences")
@api_auth("operator")
@api_doc(summary="Recusar (ou voltar a aceitar) os avisos opcionais", tags=["operator"], body=PreferencesSchema,
         responses={200: ContactViewSchema})
def preferences_put(body):
    ops.set_optional_opt_out(g.user, body["optional_opt_out"])
    return ops.contact_view(g.user)


@routes.post("/api/v1/operator/notices/<int:notice_id>/read")
@api_auth("operator")
@api_doc(summary="Aviso lido no aplicativo (numa intimação eletrônica: a ciência)", tags=["operator"],
         path=NoticePathSchema, responses={200: NoticeViewSchema, 404: ERROR, 409: ERROR, 422: ERROR})
def notice_read(notice_id):
    return ops.notice_view(ops.acknowledge(g.user, notice_id))
