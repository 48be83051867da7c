"""Back office of the fines' collection (issue 37): PIX settings with their acts, the charges,
statement imports and the clerk's queue of unmatched lines. Thin handlers over settings.py,
charges.py and reconcile.py. Endpoints collection_bo.*."""
from flask import Response, g, redirect, render_template, request, url_for

from ...core.auth import get_scoped_or_404
from ...core.clock import local_today
from ...core.errors import ApiError
from ...core.http import bounded_int
from ...core.tenancy import owned
from ...core.routes import RouteTable
from ...extensions import db
from ..autos.models import AutoCase
from ..registry.scope import municipality, staff_view
from . import charges as charge_ops
from . import reconcile
from .brcode import KEY_TYPES
from .models import CHARGE_STATES, LINE_STATES, PixCharge, StatementImport, StatementLine
from .penalty_pdf import penalty_pdf_bytes
from .settings import INTEREST_BASES, SETTING_FIELDS, collection_settings, save_settings, slip_refusal

routes = RouteTable()


def _form(name):
    value = request.form.get(name)
    return value if isinstance(value, str) else None


@routes.get("/")
@staff_view
def overview():
    muni = municipality()
    settings = collection_settings(muni)
    charges = (PixCharge.query.filter_by(municipality_id=muni.id)
               .order_by(PixCharge.state, PixCharge.created_at.desc(), PixCharge.id.desc()).limit(200).all())
    numbers = {c.id: c.number for c in AutoCase.query.filter(
        AutoCase.municipality_id == muni.id, AutoCase.id.in_([ch.case_id for ch in charges] or [-1]))}
    pending = StatementLine.query.filter_by(municipality_id=muni.id, state="pendente").count()
    return render_template("collection/overview.html", settings=settings, refusal=slip_refusal(settings),
                           charges=charges, numbers=numbers, pending=pending, states=CHARGE_STATES,
                           key_types=KEY_TYPES, errors=request.args.get("erro"))


@routes.route("/configuracao", methods=["GET", "POST"])
@staff_view
def settings_page():
    muni = municipality()
    errors, status = {}, 200
    if request.method == "POST":
        try:
            save_settings(muni, {k: _form(k) for k in SETTING_FIELDS}, g.user)
            return redirect(url_for("collection_bo.overview"), 303)
        except ApiError as exc:
            db.session.rollback()
            if exc.status != 422:
                raise
            errors, status = exc.fields or {}, 422
    current = collection_settings(muni)
    values = request.form if request.method == "POST" else {
        k: ("1" if current.get(k) else "") if k == "dam_used" else ("" if current.get(k) is None else str(current.get(k)))
        for k in SETTING_FIELDS}
    return render_template("collection/settings.html", fields=SETTING_FIELDS, values=values, errors=errors,
                           key_types=KEY_TYPES, bases=INTEREST_BASES, municipality=muni), status


@routes.route("/extratos", methods=["GET", "POST"])
@staff_view
def statements():
    muni = municipality()
    errors, status, done = {}, 200, None
    if request.method == "POST":
        upload = request.files.get("file")
        data = upload.read(reconcile.MAX_BYTES + 1) if upload else b""
        try:
            done = reconcile.import_statement(muni, upload.filename if upload else "", data, g.user)
            return redirect(url_for("collection_bo.statements", importado=done.id), 303)
        except ApiError as exc:
            db.session.rollback()
            if exc.status != 422:
                raise
            errors, status = exc.fields or {}, 422
    imported = owned(StatementImport, bounded_int(request.args.get("importado"), 1), muni.id) \
        if request.args.get("importado") else None
    imports = (StatementImport.query.filter_by(municipality_id=muni.id)
               .order_by(StatementImport.imported_at.desc(), StatementImport.id.desc()).limit(50).all())
    return render_template("collection/statements.html", imports=imports, imported=imported, errors=errors), status


def _queue(errors=None, values=None, status=200):
    muni = municipality()
    lines = (StatementLine.query.filter_by(municipality_id=muni.id, state="pendente")
             .order_by(StatementLine.posted_on, StatementLine.id).all())
    resolved = (StatementLine.query.filter(StatementLine.municipality_id == muni.id,
                                           StatementLine.state.in_(("vinculada", "descartada", "conciliada")))
                .order_by(StatementLine.id.desc()).limit(30).all())
    open_charges = (PixCharge.query.filter_by(municipality_id=muni.id, state="aberta")
                    .order_by(PixCharge.txid).limit(500).all())
    return render_template("collection/queue.html", lines=lines, resolved=resolved, states=LINE_STATES,
                           open_charges=open_charges, errors=errors or {}, values=values or {}), status


@routes.get("/pendencias")
@staff_view
def queue():
    return _queue()


@routes.post("/lancamentos/<int:line_id>/<any(vincular, descartar):action>")
@staff_view
def line_action(line_id, action):
    line = get_scoped_or_404(StatementLine, line_id)
    try:
        if action == "vincular":
            reconcile.link_line(line, _form("txid"), _form("note"), g.user)
        else:
            reconcile.discard_line(line, _form("note"), g.user)
    except ApiError as exc:
        db.session.rollback()
        if exc.status not in (409, 422):
            raise
        return _queue({line_id: exc.fields or {"_schema": [exc.message]}}, {line_id: request.form}, exc.status)
    return redirect(url_for("collection_bo.queue"), 303)


@routes.post("/multas/<int:charge_id>/dam")
@staff_view
def charge_dam(charge_id):
    charge = get_scoped_or_404(PixCharge, charge_id)
    try:
        charge_ops.set_dam_number(charge, _form("dam_number"), g.user)
    except ApiError as exc:
        db.session.rollback()
        if exc.status != 422:
            raise
        return redirect(url_for("collection_bo.overview", erro=f"DAM não registrado: {' '.join(exc.fields.get('dam_number', []))}"), 303)
    return redirect(url_for("collection_bo.overview", _anchor=f"charge-{charge.id}"), 303)


@routes.get("/autos/<int:case_id>/penalidade.pdf")
@staff_view
def penalty_pdf(case_id):
    case = get_scoped_or_404(AutoCase, case_id)
    if not charge_ops.charges_of_case(case):
        raise ApiError(404, "not_found")
    return Response(penalty_pdf_bytes(case, local_today()), mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="penalidade-{case.id}.pdf"',
                             "Cache-Control": "no-store"})
