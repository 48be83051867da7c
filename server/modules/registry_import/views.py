"""Back office: import of an existing registry. Upload → a check job (progress on screen) → its
stored report (errors per row and column, downloadable; columns ignored; decisions; transitions;
differences) → "Importar", a commit job. The uploaded file is kept in the database (ImportJob), so
any app server behind the balancer serves every step; a job is seen only by the user who uploaded
it, in its municipality. No request waits for the rows: jobs.py runs them."""
import os
import tempfile
from datetime import date
from pathlib import Path

from flask import Response, abort, current_app, g, jsonify, redirect, render_template, request, url_for

from ...core.auth import login_required, require_municipality_id
from ...core.csv_export import csv_response
from ...core.ptbr import plural
from ...core.routes import RouteTable
from ...core.transaction import after_commit
from ...extensions import db
from ..registry.models import Municipality
from .columns import columns_for
from .error_summary import summarize
from .jobs import enqueue, start_in_thread
from .models import ImportJob
from .reader import FileProblem, MAX_BYTES, check_size
from .template import template_csv, template_xlsx

routes = RouteTable()
ROLES = ("admin", "backoffice")
SHOWN = 500  # rows of each table on the page; the CSV has every error


def _municipality():
    return db.session.get(Municipality, require_municipality_id())


def _job(job_id):
    """The job this user queued for the current municipality, or 404."""
    job = db.session.get(ImportJob, job_id) if len(job_id) <= 36 else None
    if job is None or job.municipality_id != require_municipality_id() or job.user_id != g.user.id:
        abort(404)
    return job


def _start(job):
    """`make run`: the job's thread starts once this request committed the job (before, its
    connection would not even see the row)."""
    if current_app.config.get("IMPORT_JOBS", "thread") == "thread":
        app, job_id = current_app._get_current_object(), job.id
        after_commit(lambda: start_in_thread(app, job_id))


def _refuse(muni, message):
    return render_template("registry_import/start.html", columns=columns_for(muni), error=message), 422


@routes.get("/")
@login_required(*ROLES)
def start():
    muni = _municipality()
    return render_template("registry_import/start.html", columns=columns_for(muni), error=None)


@routes.get("/modelo.<kind>")
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
    """The act granting a prazo de adequação to the existing fleet (optional): (text, last day,
    error message naming the field)."""
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


@routes.post("/")
@login_required(*ROLES)
def check():
    muni = _municipality()
    act, act_until, act_error = _act(request.form)
    if act_error:
        return _refuse(muni, act_error)
    upload = request.files.get("file")
    kind = Path(upload.filename or "").suffix.lower().lstrip(".") if upload else ""
    if not upload or kind not in ("csv", "xlsx"):
        return _refuse(muni, "Envie o arquivo do cadastro em .csv ou .xlsx (o modelo deste município).")
    body = upload.read(MAX_BYTES + 1)
    handle, path = tempfile.mkstemp(suffix=f".{kind}")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(body)
        check_size(path, kind)  # refused now, before any worker opens it
    except FileProblem as err:
        return _refuse(muni, str(err))
    finally:
        os.unlink(path)
    job = enqueue(muni.id, g.user.id, "check", Path(upload.filename).name, kind, body,
                  {"act": act, "act_until": act_until.isoformat() if act_until else None})
    _start(job)
    return redirect(url_for(".job", job_id=job.id), code=303)


def _running(job):
    return job.state in ("queued", "running")


def _progress_text(job):
    """A running job's state line: its page's (progress.html) and its status's (job_status)."""
    if job.state == "queued":
        return "Na fila: começa em instantes."
    if not job.rows_done:
        return "Em andamento…"
    done = job.rows_done
    if job.action == "commit":
        return f"{done} {plural(done, 'linha processada', 'linhas processadas')} até agora…"
    return f"{done} {plural(done, 'linha verificada', 'linhas verificadas')} até agora…"


@routes.get("/<job_id>")
@login_required(*ROLES)
def job(job_id):
    job = _job(job_id)
    if _running(job):
        return render_template("registry_import/progress.html", job=job, state_text=_progress_text(job))
    if job.state == "failed":
        return render_template("registry_import/start.html", columns=columns_for(_municipality()),
                               error=job.message or "A verificação falhou."), 422
    result = job.result
    if job.action == "commit":
        return render_template("registry_import/done.html", job=job, result=result)
    return render_template("registry_import/report.html", result=result, token=job.id, name=job.file_name,
                           shown=result["errors"][:SHOWN], kinds=summarize(result["errors"]))


@routes.get("/<job_id>/estado")
@login_required(*ROLES)
def job_status(job_id):
    """What the progress page's script polls every 2 s (static/js/job-progress.js) instead of the
    whole page: the job's state and, while it runs, its state line; `running` false once the page
    has a result to show (the report, the import's outcome, or the refusal)."""
    job = _job(job_id)
    running = _running(job)
    response = jsonify({"state": job.state, "running": running, "text": _progress_text(job) if running else None})
    response.headers["Cache-Control"] = "no-store"
    return response


@routes.get("/<job_id>/erros.csv")
@login_required(*ROLES)
def errors_csv(job_id):
    job = _job(job_id)
    if job.state != "done" or not job.result:
        abort(404)
    return csv_response("erros-importacao.csv", ["Linha", "Coluna", "Erro"], job.result["errors"])


@routes.post("/<job_id>/gravar")
@login_required(*ROLES)
def commit(job_id):
    checked = _job(job_id)
    if checked.action != "check" or checked.state != "done" or _committing(checked):
        abort(404)
    accept = True if request.form.get("accept_all") == "1" else sorted(
        {int(v) for v in request.form.getlist("accept") if v.isdigit() and len(v) < 7})
    options = {"act": (checked.options or {}).get("act"), "act_until": (checked.options or {}).get("act_until"),
               "only_valid": request.form.get("only_valid") == "1", "accept": accept,
               "apply_changes": request.form.get("apply_changes") == "1", "check_id": checked.id}
    job = enqueue(checked.municipality_id, g.user.id, "commit", checked.file_name, checked.kind, checked.body, options)
    checked.options = {**(checked.options or {}), "committed_by": job.id}
    _start(job)
    return redirect(url_for(".job", job_id=job.id), code=303)




def _committing(checked):
    """One import per check: refused while its commit job runs or once it wrote; a commit refused
    (rows waiting for a decision) lets the clerk decide and try again from the same report."""
    previous = (checked.options or {}).get("committed_by")
    if not previous:
        return False
    job = db.session.get(ImportJob, previous)
    return job is not None and not (job.state == "failed" or (job.state == "done" and not (job.result or {}).get("committed")))
