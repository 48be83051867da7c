"""Operators, companies, vehicles and pontos: list with search, detail, create and edit.

The four entities share one set of handlers driven by an Entity description; each handler is
parse → access (scoped / get_scoped_or_404) → permits.entities.save_entity → render.
"""
from ...core.ptbr import plate as plate_text
from dataclasses import dataclass
from typing import Callable

from flask import flash, redirect, render_template, request, url_for
from sqlalchemy import func, or_

from ...core.audit import record
from ...core.auth import get_scoped_or_404, scoped
from ...core.validation import BLOOD_TYPES, CNH_CATEGORIES, format_cpf, mask_cpf
from ...extensions import db
from ..registry import schemas
from ..registry.models import Company, Operator, Permit, Ponto, Vehicle, permit_drivers
from ..lgpd.rectification import anonymized_details, correction_reason
from ..permits.entities import save_entity
from ..registry.models import OCCUPYING
from . import search
from ..registry.scope import municipality, staff_view
from .exports import export, wants_csv
from ...core.forms import Field, load, object_values, raw_values, run, stray_errors
from ...core.pagination import Page, search_text
from ...core.routes import RouteTable

routes = RouteTable()


def format_cnpj(value):
    d = value or ""
    return f"{d[:2]}.{d[2:5]}.{d[5:8]}/{d[8:12]}-{d[12:]}" if len(d) == 14 else d


def fmt_date(value):
    return value.strftime("%d/%m/%Y") if value else "—"


def company_options():
    return [("", "— nenhuma —")] + [(str(c.id), c.legal_name)
                                   for c in scoped(Company).order_by(Company.legal_name).all()]


def ponto_occupancy(mid):
    rows = (db.session.query(Permit.ponto_id, func.count(Permit.id))
            .filter(Permit.municipality_id == mid, Permit.ponto_id.isnot(None),
                    Permit.status.in_(OCCUPYING)).group_by(Permit.ponto_id).all())
    return dict(rows)


@dataclass
class Entity:
    endpoint: str  # endpoint prefix and audit entity name
    url: str  # URL segment (pt-BR)
    model: type
    schema: type
    plural: str
    singular: str
    new_label: str
    fields: Callable  # () -> [Field]
    columns: list  # [(label, fn(obj) -> text)] — first column links to the detail page
    conditions: Callable  # (mid, q) -> [SQL condition], OR-ed
    order: Callable  # () -> ORDER BY clauses
    details: Callable  # (obj) -> [(label, text)]
    search_hint: str
    form_values: Callable = None  # (obj) -> {field: text}, defaults to object_values
    title: Callable = None  # (obj) -> heading


def operator_fields():
    fields = [
        Field("name", "Nome completo", required=True, attrs={"autocomplete": "off"}),
        Field("cpf", "CPF", required=True, hint="Somente números ou 000.000.000-00.",
              attrs={"inputmode": "numeric"}),
        Field("cnh_number", "Nº de registro da CNH", required=True, attrs={"inputmode": "numeric"}),
        Field("cnh_category", "Categoria da CNH", "select", required=True,
              options=[("", "—")] + [(c, c) for c in CNH_CATEGORIES]),
        Field("cnh_first_issue_date", "Primeira habilitação", "date", required=True),
        Field("cnh_expiry", "Validade da CNH", "date", required=True),
        Field("birth_date", "Data de nascimento", "date", required=True),
        Field("blood_type", "Tipo sanguíneo", "select", hint="Dado sensível: só quando a lei exige.",
              options=[("", "—")] + [(b, b) for b in BLOOD_TYPES]),
        Field("address", "Endereço"),
        Field("residence_since", "Reside no município desde", "date"),
        Field("phone", "Telefone", attrs={"inputmode": "tel"}),
    ]
    if municipality().setting("holder") == "company" or scoped(Company).first() is not None:
        fields.append(Field("company_id", "Empresa", "select", options=company_options()))
    return fields


CORRECTION_REASON = Field("correction_reason", "Motivo da correção", "textarea",
                          hint="Obrigatório ao alterar um dado (LGPD art. 18, III): ex.: pedido do titular, "
                               "documento apresentado, erro de digitação.")


def operator_details(op):
    if op.anonymized_scope == "total":  # the marker that replaced them is no document number
        return [("CPF", "— (anonimizado)"), ("CNH", f"— (anonimizada) — categoria {op.cnh_category}")] \
            + anonymized_details(op)
    return [("CPF", format_cpf(op.cpf)), ("CNH", f"{op.cnh_number} — categoria {op.cnh_category}"),
            ("Primeira habilitação", fmt_date(op.cnh_first_issue_date)),
            ("Validade da CNH", fmt_date(op.cnh_expiry)), ("Nascimento", fmt_date(op.birth_date)),
            ("Tipo sanguíneo", op.blood_type or "—"), ("Endereço", op.address or "—"),
            ("Reside desde", fmt_date(op.residence_since)), ("Telefone", op.phone or "—"),
            ("Empresa", op.company.legal_name if op.company else "—")] + anonymized_details(op)


ENTITIES = [
    Entity(
        "operator", "operadores", Operator, schemas.OperatorSchema, "Operadores", "Operador",
        "Novo operador", operator_fields,
        [("Nome", lambda o: o.name), ("CPF", lambda o: mask_cpf(o.cpf)),
         ("CNH", lambda o: o.cnh_category), ("Validade CNH", lambda o: fmt_date(o.cnh_expiry))],
        search.operator_conditions, lambda: [Operator.name, Operator.id], operator_details,
        "Nome ou CPF",
        form_values=lambda o: {**object_values(o, operator_fields()), "cpf": format_cpf(o.cpf)},
        title=lambda o: o.name),
    Entity(
        "company", "empresas", Company, schemas.CompanySchema, "Empresas", "Empresa", "Nova empresa",
        lambda: [Field("legal_name", "Razão social", required=True),
                 Field("trade_name", "Nome fantasia"),
                 Field("cnpj", "CNPJ", required=True, attrs={"inputmode": "numeric"}),
                 Field("address", "Endereço"), Field("phone", "Telefone", attrs={"inputmode": "tel"})],
        [("Razão social", lambda c: c.legal_name), ("Nome fantasia", lambda c: c.trade_name or "—"),
         ("CNPJ", lambda c: format_cnpj(c.cnpj))],
        search.company_conditions, lambda: [Company.legal_name, Company.id],
        lambda c: [("Nome fantasia", c.trade_name or "—"), ("CNPJ", format_cnpj(c.cnpj)),
                   ("Endereço", c.address or "—"), ("Telefone", c.phone or "—")],
        "Razão social, nome fantasia ou CNPJ", title=lambda c: c.legal_name),
    Entity(
        "vehicle", "veiculos", Vehicle, schemas.VehicleSchema, "Veículos", "Veículo", "Novo veículo",
        lambda: [Field("plate", "Placa", required=True, hint="ABC1234 ou ABC1D23.",
                       attrs={"autocapitalize": "characters"}),
                 Field("renavam", "RENAVAM", required=True, attrs={"inputmode": "numeric"}),
                 Field("chassis", "Chassi", required=True, attrs={"autocapitalize": "characters"}),
                 Field("make", "Marca", required=True), Field("model", "Modelo", required=True),
                 Field("year_manufacture", "Ano de fabricação", "number", required=True),
                 Field("engine_cc", "Cilindrada (cc)", "number", required=True),
                 Field("plate_category", "Categoria da placa", "select",
                       options=[("aluguel", "Aluguel"), ("particular", "Particular"), ("oficial", "Oficial")]),
                 Field("plate_colour", "Cor da placa", "select",
                       options=[("vermelha", "Vermelha"), ("cinza", "Cinza"), ("branca", "Branca"),
                                ("preta", "Preta")])],
        [("Placa", lambda v: plate_text(v.plate)), ("Marca/modelo", lambda v: f"{v.make} {v.model}"),
         ("Ano", lambda v: str(v.year_manufacture)), ("Cilindrada", lambda v: f"{v.engine_cc} cc"),
         ("Categoria", lambda v: v.plate_category)],
        search.vehicle_conditions, lambda: [Vehicle.plate, Vehicle.id],
        lambda v: [("RENAVAM", v.renavam), ("Chassi", v.chassis), ("Marca/modelo", f"{v.make} {v.model}"),
                   ("Ano de fabricação", str(v.year_manufacture)), ("Cilindrada", f"{v.engine_cc} cc"),
                   ("Placa", f"{v.plate_category}, {v.plate_colour}")],
        "Placa, RENAVAM ou chassi", title=lambda v: f"Veículo {plate_text(v.plate)}"),
    Entity(
        "ponto", "pontos", Ponto, schemas.PontoSchema, "Pontos", "Ponto", "Novo ponto",
        lambda: [Field("name", "Nome", required=True), Field("location", "Localização"),
                 Field("latitude", "Latitude", attrs={"inputmode": "decimal"}),
                 Field("longitude", "Longitude", attrs={"inputmode": "decimal"}),
                 Field("capacity", "Capacidade (vagas)", "number", required=True),
                 Field("legal_basis", "Base legal da capacidade", hint="Ex.: Lei 125/1999, art. 20, III.")],
        [("Nome", lambda p: p.name), ("Capacidade", lambda p: str(p.capacity)),
         ("Base legal", lambda p: p.legal_basis or "—")],
        lambda mid, q: [search.contains(Ponto.name, q), search.contains(Ponto.location, q)],
        lambda: [Ponto.name, Ponto.id],
        lambda p: [("Localização", p.location or "—"), ("Capacidade", f"{p.capacity} vagas"),
                   ("Base legal", p.legal_basis or "—"),
                   ("Coordenadas", f"{p.latitude}, {p.longitude}" if p.latitude is not None else "—")],
        "Nome ou local", title=lambda p: p.name),
]


def related_permits(entity, obj):
    query = Permit.query.filter(Permit.municipality_id == obj.municipality_id)
    if entity.model is Operator:
        query = query.filter(or_(Permit.holder_operator_id == obj.id, Permit.id.in_(
            db.select(permit_drivers.c.permit_id).where(permit_drivers.c.operator_id == obj.id))))
    elif entity.model is Company:
        query = query.filter(Permit.holder_company_id == obj.id)
    elif entity.model is Vehicle:
        query = query.filter(Permit.vehicle_id == obj.id)
    else:
        query = query.filter(Permit.ponto_id == obj.id)
    return query.order_by(Permit.valid_until.desc()).limit(50).all()


def _register(entity):
    name = entity.endpoint

    @staff_view
    def list_view():
        q = search_text()
        query = scoped(entity.model)
        if q:
            query = query.filter(or_(*entity.conditions(municipality().id, q)))
        if wants_csv():
            return export(entity.plural, entity.columns, query.order_by(*entity.order()))
        page = Page(query.order_by(*entity.order()))
        extra = ponto_occupancy(municipality().id) if entity.model is Ponto else None
        return render_template("backoffice/entity_list.html", entity=entity, page=page, q=q,
                               occupancy=extra)

    @staff_view
    def detail_view(ident):
        obj = get_scoped_or_404(entity.model, ident)
        if entity.model is Operator:
            # LGPD: the full CPF is shown here only, so this page view is logged.
            record("view", "operator", obj.id, municipality_id=obj.municipality_id)
        occupied = ponto_occupancy(obj.municipality_id).get(obj.id, 0) if entity.model is Ponto else None
        drivers = scoped(Operator).filter(Operator.company_id == obj.id).order_by(Operator.name).all() \
            if entity.model is Company else None
        return render_template("backoffice/entity_detail.html", entity=entity, obj=obj,
                               permits=related_permits(entity, obj), occupied=occupied,
                               drivers=drivers, mask_cpf=mask_cpf)

    def form_view(ident=None):
        obj = get_scoped_or_404(entity.model, ident) if ident is not None else None
        fields = entity.fields()
        # LGPD art. 18, III: a correction of a person's record says why (lgpd/rectification.py).
        reason_field = CORRECTION_REASON if entity.model is Operator and obj is not None else None
        errors, reason = None, None
        if request.method == "POST":
            data, errors = load(entity.schema(), fields, editing=obj is not None)
            if errors is None and reason_field:
                reason, errors = correction_reason(obj, data, request.form.get(reason_field.name))
            if errors is None:
                saved, errors = run(save_entity, entity.model, municipality(), data, obj, reason=reason)
                if errors is None:
                    flash(f"{entity.singular} salvo.")
                    return redirect(url_for(f"backoffice.{name}_detail", ident=saved.id))
            values = raw_values(fields)
        elif obj is not None:
            values = (entity.form_values or (lambda o: object_values(o, fields)))(obj)
        else:
            values = {}
        if reason_field:
            fields = fields + [reason_field]
            values = {**values, reason_field.name: request.form.get(reason_field.name, "")}
        return render_template("backoffice/entity_form.html", entity=entity, obj=obj, fields=fields,
                               values=values, errors=errors or {},
                               stray=stray_errors(errors, fields)), (422 if errors else 200)

    routes.add_url_rule(f"/bo/{entity.url}/", f"{name}_list", list_view)
    routes.add_url_rule(f"/bo/{entity.url}/<int(max=2147483647):ident>", f"{name}_detail", detail_view)
    routes.add_url_rule(f"/bo/{entity.url}/novo", f"{name}_new", staff_view(form_view), methods=["GET", "POST"])
    routes.add_url_rule(f"/bo/{entity.url}/<int(max=2147483647):ident>/editar", f"{name}_edit",
                        staff_view(form_view), methods=["GET", "POST"])


for _entity in ENTITIES:
    _register(_entity)
