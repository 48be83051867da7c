"""The municipality's calendar screen: days without office hours that move deadlines (religious
holidays under Lei 9.093/1995 art. 2º, decreed pontos facultativos such as Carnival, office
closures), each with its act. National holidays and Good Friday come from the shared data and are
only listed here."""
from flask import flash, redirect, render_template, request, url_for
from marshmallow import fields, validate

from ...core.auth import get_scoped_or_404, scoped
from ...core.clock import local_today
from ...rules import legal_calendar
from ..calendar.models import CLOSURE_KINDS_PT, CalendarClosure
from ..calendar.operations import add_closure, remove_closure
from ..calendar.service import good_friday_of
from ..registry.schemas import LEN, BaseSchema
from ..registry.scope import municipality, staff_view
from ...core.forms import Field, form_input, load, raw_values, run, stray_errors
from ...core.routes import RouteTable

routes = RouteTable()

CLOSURE_FIELDS = [
    Field("day", "Dia", "date", required=True),
    Field("kind", "Tipo", "select", required=True,
          options=[("", "—")] + list(CLOSURE_KINDS_PT.items())),
    Field("name_pt", "Nome", required=True, hint="Ex.: Padroeira do município; Carnaval."),
    Field("act", "Ato que fixou o dia", required=True, hint="Ex.: Lei municipal nº 10/2001; Decreto nº 5/2026."),
]


class ClosureForm(BaseSchema):
    day = fields.Date(required=True, error_messages={"invalid": "Data inválida."})
    kind = fields.String(required=True, validate=validate.OneOf(list(CLOSURE_KINDS_PT), error="Escolha um dos tipos."))
    name_pt = fields.String(required=True, validate=LEN(2, 120))
    act = fields.String(required=True, validate=LEN(3, 200))


def _year_arg():
    raw = request.args.get("ano", "")
    return int(raw) if raw.isdigit() and 1996 <= int(raw) <= 2100 else local_today().year


@routes.route("/bo/calendario", methods=["GET", "POST"])
@staff_view
def calendar_closures():
    errors, values = None, {}
    if request.method == "POST":
        data, errors = load(ClosureForm(), CLOSURE_FIELDS, raw=form_input(CLOSURE_FIELDS))
        if errors is None:
            _, errors = run(add_closure, municipality(), data)
            if errors is None:
                flash("Dia incluído no calendário.")
                return redirect(url_for("backoffice.calendar_closures"))
        values = raw_values(CLOSURE_FIELDS)
    else:  # a suggestion link prefills the form
        values = {k: request.args.get(k, "") for k in ("day", "kind", "name_pt")}
    year = _year_arg()
    cal = legal_calendar.calendar_for(municipality().uf, good_friday=good_friday_of(municipality()))
    holidays = cal.holidays(year)
    rows = scoped(CalendarClosure).order_by(CalendarClosure.day.desc()).all()
    return render_template("backoffice/calendar_closures.html", rows=rows, fields=CLOSURE_FIELDS, values=values,
                           errors=errors or {}, stray=stray_errors(errors, CLOSURE_FIELDS), year=year,
                           holidays=holidays, suggestions=cal.suggestions(year), kinds=CLOSURE_KINDS_PT), \
        (422 if errors else 200)


@routes.post("/bo/calendario/<int:ident>/excluir")
@staff_view
def calendar_closure_remove(ident):
    row = get_scoped_or_404(CalendarClosure, ident)
    reason = (request.form.get("reason") or "").strip()
    if len(reason) < 3:
        flash("Informe o motivo da exclusão (ao menos 3 caracteres).")
        return redirect(url_for("backoffice.calendar_closures"))
    remove_closure(municipality(), row, reason[:300])
    flash("Dia retirado do calendário.")
    return redirect(url_for("backoffice.calendar_closures"))
