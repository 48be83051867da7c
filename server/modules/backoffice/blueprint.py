"""Back-office pages. Thin handlers: parse → check access → operation → render.

The registry, permit and settings screens live in their own modules and attach to `bp` when
imported at the bottom of this file.
"""
from datetime import timedelta

from flask import Blueprint, abort, current_app, g, redirect, render_template, request, session, url_for
from sqlalchemy.orm import joinedload

from ...core.clock import local_today, to_local
from ...core.auth import STAFF_ROLES, current_municipality_id, is_global_admin, login_required
from ...core.http import bounded_int
from ...extensions import db
from ...core.audit_labels import action_label, entity_label, field_label
from ..registry.models import Municipality, Permit
from ..registry.vocabulary import vocabulary
from ..dashboard.page import dashboard_data
from ...core import ptbr
from .exports import export_args

bp = Blueprint("backoffice", __name__)


@bp.app_context_processor
def _inject():
    mid = current_municipality_id() if g.get("user") else None
    muni = db.session.get(Municipality, mid) if mid else None
    return {
        "current_municipality": muni,
        # The municipality's own words for its permit and holder (registry.vocabulary).
        "vocab": vocabulary(muni),
        "action_label": action_label,
        "entity_label": entity_label,
        "field_label": field_label,
        "is_global_admin": is_global_admin() if g.get("user") else False,
        "is_staff": g.get("user") is not None and g.user.role in STAFF_ROLES,
        # Screens of other features appear in the nav only when their blueprint is registered.
        "has_endpoint": lambda endpoint: endpoint in current_app.view_functions,
    }


@bp.app_template_filter("localtime")
def _localtime(value, fmt="%d/%m/%Y %H:%M"):
    """A stored UTC timestamp in the municipality's time zone (config TIMEZONE)."""
    if value is None:
        return "—"
    return to_local(value).strftime(fmt)


bp.add_app_template_global(export_args, "export_args")  # "Exportar CSV" (exports.py, _export.html)
bp.add_app_template_filter(ptbr.brl, "brl")
bp.add_app_template_filter(ptbr.brl_cents, "brl_cents")
bp.add_app_template_filter(ptbr.date_br, "date_br")


@bp.get("/")
def root():
    return redirect(url_for("backoffice.dashboard"))


@bp.get("/favicon.ico")
def favicon():
    """Browsers that ask /favicon.ico without reading the page's <link rel="icon">."""
    return redirect(url_for("static", filename="favicon.svg"), code=301)


@bp.get("/bo/")
@login_required(*STAFF_ROLES)
def dashboard():
    from .permit_views import ALERTS, alert_condition

    mid = current_municipality_id()
    if mid is None:
        return redirect(url_for("backoffice.choose_municipality"))
    counts = dict(db.session.query(Permit.status, db.func.count(Permit.id))
                  .filter(Permit.municipality_id == mid).group_by(Permit.status).all())
    scoped_permits = Permit.query.filter(Permit.municipality_id == mid)
    from ..issuance.records import issqn_arrears_count, vistoria_period_months
    muni = db.session.get(Municipality, mid)
    months = vistoria_period_months(muni)
    alerts = {key: scoped_permits.filter(alert_condition(key, vistoria_months=months)).count() for key in ALERTS}
    expiring = (scoped_permits.filter(alert_condition("vence30"))
                .options(joinedload(Permit.holder_operator), joinedload(Permit.holder_company))  # holder_name, one query
                .order_by(Permit.valid_until, Permit.id).limit(10).all())
    return render_template("backoffice/dashboard.html", counts=counts, statuses=vocabulary(
                               db.session.get(Municipality, mid)).statuses,
                           alerts=alerts, alert_labels=ALERTS, expiring=expiring,
                           issqn_arrears=issqn_arrears_count(muni, local_today()),
                           horizon=local_today() + timedelta(days=30), **dashboard_data(mid, request.args))


@bp.route("/bo/municipio", methods=["GET", "POST"])
@login_required("admin")
def choose_municipality():
    if not is_global_admin():
        abort(403)
    if request.method == "POST":
        muni = db.session.get(Municipality, bounded_int(request.form.get("municipality_id"), 1) or 0)
        if muni is None:
            abort(404)
        session["municipality_id"] = muni.id
        return redirect(url_for("backoffice.dashboard"))
    return render_template("backoffice/choose_municipality.html",
                           municipalities=Municipality.query.order_by(Municipality.name).all())


# Screens that attach their routes to `bp` (imported last: they import `bp` from here).
from . import calendar_views, permit_views, photo_views, registry_views, settings_views  # noqa: E402,F401
from . import life_views  # noqa: E402,F401  (after permit_views, which it extends)
from . import issuance_views  # noqa: E402,F401
