"""Back office: the law as encoded (catalogue) and the municipality's rule configuration."""

from flask import Blueprint, flash, g, redirect, render_template, request, url_for

from ...core.auth import STAFF_ROLES, login_required, require_municipality_id
from ...core.errors import ApiError
from ...extensions import db
from ..registry.models import Municipality
from .citations import format_citation, penalty_label
from .service import composed_for
from .settings import (PERIOD_UNITS, VETO_OPTIONS, configurable_keys, current_values, default_values,
                       parse_value, save_value)
from ...core.clock import local_today

bp = Blueprint("rules_bo", __name__, url_prefix="/bo/regras")


def _municipality():
    return db.session.get(Municipality, require_municipality_id())


@bp.app_template_filter("citation")
def _citation_filter(citation):
    composed = g.get("_composed")
    return format_citation(composed, citation) if composed is not None else ""


@bp.app_template_filter("penalty")
def _penalty_filter(kind):
    return penalty_label(kind)


@bp.get("/")
@login_required(*STAFF_ROLES)
def catalogue():
    muni = _municipality()
    composed = g._composed = composed_for(muni)
    today = local_today().isoformat()
    return render_template("rules/catalogue.html", composed=composed, today=today,
                           sources=(muni.settings or {}).get("rules_sources", {}))


@bp.route("/configuracao", methods=["GET", "POST"])
@login_required("admin", "backoffice")
def configuration():
    muni = _municipality()
    composed = g._composed = composed_for(muni)
    keys = configurable_keys(composed)
    errors, form_key = {}, None
    if request.method == "POST":
        form_key = request.form.get("key")
        row = next((k for k in keys if k["key"] == form_key and k["kind"] == request.form.get("kind")), None)
        if row is None:
            raise ApiError(404, "not_found")
        try:
            value = parse_value(row, request.form)
            save_value(muni, row["kind"], row["key"], value, request.form.get("source"))
        except ApiError as exc:
            errors = exc.fields
        else:
            flash("Configuração salva e registrada na auditoria.")
            return redirect(url_for("rules_bo.configuration"))
    return render_template("rules/configuration.html", keys=keys, values=current_values(muni),
                           defaults=default_values(composed),
                           sources=(muni.settings or {}).get("rules_sources", {}), errors=errors,
                           form_key=form_key, veto_options=VETO_OPTIONS, period_units=PERIOD_UNITS,
                           form=request.form), (422 if errors else 200)
