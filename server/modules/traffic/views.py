"""Back office: the communications to the traffic authority (/bo/transito/): the list of a period
(with its PDF and CSV), one communication, and the forms that record the sending and the
acknowledgement. Thin handlers: every write is an operations call."""
from datetime import date

from flask import Response, abort, flash, g, redirect, render_template, request, url_for

from ...core.clock import local_now
from ...core.csv_export import csv_response
from ...core.errors import ApiError
from ...core.validation import EARLIEST_DATE, LATEST_DATE
from ...core.tenancy import owned
from ...core.routes import RouteTable
from ...extensions import db
from ..registry.scope import municipality, staff_view
from ..rules.service import composed_for
from . import operations, queries
from .models import STATES, TrafficReport
from .pdf import period_pdf_bytes

routes = RouteTable()

CSV_HEADER = ["Número", "Data e hora", "Local", "Coordenadas GPS", "Placa", "Serviço de moto-táxi", "Condutor",
              "CNH", "Agente", "Infrações (CTB)", "Constatado", "Situação", "Enviada em", "Ofício ou protocolo",
              "Recebida em", "Protocolo do recebimento", "Auto municipal da mesma abordagem"]


def _date_arg(name, ignored):
    value = (request.args.get(name) or "").strip()
    if not value:
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError:
        day = None
    if day is None or not EARLIEST_DATE <= day <= LATEST_DATE:  # no record is outside (and 9999-12-31 + 1 day is none)
        ignored.append(name)
        return None
    return day


def _filters():
    ignored = []
    first, last = queries.period(_date_arg("de", ignored), _date_arg("ate", ignored))
    state = request.args.get("situacao") or None
    if state is not None and state not in STATES:
        ignored.append("situacao")
        state = None
    return first, last, state, ignored


def _rows(muni, first, last, state=None):
    composed = composed_for(muni)
    return [queries.shown(r, muni, composed) for r in queries.reports_in(muni.id, first, last, state)]


def _csv_row(row):
    r = row["report"]
    return [row["number"], row["at"].strftime("%d/%m/%Y %H:%M"), row["place"] or "", row["gps"] or "",
            row["plate"] or "", row["permit"] or "", row["driver"] or "", row["cnh"] or "", row["agent"] or "",
            "; ".join(f"{i['label']} ({i['citation']})" for i in row["items"]),
            "; ".join(i["observed"] for i in row["items"] if i["observed"]), row["state_pt"],
            r.sent_on or "", r.sent_reference or "", r.acknowledged_on or "", r.acknowledged_reference or "",
            row["auto_number"] or ""]


@routes.get("/")
@staff_view
def report_list():
    muni = municipality()
    first, last, state, ignored = _filters()
    rows = _rows(muni, first, last, state)
    if request.args.get("formato") == "csv":
        return csv_response(f"comunicacoes-transito-{first:%Y%m%d}-{last:%Y%m%d}.csv", CSV_HEADER,
                            [_csv_row(row) for row in rows])
    return _render_list(muni, first, last, state, ignored, rows)


def _render_list(muni, first, last, state, ignored, rows, errors=None, status=200):
    return render_template("traffic/list.html", rows=rows, first=first, last=last, state=state, ignored=ignored,
                           states=queries.STATE_PT, counts=queries.counts(muni.id, first, last),
                           errors=errors or {}, form=request.form), status


@routes.get("/comunicacao.pdf")
@staff_view
def period_pdf():
    muni = municipality()
    first, last, state, _ignored = _filters()
    body = period_pdf_bytes(muni, first, last, _rows(muni, first, last, state), local_now())
    return Response(body, mimetype="application/pdf", headers={
        "Content-Disposition": f'inline; filename="comunicacao-transito-{first:%Y%m%d}-{last:%Y%m%d}.pdf"',
        "Cache-Control": "no-store"})


@routes.get("/<int:report_id>")
@staff_view
def report_page(report_id):
    muni = municipality()
    report = owned(TrafficReport, report_id, muni.id) or abort(404)
    return _render_report(muni, report)


def _render_report(muni, report, errors=None, status=200):
    return render_template("traffic/report.html", row=queries.shown(report, muni), errors=errors or {},
                           form=request.form), status


def _chosen(muni):
    """The communications the form names (ids of this municipality only; another's is ignored as absent)."""
    ids = [int(v) for v in request.form.getlist("comunicacao") if v.isdigit() and len(v) < 10]
    return [r for r in (owned(TrafficReport, i, muni.id) for i in ids) if r is not None]


def _record(operation, fields):
    muni = municipality()
    chosen = _chosen(muni)
    back = request.form.get("voltar")
    try:
        done = operation(chosen, *(request.form.get(f) for f in fields), g.user)
    except ApiError as exc:
        db.session.rollback()
        errors = dict(exc.fields or {}) or {"_": [exc.message]}
        if len(chosen) == 1 and back == "comunicacao":
            return _render_report(muni, chosen[0], errors, exc.status)
        first, last, state, ignored = _filters()
        return _render_list(muni, first, last, state, ignored, _rows(muni, first, last, state), errors, exc.status)
    flash(f"{len(done)} comunicação(ões) registrada(s).")
    if len(chosen) == 1 and back == "comunicacao":
        return redirect(url_for("traffic.report_page", report_id=chosen[0].id))
    return redirect(url_for("traffic.report_list", **{k: v for k, v in request.args.items() if k in ("de", "ate", "situacao")}))


@routes.post("/envio")
@staff_view
def record_sending():
    return _record(operations.record_sending, ("sent_on", "sent_reference"))


@routes.post("/recebimento")
@staff_view
def record_acknowledgement():
    return _record(operations.record_acknowledgement, ("acknowledged_on", "acknowledged_reference"))
