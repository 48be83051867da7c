"""Back office: users and devices of the municipality (admin), operator first-access codes."""
from flask import flash, g, redirect, render_template, request, url_for
from marshmallow import ValidationError

from ...core.auth import get_scoped_or_404, login_required, require_municipality_id, scoped
from ...core.errors import ApiError, flatten_fields
from ...core.routes import RouteTable
from ...extensions import db
from ..accounts.models import Device, User
from ..accounts.operations import create_user, revoke_device, set_active, set_password
from ..accounts.schemas import PasswordSchema, UserCreateSchema
from ..operator_portal.operations import CODE_TTL_HOURS, create_operator_access
from ..registry.models import Municipality, Operator
from .access_code import SHOW_MINUTES, app_link, qr_svg, recall_code, remember_code
from .exports import export, wants_csv

routes = RouteTable()

ROLE_LABELS = {"admin": "Administrador", "backoffice": "Back office", "fiscal": "Fiscal", "operator": "Operador"}


def _reason():
    reason = (request.form.get("reason") or "").strip()
    if len(reason) < 5:
        raise ApiError(422, "validation_error", "Informe o motivo (ao menos 5 caracteres).",
                       {"reason": ["Informe o motivo (ao menos 5 caracteres)."]})
    return reason


@routes.get("/")
@login_required("admin")
def users():
    mid = require_municipality_id()
    if wants_csv():
        return _export()
    return render_template("accounts/users.html", users=scoped(User).order_by(User.role, User.name).all(),
                           devices=scoped(Device).order_by(Device.registered_at.desc()).all(),
                           roles=ROLE_LABELS, errors={}, form={}, municipality_id=mid)


def _export():
    """?formato=csv: the users; &lista=dispositivos: the devices."""
    if request.args.get("lista") == "dispositivos":
        return export("dispositivos", [
            ("Dispositivo", lambda d: d.name), ("Usuário", lambda d: d.user.username if d.user else None),
            ("Registrado em", lambda d: d.registered_at), ("Último contato", lambda d: d.last_seen_at),
            ("Situação", lambda d: "ativo" if d.status == "active" else "revogado")],
            scoped(Device).order_by(Device.registered_at.desc()))
    return export("usuarios", [
        ("Usuário", lambda u: u.username), ("Nome", lambda u: u.name), ("Matrícula", lambda u: u.registration),
        ("Perfil", lambda u: ROLE_LABELS.get(u.role, u.role)),
        ("Situação", lambda u: "ativo" if u.active else "desativado")],
        scoped(User).order_by(User.role, User.name))


@routes.post("/")
@login_required("admin")
def create():
    mid = require_municipality_id()
    errors = {}
    try:
        data = UserCreateSchema().load({k: v for k, v in request.form.items() if k != "csrf_token" and v != ""})
        create_user(mid, data)
    except ValidationError as err:
        errors = flatten_fields(err.messages)
    except ApiError as err:
        errors = err.fields
    if errors:
        return render_template("accounts/users.html", users=scoped(User).order_by(User.role, User.name).all(),
                               devices=scoped(Device).all(), roles=ROLE_LABELS, errors=errors,
                               form=request.form), 422
    flash("Usuário criado.")
    return redirect(url_for(".users"))


@routes.post("/<int:user_id>/senha")
@login_required("admin")
def reset_password(user_id):
    user = get_scoped_or_404(User, user_id)
    try:
        data = PasswordSchema().load({"password": request.form.get("password", "")})
    except ValidationError as err:
        flash(" ".join(flatten_fields(err.messages)["password"]))
        return redirect(url_for(".users"))
    set_password(user, data["password"])
    flash(f"Senha de {user.username} redefinida; sessões abertas foram encerradas.")
    return redirect(url_for(".users"))


@routes.post("/<int:user_id>/ativo")
@login_required("admin")
def toggle_active(user_id):
    user = get_scoped_or_404(User, user_id)
    if user.id == g.user.id:
        raise ApiError(409, "self", "Você não pode desativar o próprio usuário.")
    set_active(user, not user.active, _reason())
    flash(f"{user.username} {'reativado' if user.active else 'desativado'}.")
    return redirect(url_for(".users"))


@routes.post("/dispositivos/<int:device_id>/revogar")
@login_required("admin")
def revoke(device_id):
    device = get_scoped_or_404(Device, device_id)
    revoke_device(device, _reason())
    flash(f"Dispositivo {device.name} revogado.")
    return redirect(url_for(".users"))


@routes.post("/operador/<int:operator_id>/codigo")
@login_required("admin", "backoffice")
def operator_code(operator_id):
    """Create the operator's first-access code, then redirect to the page that shows it (a
    refresh of that page must not make a new code and kill the one just handed over)."""
    operator = get_scoped_or_404(Operator, operator_id)
    code = create_operator_access(operator)  # held by the request's commit, before the 303 leaves
    remember_code(operator.id, code)
    return redirect(url_for(".operator_code_show", operator_id=operator.id), code=303)


@routes.get("/operador/<int:operator_id>/codigo")
@login_required("admin", "backoffice")
def operator_code_show(operator_id):
    """The code just made, shown for a few minutes (only its hash is kept in the database)."""
    operator = get_scoped_or_404(Operator, operator_id)
    code = recall_code(operator.id)
    link = app_link(db.session.get(Municipality, operator.municipality_id).slug, code)
    return render_template("accounts/access_code.html", operator=operator, code=code,
                           hours=CODE_TTL_HOURS, app_url=link["app"], link=link["activate"],
                           qr=qr_svg(link["activate"]) if code else None, show_minutes=SHOW_MINUTES)
