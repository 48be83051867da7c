"""LGPD requests of an operator or auxiliary driver (admin only, scoped, audited)."""
from flask import Blueprint, Response, render_template

from ...core.audit import AuditLog, record
from ...core.auth import get_scoped_or_404, login_required
from ...extensions import db
from ..registry.models import Operator
from .export import bundle, collect, pdf

bp = Blueprint("lgpd", __name__, url_prefix="/bo/lgpd")


@bp.get("/operadores/<int:ident>")
@login_required("admin")
def request_page(ident):
    operator = get_scoped_or_404(Operator, ident)
    return render_template("lgpd/request.html", operator=operator, trail=rectification_trail(operator))


def rectification_trail(operator):
    """LGPD art. 18, III: every correction of the titular's record, as the audit log kept it
    (registry.operations.save_entity records each change with its before and after)."""
    entries = (AuditLog.query.filter(AuditLog.entity == "operator", AuditLog.entity_id == str(operator.id),
                                     AuditLog.action.in_(("create", "update", "photo")))
               .order_by(AuditLog.id).all())
    trail = []
    for entry in entries:
        before, after = entry.before or {}, entry.after or {}
        changed = [(k, before.get(k), after.get(k)) for k in sorted(set(before) | set(after))
                   if before.get(k) != after.get(k) and k not in ("name_search",)]
        trail.append((entry, changed))
    return trail


@bp.post("/operadores/<int:ident>/exportar.<kind>")
@login_required("admin")
def export(ident, kind):
    operator = get_scoped_or_404(Operator, ident)
    if kind not in ("zip", "pdf"):
        return Response(status=404)
    data = collect(operator)
    body = bundle(operator, data) if kind == "zip" else pdf(operator, data)
    record("lgpd_export", "operator", operator.id, None, {"format": kind, "tables": sorted(data)},
           reason="Pedido do titular (LGPD art. 18)", municipality_id=operator.municipality_id)
    db.session.commit()
    mimetype = "application/zip" if kind == "zip" else "application/pdf"
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": f'attachment; filename="lgpd-operador-{operator.id}.{kind}"', "Cache-Control": "no-store"})
