"""Back office: import of an existing registry. Upload → dry run report (errors per row and
column, downloadable) → "Importar" when clean, or "Importar as válidas". The uploaded file waits
in instance/imports/ under a random name known only to the uploader's session, for its municipality."""
import secrets
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, session, url_for

from ...core.auth import login_required, require_municipality_id
from ...core.csv_export import csv_response
from ...extensions import db
from ..registry.models import Municipality
from .columns import columns_for
from .importer import run_import
from .reader import FileProblem
from .template import template_csv, template_xlsx

bp = Blueprint("registry_import", __name__, url_prefix="/bo/importacao")
ROLES = ("admin", "backoffice")
SESSION_KEY = "registry_import"


def _municipality():
    return db.session.get(Municipality, require_municipality_id())


def _dir():
    path = Path(current_app.instance_path) / "imports"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _pending(token):
    """The upload this session made for the current municipality, or 404."""
    pending = session.get(SESSION_KEY) or {}
    if pending.get("token") != token or pending.get("municipality_id") != require_municipality_id():
        abort(404)
    path = _dir() / f"{token}.{pending['kind']}"
    if not path.exists():
        abort(404)
    return pending, path


@bp.get("/")
@login_required(*ROLES)
def start():
    muni = _municipality()
    return render_template("registry_import/start.html", columns=columns_for(muni), error=None)


@bp.get("/modelo.<kind>")
@login_required(*ROLES)
def template(kind):
    muni = _municipality()
    if kind == "csv":
        body, mimetype = template_csv(muni), "text/csv"
    elif kind == "xlsx":
        body, mimetype = template_xlsx(muni), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    else:
        abort(404)
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": f'attachment; filename="modelo-cadastro-{muni.slug}.{kind}"'})


def _act(form):
    """The act granting a prazo de adequação to the existing fleet (optional): (text, last day), or
    an error message naming the field."""
    from datetime import date

    act, until = (form.get("act") or "").strip()[:200], (form.get("act_until") or "").strip()
    if not act and not until:
        return None, None, None
    if not act:
        return None, None, "Informe o ato (número e data) que concede o prazo de adequação."
    if not until:
        return act, None, None
    try:
        return act, date.fromisoformat(until), None
    except ValueError:
        return None, None, "Prazo de adequação: data inválida (use o seletor de data)."


@bp.post("/")
@login_required(*ROLES)
def check():
    muni = _municipality()
    act, act_until, act_error = _act(request.form)
    if act_error:
        return render_template("registry_import/start.html", columns=columns_for(muni), error=act_error), 422
    upload = request.files.get("file")
    kind = Path(upload.filename or "").suffix.lower().lstrip(".") if upload else ""
    if not upload or kind not in ("csv", "xlsx"):
        return render_template("registry_import/start.html", columns=columns_for(muni),
                               error="Envie o arquivo do cadastro em .csv ou .xlsx (o modelo deste município)."), 422
    _discard_previous()
    token = secrets.token_urlsafe(18)
    path = _dir() / f"{token}.{kind}"
    upload.save(path)
    try:
        result = run_import(muni, path, kind, Path(upload.filename).name, act=act, act_until=act_until)
    except FileProblem as err:
        path.unlink(missing_ok=True)
        return render_template("registry_import/start.html", columns=columns_for(muni), error=str(err)), 422
    session[SESSION_KEY] = {"token": token, "kind": kind, "municipality_id": muni.id,
                            "name": Path(upload.filename).name[:120], "sha256": result.sha256,
                            "act": act, "act_until": act_until.isoformat() if act_until else None}
    return render_template("registry_import/report.html", result=result, token=token,
                           name=session[SESSION_KEY]["name"], shown=result.errors[:500])


def _options(pending):
    from datetime import date

    until = pending.get("act_until")
    return {"act": pending.get("act"), "act_until": date.fromisoformat(until) if until else None}


@bp.get("/<token>/erros.csv")
@login_required(*ROLES)
def errors_csv(token):
    pending, path = _pending(token)
    result = run_import(_municipality(), path, pending["kind"], pending["name"], **_options(pending))
    return csv_response("erros-importacao.csv", ["Linha", "Coluna", "Erro"], result.errors)


@bp.post("/<token>/gravar")
@login_required(*ROLES)
def commit(token):
    pending, path = _pending(token)
    only_valid = request.form.get("only_valid") == "1"
    accept = True if request.form.get("accept_all") == "1" else {
        int(v) for v in request.form.getlist("accept") if v.isdigit() and len(v) < 7}
    result = run_import(_municipality(), path, pending["kind"], pending["name"], commit=True, only_valid=only_valid,
                        accept=accept, apply_changes=request.form.get("apply_changes") == "1", **_options(pending))
    if not result.committed:
        flash("Nada foi gravado: o arquivo tem linhas com erro ou à espera de decisão. Corrija-as, decida-as ou "
              "escolha “Importar as válidas”.")
        return redirect(url_for(".start"))
    _discard_previous()
    w, u = result.written, result.updated
    flash(f"Importação concluída: {w['permit']} permissões, {w['operator']} pessoas, {w['vehicle']} veículos e "
          f"{w['company']} empresas novas; {result.existing} já estavam cadastradas"
          + (f" ({u['permit'] + u['operator'] + u['vehicle']} registros atualizados)" if any(u.values()) else "")
          + (f"; {len(result.transitions)} exigências em transição registradas" if result.transitions else "")
          + (f"; {result.error_rows} linhas com erro não importadas" if result.error_rows else "")
          + (f"; {len(result.undecided_lines)} linhas à espera de decisão não importadas" if result.undecided_lines
             else "") + ".")
    return redirect(url_for(".start"))


def _discard_previous():
    pending = session.pop(SESSION_KEY, None)
    if pending:
        (_dir() / f"{pending['token']}.{pending['kind']}").unlink(missing_ok=True)
