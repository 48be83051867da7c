"""LGPD requests of an operator or auxiliary driver, and the retention settings (admin only,
scoped to the user's municipality, audited)."""
from flask import Response, flash, redirect, render_template, request, url_for

from ...core.audit import record
from ...core.auth import get_scoped_or_404, login_required
from ...core.clock import local_today
from ...core.errors import ApiError
from ...core.routes import RouteTable
from ...extensions import db
from ..registry.scope import municipality, staff_view
from ..registry.models import Municipality, Operator
from .anonymise import verdict
from .export import bundle, collect, pdf
from .rectification import rectification_trail
from .retention import READINGS, SOURCE_KEYS, configured, retention_settings, save_retention_settings

routes = RouteTable()


@routes.get("/operadores/<int:ident>")
@login_required("admin")
def request_page(ident):
    operator = get_scoped_or_404(Operator, ident)
    settings = retention_settings(db.session.get(Municipality, operator.municipality_id))
    status = verdict(operator, settings, local_today()) if configured(settings) else None
    return render_template("lgpd/request.html", operator=operator, trail=rectification_trail(operator),
                           retention=status)


@routes.post("/operadores/<int:ident>/exportar.<kind>")
@login_required("admin")
def export(ident, kind):
    operator = get_scoped_or_404(Operator, ident)
    if kind not in ("zip", "pdf"):
        return Response(status=404)
    data = collect(operator)
    body = bundle(operator, data) if kind == "zip" else pdf(operator, data)
    record("lgpd_export", "operator", operator.id, None, {"format": kind, "tables": sorted(data)},
           reason="Pedido do titular (LGPD art. 18)", municipality_id=operator.municipality_id)
    mimetype = "application/zip" if kind == "zip" else "application/pdf"
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": f'attachment; filename="lgpd-operador-{operator.id}.{kind}"', "Cache-Control": "no-store"})


@routes.route("/retencao", methods=["GET", "POST"])
@staff_view
@login_required("admin")
def retention_page():
    muni = municipality()
    errors, values = {}, retention_settings(muni)
    if request.method == "POST":
        try:
            save_retention_settings(muni, request.form)
            flash("Prazos de retenção salvos.")
            return redirect(url_for("lgpd.retention_page"))
        except ApiError as err:  # refused before anything is staged; the 422 rolls back anyway
            errors, values = err.fields or {}, request.form
    return render_template("lgpd/retention.html", readings=READINGS, source_keys=SOURCE_KEYS, values=values,
                           saved=retention_settings(muni), errors=errors), (422 if errors else 200)
