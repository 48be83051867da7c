"""Back-office login and logout (session cookie, CSRF, rate-limited)."""
from flask import Blueprint, current_app, flash, g, redirect, render_template, request, session, url_for

from ...core.audit import record
from ...core.auth import utcnow
from ...extensions import db, limiter
from .models import User

bp = Blueprint("accounts", __name__)


def _safe_next(target):
    # Only same-site relative paths: no open redirects.
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("backoffice.dashboard")


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config["LOGIN_RATE_LIMIT"], methods=["POST"])
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
            session.clear()
            session["user_id"] = user.id
            session["epoch"] = user.session_epoch
            user.last_login_at = utcnow()
            record("login", "user", user.id, actor=user, municipality_id=user.municipality_id)
            db.session.commit()
            return redirect(_safe_next(request.args.get("next")))
    return render_template("accounts/login.html", error=error), (401 if error else 200)


@bp.post("/logout")
def logout():
    if g.get("user") is not None:
        record("logout", "user", g.user.id, municipality_id=g.user.municipality_id)
        db.session.commit()
    session.clear()
    flash("Sessão encerrada.")
    return redirect(url_for("accounts.login"))
