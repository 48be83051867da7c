"""Back office: the municipality's tariff tables (act, validity, lines); and the template global
the public crachá page uses to show the passenger the tariff in force."""
from flask import flash, redirect, render_template, request, url_for
from marshmallow import fields

from ...core.auth import scoped
from ...core.clock import local_today
from ..registry.scope import municipality, staff_view
from ...core.forms import Field, load, raw_values, run, stray_errors
from ...core.routes import RouteTable
from ..registry.schemas import LEN, BaseSchema
from .models import TariffTable
from .operations import record_tariff_table, tariff_summary
from .rules import brl, law_for, parse_items

routes = RouteTable()


class TariffSchema(BaseSchema):
    act = fields.String(required=True, validate=LEN(3, 200))
    valid_from = fields.Date(required=True)
    valid_until = fields.Date()
    items_text = fields.String(required=True, validate=LEN(3, 4000))


FIELDS = [
    Field("act", "Ato que fixou a tarifa", required=True, hint="Ex.: Decreto nº 45/2026, de 10/01/2026."),
    Field("valid_from", "Vigente a partir de", "date", required=True),
    Field("valid_until", "Vigente até", "date", hint="Em branco: até a próxima tabela."),
    Field("items_text", "Tarifas", "textarea", required=True,
          hint="Uma por linha: descrição | valor. Ex.: “Corrida na área urbana | 8,00”."),
]


@routes.app_template_global()
def current_tariff_for(muni):
    return tariff_summary(muni) if muni is not None else None


@routes.app_template_filter("br_date")
def _br_date(iso):
    return f"{iso[8:10]}/{iso[5:7]}/{iso[0:4]}" if iso else "—"


@routes.app_template_filter("brl")
def _brl(amount):
    return brl(amount)


@routes.route("/", methods=["GET", "POST"])
@staff_view
def tariffs():
    muni = municipality()
    errors, values = None, {}
    if request.method == "POST":
        data, errors = load(TariffSchema(), FIELDS)
        if errors is None:
            try:
                data["items"] = parse_items(data.pop("items_text"))
            except ValueError as err:
                errors = {"items_text": [str(err)]}
        if errors is None:
            _, errors = run(record_tariff_table, muni, data)
            if errors is None:
                flash("Tabela de tarifas registrada.")
                return redirect(url_for("tariffs_bo.tariffs"))
        values = raw_values(FIELDS)
    tables = scoped(TariffTable).order_by(TariffTable.valid_from.desc()).all()
    return render_template("tariffs/tariffs.html", tables=tables, current=tariff_summary(muni),
                           law=law_for(muni), fields=FIELDS, values=values, errors=errors or {},
                           stray=stray_errors(errors, FIELDS), today=local_today()), (422 if errors else 200)
