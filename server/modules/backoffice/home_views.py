"""The back office's entry pages: the dashboard and the global admin's choice of municipality.
Thin handlers: parse → check access → operation → render."""
from datetime import timedelta

from flask import abort, g, redirect, render_template, request, session, url_for
from sqlalchemy.orm import joinedload

from ...core.auth import STAFF_ROLES, current_municipality_id, is_global_admin, login_required
from ...core.clock import local_today
from ...core.http import bounded_int
from ...core.routes import RouteTable
from ...core.tenancy import crosses_municipalities
from ...extensions import db
from ..dashboard.page import dashboard_data
from ..issuance.records import issqn_arrears_count, vistoria_period_months
from ..onboarding.first_day import first_day_items, pending_required
from ..registry.models import Municipality, Permit
from ..registry.vocabulary import vocabulary
from .permit_views import ALERTS, alert_condition

routes = RouteTable()


@routes.get("/")
def root():
    return redirect(url_for("backoffice.dashboard"))


@routes.get("/favicon.ico")
def favicon():
    """Browsers that ask /favicon.ico without reading the page's <link rel="icon">."""
    return redirect(url_for("static", filename="favicon.svg"), code=301)


@routes.get("/bo/")
@login_required(*STAFF_ROLES)
def dashboard():
    mid = current_municipality_id()
    if mid is None:
        return redirect(url_for("backoffice.choose_municipality"))
    counts = dict(db.session.query(Permit.status, db.func.count(Permit.id))
                  .filter(Permit.municipality_id == mid).group_by(Permit.status).all())
    scoped_permits = Permit.query.filter(Permit.municipality_id == mid)
    muni = db.session.get(Municipality, mid)
    months = vistoria_period_months(muni)
    alerts = {key: scoped_permits.filter(alert_condition(key, vistoria_months=months)).count() for key in ALERTS}
    expiring = (scoped_permits.filter(alert_condition("vence30"))
                .options(joinedload(Permit.holder_operator), joinedload(Permit.holder_company))  # holder_name, one query
                .order_by(Permit.valid_until, Permit.id).limit(10).all())
    return render_template("backoffice/dashboard.html", counts=counts, first_day_pending=_first_day_pending(muni), statuses=vocabulary(
                               db.session.get(Municipality, mid)).statuses,
                           alerts=alerts, alert_labels=ALERTS, expiring=expiring,
                           issqn_arrears=issqn_arrears_count(muni, local_today()),
                           horizon=local_today() + timedelta(days=30), **dashboard_data(mid, request.args))


def _first_day_pending(muni):
    """The required first-day items still pending, for the municipality's administrator only:
    the dashboard links the first-day screen until there are none."""
    if g.user.role != "admin":
        return []
    return pending_required(first_day_items(muni))


@routes.route("/bo/municipio", methods=["GET", "POST"])
@login_required("admin")
@crosses_municipalities("platform administration: the platform administrator picks a municipality")
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
