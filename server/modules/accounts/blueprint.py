"""Back-office login and logout (session cookie, CSRF, rate-limited)."""
from flask import Blueprint, flash, g, redirect, render_template, request, url_for

from . import api

from ...core.audit import record
from ...core.auth import utcnow
from ...core.http import safe_redirect_target
from ...core.ratelimit import login_limits
from ...core.tenancy import crosses_municipalities
from ...extensions import db
from .models import User
from .sessions import end_session, start_session

bp = Blueprint("accounts", __name__)


@bp.route("/login", methods=["GET", "POST"])
@login_limits("username", "user")
@crosses_municipalities("login: the username names an account of any municipality")
def login():
    error = None
    if request.method == "POST":
        username = (request.form.get("username") or "").strip().lower()
        password = request.form.get("password") or ""
        user = User.query.filter_by(username=username).first()
        if user is None or not user.active or not user.check_password(password):
            error = "Usuário ou senha incorretos."
        elif user.role == "operator":
            error = "Operadores acessam pelo aplicativo (/app/), no modo operador."
        elif user.role == "fiscal":
            error = "Fiscais usam o aplicativo de campo: abra /app/ no celular e toque em “Sou fiscal”."
        else:
            start_session(user)
            user.last_login_at = utcnow()
            record("login", "user", user.id, actor=user, municipality_id=user.municipality_id)
            db.session.flush()  # inside the crossing: row-level security judges the rows at the flush
            return redirect(safe_redirect_target(request.args.get("next"), url_for("backoffice.dashboard")))
    return render_template("accounts/login.html", error=error), (401 if error else 200)


@bp.post("/logout")
def logout():
    if g.get("user") is not None:
        record("logout", "user", g.user.id, municipality_id=g.user.municipality_id)
    end_session("logout")  # the server forgets the session: a copied cookie is worthless now
    flash("Sessão encerrada.")
    return redirect(url_for("accounts.login"))

api_bp = Blueprint("accounts_api", __name__, url_prefix="/api/v1/auth")
api.routes.register(api_bp)
