"""The platform administrator's screen: municipalities, a new one, and its first administrator."""
from flask import abort, flash, redirect, render_template, request, url_for

from ...core.auth import is_global_admin, login_required
from ...core.errors import ApiError
from ...core.tenancy import crosses_municipalities
from ...core.routes import RouteTable
from ...extensions import db
from ..accounts.models import User
from ..registry.models import Municipality
from ..rules.service import federal_only
from .operations import NO_PACK, create_admin, create_municipality, municipal_packs

routes = RouteTable()


def _platform_admin():
    if not is_global_admin():
        abort(403)


def _page(errors=None, form=None, admin_errors=None, admin_form=None, status=200):
    municipalities = Municipality.query.order_by(Municipality.name).all()
    admins = {m.id: [u.username for u in User.query.filter_by(municipality_id=m.id, role="admin").order_by(User.username)]
              for m in municipalities}
    packs = [(pack, f"{pack} ({slug})") for pack, slug in sorted(municipal_packs().items())]
    packs.append((NO_PACK, "Nenhum: a lei do município ainda não tem pacote (só regras federais)"))
    return render_template("onboarding/municipalities.html", municipalities=municipalities, admins=admins,
                           packs=packs, federal_only=federal_only, errors=errors or {}, form=form or {},
                           admin_errors=admin_errors or {}, admin_form=admin_form or {}), status


@routes.get("/municipios")
@login_required("admin")
@crosses_municipalities("platform administration: every municipality and its administrators")
def municipalities():
    _platform_admin()
    return _page()


@routes.post("/municipios")
@login_required("admin")
@crosses_municipalities("platform administration: every municipality and its administrators")
def create():
    _platform_admin()
    form = request.form
    try:
        muni = create_municipality(form.get("ibge_code"), form.get("name"), form.get("uf"), form.get("pack"),
                                   form.get("time_zone"), form.get("public_base_url"))
    except ApiError as err:
        db.session.rollback()
        return _page(errors=err.fields or {"_": [err.message]}, form=form, status=422)
    flash(f"Município {muni.name} criado, com a primeira chave de assinatura dos crachás.")
    return redirect(url_for(".municipalities"))


@routes.post("/municipios/<int:municipality_id>/administrador")
@login_required("admin")
@crosses_municipalities("platform administration: every municipality and its administrators")
def create_municipality_admin(municipality_id):
    _platform_admin()
    muni = db.session.get(Municipality, municipality_id) or abort(404)
    form = request.form
    try:
        user = create_admin(muni, form.get("username", ""), form.get("name", ""), form.get("password", ""))
    except ApiError as err:
        db.session.rollback()
        return _page(admin_errors={muni.id: err.fields or {"_": [err.message]}}, admin_form=form, status=422)
    flash(f"Administrador {user.username} criado para {muni.name}.")
    return redirect(url_for(".municipalities"))
