"""Permits: list (search, status and alert filters, sort, pagination), detail with history,
create/edit, and the lifecycle actions (renew, suspend, reinstate, cassar, extinguish)."""
from datetime import timedelta

from flask import flash, redirect, render_template, request, url_for
from sqlalchemy import exists, or_
from sqlalchemy.orm import selectinload

from ...core.audit_labels import action_label
from ...core.auth import get_scoped_or_404, scoped
from ...core.clock import local_today
from ...core.forms import Field, form_input, load, object_values, raw_values, run, stray_errors
from ...core.pagination import Page, search_text
from ...core.ptbr import plate as plate_text
from ...core.routes import RouteTable
from ...core.validation import mask_cpf
from ..credentials.models import Credential
from ..issuance import records
from ..issuance.models import (
    INSURANCE_KINDS,
    VISTORIA_KINDS,
    VISTORIA_RESULT_LABELS,
    InsurancePolicy,
    Vistoria,
)
from ..issuance.records import vistoria_period_months
from ..issuance.renewal import documents_for
from ..issuance.requirements import checklist
from ..issuance.substitutions import substituted_without_vistoria
from ..issuance.validity import add_months, renewal_validity, rule_for
from ..permits.operations import TRANSITIONS, change_permit_status, issue_permit, update_permit
from ..registry.models import (
    ISSQN_STATUSES,
    OCCUPYING,
    PERMIT_KINDS,
    PERMIT_STATUSES,
    Company,
    Operator,
    Permit,
    Ponto,
    Vehicle,
)
from ..registry.schemas import PermitActionSchema, PermitSchema
from ..registry.scope import municipality, staff_view
from ..registry.vocabulary import vocabulary
from ..selection.models import CANDIDATE_STATUSES
from ..selection.operations import SELECTION_REQUIRED, receivable_candidates
from . import search
from .exports import export, wants_csv
from .registry_views import format_cnpj, ponto_occupancy

routes = RouteTable()

SORTS = {
    "numero": (Permit.number, Permit.id), "-numero": (Permit.number.desc(), Permit.id.desc()),
    "validade": (Permit.valid_until, Permit.id), "-validade": (Permit.valid_until.desc(), Permit.id.desc()),
}
# Dashboard alerts, each a filter of the permit list (before anything lapses, and after).
ALERTS = {
    "vence30": "Vencem em até 30 dias",
    "seguro": "Seguro vencido ou não registrado",
    "seguro15": "Seguro vence em até 15 dias",
    "vistoria": "Sem vistoria válida",
    "vistoria30": "Vistoria vence em até 30 dias",
    "substituicao": "Moto substituída sem vistoria",
}
# The actions a back-office user takes by hand (expire and lapse are the daily job's).
MANUAL_ACTIONS = ("renew", "suspend", "reinstate", "cassar", "extinguish")
# Select lists in the permit form are capped: a municipality with more candidates types the id.
OPTION_LIMIT = 500


def _vistoria_cutoff(today, months):
    """Approved vistorias on or after this day still count (None: no period configured)."""
    return add_months(today, -months) if months else None


def alert_condition(alert, today=None, vistoria_months=None):
    today = today or local_today()
    occupying = Permit.status.in_(OCCUPYING)
    if alert == "vence30":
        return (Permit.status == "ativo") & Permit.valid_until.between(today, today + timedelta(days=30))
    if alert == "seguro":
        return occupying & ~exists().where(InsurancePolicy.vehicle_id == Permit.vehicle_id,
                                           InsurancePolicy.starts_on <= today, InsurancePolicy.ends_on >= today)
    if alert == "seguro15":
        in_force = exists().where(InsurancePolicy.vehicle_id == Permit.vehicle_id, InsurancePolicy.starts_on <= today,
                                  InsurancePolicy.ends_on.between(today, today + timedelta(days=15)))
        later = exists().where(InsurancePolicy.vehicle_id == Permit.vehicle_id,
                               InsurancePolicy.ends_on > today + timedelta(days=15))
        return occupying & in_force & ~later
    if alert == "substituicao":
        return substituted_without_vistoria()
    if alert in ("vistoria", "vistoria30"):
        if not vistoria_months:
            # No period configured: only "never approved" can be said.
            return occupying & ~exists().where(Vistoria.vehicle_id == Permit.vehicle_id,
                                               Vistoria.result == "aprovada") if alert == "vistoria" else (Permit.id < 0)
        horizon = today if alert == "vistoria" else today + timedelta(days=30)
        valid_then = exists().where(Vistoria.vehicle_id == Permit.vehicle_id, Vistoria.result == "aprovada",
                                    Vistoria.inspected_on >= _vistoria_cutoff(horizon, vistoria_months))
        if alert == "vistoria":
            return occupying & ~valid_then
        valid_now = exists().where(Vistoria.vehicle_id == Permit.vehicle_id, Vistoria.result == "aprovada",
                                   Vistoria.inspected_on >= _vistoria_cutoff(today, vistoria_months))
        return occupying & valid_now & ~valid_then
    return None


def permit_list_query(mid, q="", status="", alert="", sort="numero", vistoria_months=None):
    """The filtered, ordered permit query of the list page (also timed by bench/registry_lists.py)."""
    query = Permit.query.filter(Permit.municipality_id == mid)
    if status in PERMIT_STATUSES:
        query = query.filter(Permit.status == status)
    if alert in ALERTS:
        query = query.filter(alert_condition(alert, vistoria_months=vistoria_months))
    if q:
        query = query.filter(or_(*search.permit_conditions(mid, q)))
    return query.order_by(*SORTS.get(sort, SORTS["numero"]))


def permit_columns():
    """The permit list's columns, for its CSV (the same values as on screen)."""
    words = vocabulary(municipality())
    statuses = words.statuses
    return [("Número", lambda p: p.number), (words.holder_title, lambda p: p.holder_name),
            ("CPF/CNPJ", lambda p: format_cnpj(p.holder_company.cnpj) if p.holder_company
             else mask_cpf(p.holder_operator.cpf) if p.holder_operator else None),
            ("Placa", lambda p: plate_text(p.vehicle.plate) if p.vehicle else None),
            ("Ponto", lambda p: p.ponto.name if p.ponto else None),
            ("Validade", lambda p: p.valid_until), ("Situação", lambda p: statuses.get(p.status, p.status))]


@routes.get("/bo/permissoes/")
@staff_view
def permit_list():
    q, status = search_text(), request.args.get("situacao", "")
    alert, sort = request.args.get("alerta", ""), request.args.get("ordem", "numero")
    query = permit_list_query(municipality().id, q, status, alert, sort, vistoria_period_months(municipality()))
    if wants_csv():
        return export(vocabulary(municipality()).permits_title, permit_columns(), query.options(
            selectinload(Permit.vehicle), selectinload(Permit.holder_operator),
            selectinload(Permit.holder_company), selectinload(Permit.ponto)))
    page = Page(query.options(selectinload(Permit.vehicle), selectinload(Permit.holder_operator),
                              selectinload(Permit.holder_company), selectinload(Permit.ponto)),
                count_query=query)
    return render_template("backoffice/permit_list.html", page=page, q=q, status=status,
                           alert=alert if alert in ALERTS else "", sort=sort if sort in SORTS else "numero",
                           statuses=vocabulary(municipality()).statuses, alerts=ALERTS, mask_cpf=mask_cpf,
                           format_cnpj=format_cnpj)


def _capped(query, label, current_ids=()):
    rows = query.limit(OPTION_LIMIT).all()
    ids = {r.id for r in rows}
    # Keep the permit's current choices even when they fall outside the candidates.
    for ident in current_ids:
        if ident and ident not in ids:
            row = query.session.get(query.column_descriptions[0]["entity"], ident)
            if row is not None:
                rows.append(row)
    return [(str(r.id), label(r)) for r in rows]


def permit_fields(permit=None):
    """The permit form. Holder and vehicle lists offer only rows without an occupying permit."""
    muni = municipality()
    words = vocabulary(muni)
    free = f"sem {words.permit} {words.status('ativo').lower()}"
    busy_vehicle = exists().where(Permit.vehicle_id == Vehicle.id, Permit.status.in_(OCCUPYING))
    busy_holder = exists().where(Permit.holder_operator_id == Operator.id, Permit.status.in_(OCCUPYING))
    vehicles = _capped(scoped(Vehicle).filter(~busy_vehicle).order_by(Vehicle.plate),
                       lambda v: f"{plate_text(v.plate)} — {v.make} {v.model} ({v.engine_cc} cc)",
                       [getattr(permit, "vehicle_id", None)])
    occupancy = ponto_occupancy(muni.id)
    pontos = [(str(p.id), f"{p.name} ({occupancy.get(p.id, 0)}/{p.capacity} vagas)")
              for p in scoped(Ponto).order_by(Ponto.name).all()]
    company_holder = muni.setting("holder") == "company"
    drivers_query = scoped(Operator).order_by(Operator.name)
    if company_holder:
        drivers_query = drivers_query.filter(Operator.company_id.isnot(None))
    elif getattr(permit, "holder_operator_id", None):
        # The holder drives under the permit itself: never offered again as an auxiliary driver.
        drivers_query = drivers_query.filter(Operator.id != permit.holder_operator_id)
    current_drivers = [d.id for d in permit.drivers] if permit else []
    drivers = _capped(drivers_query, lambda o: f"{o.name} — CPF {mask_cpf(o.cpf)}", current_drivers)
    fields = [Field("number", "Número", required=True, hint="Ex.: 012/2026. Letras, números, '/', '.' e '-'."),
              Field("kind", "Instrumento", "select",
                    options=[(k, v) for k, v in PERMIT_KINDS.items()
                             if k in words.kinds or k == getattr(permit, "kind", None)])]
    if company_holder:
        fields.append(Field("holder_company_id", f"{words.holder_title} (titular)", "select", required=True,
                            options=[("", "—")] + [(str(c.id), c.legal_name) for c in
                                                   scoped(Company).order_by(Company.legal_name).all()]))
    else:
        holders = _capped(scoped(Operator).filter(~busy_holder).order_by(Operator.name),
                          lambda o: f"{o.name} — CPF {mask_cpf(o.cpf)}",
                          [getattr(permit, "holder_operator_id", None)])
        fields.append(Field("holder_operator_id", f"{words.holder_title} (titular)", "select", required=True,
                            options=[("", "—")] + holders,
                            hint=f"Lista operadores {free}."))
    if permit is None:
        fields += _candidate_field(muni)
    fields += [
        Field("driver_ids", "Condutores" if company_holder else "Condutores auxiliares", "multiselect",
              options=drivers, hint="Segure Ctrl (ou toque) para escolher mais de um."),
        Field("vehicle_id", "Veículo", "select", required=True, options=[("", "—")] + vehicles,
              hint=f"Lista veículos {free}."),
        Field("ponto_id", "Ponto", "select", options=[("", "— sem ponto —")] + pontos),
        Field("issued_on", f"{words.agree('Emitido', 'Emitida')} em", "date", required=True),
        Field("valid_from", f"{words.agree('Válido', 'Válida')} a partir de", "date", required=True),
        Field("valid_until", f"{words.agree('Válido', 'Válida')} até", "date",
              hint=_validity_hint(muni) if permit is None else "Altera-se só pela ação Renovar."),
    ]
    if permit is None:
        fields.append(Field("validity_exception_reason", "Motivo de outra validade (exceção)", "textarea",
                            hint="Só se a validade informada não for a da lei; fica na auditoria."))
    fields += [
        Field("issqn_status", "ISSQN", "select", options=list(ISSQN_STATUSES.items()),
              hint="Sem registro, fica desconhecido: nada se presume em dia."),
        Field("taxpayer_number", "Inscrição no cadastro de contribuintes", hint="Consta do alvará em Sapezal (Lei 125/1999, art. 9º, III)."),
        Field("notes", "Observações", "textarea"),
    ]
    return fields


def _candidate_field(muni):
    """Paranatinga (arts. 21, 33 e 34): the permit goes to a selected or called candidate."""
    basis = SELECTION_REQUIRED.get(muni.slug)
    if basis is None:
        return []
    options = [(str(c.id), f"{c.name} — {CANDIDATE_STATUSES[c.status].lower()}, {c.classification}º do edital "
                           f"{c.edital.number}")
               for c in receivable_candidates(muni)]
    return [Field("candidate_id", "Candidato selecionado ou suplente convocado", "select", required=True,
                  options=[("", "—")] + options,
                  hint=f"O titular deve ser o próprio candidato ({basis}).")]


def _validity_hint(muni):
    words = vocabulary(muni)
    rules = {kind: rule_for(muni, kind) for kind in PERMIT_KINDS if kind in words.kinds}
    if not any(rules.values()):
        return "Não há regra de validade para este município: informe a data."
    bases = "; ".join(f"{PERMIT_KINDS[k].lower()}: {r.basis}" for k, r in rules.items() if r) if len(rules) > 1 \
        else next(r.basis for r in rules.values() if r)
    return f"Deixe em branco: calculada pela lei ({bases}). Outra data exige motivo."


def _permit_form(permit=None):
    fields = permit_fields(permit)
    errors = None
    if request.method == "POST":
        data, errors = load(PermitSchema(), fields, editing=permit is not None)
        if errors and "holder_operator_id" in errors and municipality().setting("holder") == "company":
            # The schema names the person field; this form shows the company field instead.
            errors.setdefault("holder_company_id", []).extend(errors.pop("holder_operator_id"))
        if errors is None:
            if permit is None:
                saved, errors = run(issue_permit, municipality(), data)
            else:
                saved, errors = run(update_permit, permit, municipality(), data)
            if errors is None:
                words = vocabulary(municipality())
                done = words.agree("emitido", "emitida") if permit is None else words.agree("atualizado", "atualizada")
                flash(f"{words.permit_title} {done}.")
                return redirect(url_for("backoffice.permit_detail", ident=saved.id))
        values = raw_values(fields)
    elif permit is not None:
        values = object_values(permit, fields)
        values["driver_ids"] = [str(d.id) for d in permit.drivers]
    else:
        values = {"issued_on": local_today().isoformat(), "valid_from": local_today().isoformat()}
    return render_template("backoffice/permit_form.html", permit=permit, fields=fields, values=values,
                           errors=errors or {}, stray=stray_errors(errors, fields)), (422 if errors else 200)


@routes.route("/bo/permissoes/nova", methods=["GET", "POST"])
@staff_view
def permit_new():
    return _permit_form()


@routes.route("/bo/permissoes/<int(max=2147483647):ident>/editar", methods=["GET", "POST"])
@staff_view
def permit_edit(ident):
    return _permit_form(get_scoped_or_404(Permit, ident))


def _issuance_context(permit, today):
    """The permit page's requirements checklist, vistorias, policies and proposed renewal."""
    muni = municipality()
    vistorias = (Vistoria.query.filter_by(vehicle_id=permit.vehicle_id)
                 .order_by(Vistoria.inspected_on.desc(), Vistoria.id.desc()).limit(10).all()
                 if permit.vehicle_id else [])
    rule = rule_for(muni, permit.kind)
    return {
        "requirements": checklist(muni, permit, today), "vistorias": vistorias,
        "vistoria_until": records.vistoria_valid_until(muni, vistorias[0]) if vistorias else None,
        "policies": records.policies(permit.vehicle_id)[:10], "coverage": lambda p: records.coverage_ok(muni, p),
        "coverage_detail": lambda p: records.coverage_detail(muni, p),
        "vistoria_kinds": VISTORIA_KINDS, "vistoria_results": VISTORIA_RESULT_LABELS, "insurance_kinds": INSURANCE_KINDS,
        "proposed_renewal": renewal_validity(muni, permit, today), "validity_basis": rule.basis if rule else None,
        "renewal_documents": documents_for(muni, permit),
    }


def permit_detail_page(permit, action_errors=None, action_values=None, status=200):
    actions = [a for a in MANUAL_ACTIONS if permit.status in TRANSITIONS[a][0]]
    if permit.status == "suspenso" and (not permit.history or permit.history[-1].action != "expire_suspend"):
        actions = [a for a in actions if a != "renew"]  # a penalty suspension ends before renewing
    today = local_today()
    return render_template(
        "backoffice/permit_detail.html", permit=permit, actions=actions, kinds=PERMIT_KINDS, issqn=ISSQN_STATUSES, mask_cpf=mask_cpf,
        format_cnpj=format_cnpj, action_errors=action_errors or {}, action_values=action_values or {},
        today=today, **_issuance_context(permit, today)), status


@routes.get("/bo/permissoes/<int(max=2147483647):ident>")
@staff_view
def permit_detail(ident):
    return permit_detail_page(get_scoped_or_404(Permit, ident))


ACTION_FIELDS = [Field("reason", "Motivo"), Field("valid_until", "Nova validade", "date"),
                 Field("exception_reason", "Motivo da exceção"), Field("suspended_until", "Suspensa até", "date")]


def _remind_reissue(permit):
    """A crachá never outlives the validity it was signed with: after a renewal, say so."""
    credential = (Credential.query.filter_by(permit_id=permit.id, status="active")
                  .order_by(Credential.id.desc()).first())
    if credential is not None and credential.expires_on < permit.valid_until:
        flash(f"O crachá atual (série {credential.serial}) vale até {credential.expires_on:%d/%m/%Y}: "
              "reemita-o com o motivo “Renovação” para a nova validade.")


@routes.post("/bo/permissoes/<int(max=2147483647):ident>/acoes/<action>")
@staff_view
def permit_action(ident, action):
    permit = get_scoped_or_404(Permit, ident)
    if action not in MANUAL_ACTIONS:
        return permit_detail_page(permit, {action: {"_schema": ["Ação desconhecida."]}}, status=404)
    data, errors = load(PermitActionSchema(), ACTION_FIELDS)
    if errors is None:
        _, errors = run(change_permit_status, permit, action, data["reason"],
                        valid_until=data.get("valid_until"), suspended_until=data.get("suspended_until"),
                        exception_reason=data.get("exception_reason"))
        if errors is None:
            flash(f"{action_label(action)} registrada.")
            if action == "renew":
                _remind_reissue(permit)
            # The form posted to …#acao-x; land on the history, where the new entry shows.
            return redirect(url_for("backoffice.permit_detail", ident=permit.id, _anchor="historico"))
    permit = get_scoped_or_404(Permit, ident)
    return permit_detail_page(permit, {action: errors}, {action: form_input(ACTION_FIELDS)},
                   status=409 if "_schema" in errors else 422)
