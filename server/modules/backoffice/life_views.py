"""Permit page actions for changes during the permit's life (permits.changes_of_life):
"Substituir veículo", "Transferir", "Registrar desistência", loss for absence, and the vistoria
a substitution left pending. Errors come back on the permit page, next to its actions."""
from ...core.ptbr import plate as plate_text
from flask import flash, redirect, request, url_for
from marshmallow import fields, validate
from sqlalchemy import exists

from ...core.auth import get_scoped_or_404, scoped
from ...core.validation import mask_cpf
from ..issuance.substitutions import pending_substitution_vistorias, satisfied_substitution_vistorias
from ..permits import changes_of_life as life
from ..registry.models import OCCUPYING, Operator, Permit, Vehicle
from ..registry.schemas import LEN, ROW_ID, BaseSchema
from ..registry.scope import municipality, staff_view
from ...core.forms import load, run
from ...core.routes import RouteTable
from .permit_views import OPTION_LIMIT, permit_detail_page

routes = RouteTable()

REASON = lambda: fields.String(required=True, validate=LEN(5, 2000))  # noqa: E731


class SubstituteSchema(BaseSchema):
    new_vehicle_id = ROW_ID(required=True)
    replaced_on = fields.Date(required=True)
    requested_on = fields.Date()
    reason = REASON()


class TransferSchema(BaseSchema):
    heir_id = ROW_ID(required=True)
    cause = fields.String(required=True, validate=validate.OneOf(list(life.TRANSFER_CAUSES),
                                                                 error="Escolha a causa (art. 30, I)."))
    reason = REASON()


class DesistenciaSchema(BaseSchema):
    term_number = fields.String(required=True, validate=LEN(1, 40))
    signed_on = fields.Date(required=True)
    reason = REASON()


class AbsenceSchema(BaseSchema):
    absent_since = fields.Date(required=True)
    reason = REASON()


@routes.app_template_global()
def permit_life(permit):
    """What the permit page's "Alterações" card offers for this permit under its law."""
    muni = municipality()
    busy_vehicle = exists().where(Permit.vehicle_id == Vehicle.id, Permit.status.in_(OCCUPYING))
    busy_holder = exists().where(Permit.holder_operator_id == Operator.id, Permit.status.in_(OCCUPYING))
    vehicles = scoped(Vehicle).filter(~busy_vehicle).order_by(Vehicle.plate).limit(OPTION_LIMIT).all()
    refusal = life.transfer_refusal(muni)
    heirs = [] if refusal else (scoped(Operator).filter(~busy_holder).order_by(Operator.name)
                                .limit(OPTION_LIMIT).all())
    return {
        "occupying": permit.status in OCCUPYING,
        "substitution": life.SUBSTITUTION.get(muni.slug),
        "vehicles": [(v.id, f"{plate_text(v.plate)} — {v.make} {v.model} ({v.year_manufacture})") for v in vehicles],
        "transfer_refusal": refusal, "transfer_basis": life.TRANSFERABLE.get(muni.slug),
        "heirs": [(o.id, f"{o.name} — CPF {mask_cpf(o.cpf)}") for o in heirs],
        "causes": life.TRANSFER_CAUSES,
        "desistencia": life.DESISTENCIA.get(muni.slug), "absence": life.ABSENCE.get(muni.slug),
        "pending": pending_substitution_vistorias(permit),
        "satisfied": satisfied_substitution_vistorias(permit),
    }


def _form(schema):
    return load(schema(), [], raw={k: v for k, v in request.form.items() if k != "csrf_token"})


# Field names as the forms label them, so an error says which field it is about.
LABELS = {"new_vehicle_id": "Novo veículo", "replaced_on": "Data da troca", "requested_on": "Data do pedido",
          "heir_id": "Herdeiro", "cause": "Causa", "term_number": "Nº do termo", "signed_on": "Assinado em",
          "absent_since": "Afastado desde", "reason": "Motivo"}


def _messages(errors):
    return [f"{LABELS[field]}: {msg}" if field in LABELS else msg
            for field, msgs in errors.items() for msg in msgs]


def _after(permit, key, errors, message):
    """Success: back to the history. Refusal: the permit page with the messages in the
    "Alterações" card (action_errors key "life_<form>", which the "Ações" card leaves alone)."""
    if errors is None:
        flash(message)
        return redirect(url_for("backoffice.permit_detail", ident=permit.id, _anchor="historico"))
    return permit_detail_page(get_scoped_or_404(Permit, permit.id), {f"life_{key}": {"_schema": _messages(errors)}},
                   status=409 if "_schema" in errors else 422)


@routes.post("/bo/permissoes/<int(max=2147483647):ident>/substituir-veiculo")
@staff_view
def permit_substitute(ident):
    permit = get_scoped_or_404(Permit, ident)
    data, errors = _form(SubstituteSchema)
    if errors is None:
        _, errors = run(life.substitute_vehicle, permit, municipality(), data["new_vehicle_id"],
                        data["replaced_on"], data["reason"], data.get("requested_on"))
    return _after(permit, "substitute_vehicle", errors,
                  "Veículo substituído. O crachá anterior foi revogado: emita um novo.")


@routes.post("/bo/permissoes/<int(max=2147483647):ident>/transferir")
@staff_view
def permit_transfer(ident):
    permit = get_scoped_or_404(Permit, ident)
    refusal = life.transfer_refusal(municipality())
    if refusal:
        return permit_detail_page(permit, {"life_transfer": {"_schema": [refusal]}}, status=409)
    data, errors = _form(TransferSchema)
    if errors is None:
        _, errors = run(life.transfer_permit, permit, municipality(), data["heir_id"], data["cause"], data["reason"])
    return _after(permit, "transfer", errors, "Permissão transferida. O crachá anterior foi revogado: emita um novo.")


@routes.post("/bo/permissoes/<int(max=2147483647):ident>/desistencia")
@staff_view
def permit_desistencia(ident):
    permit = get_scoped_or_404(Permit, ident)
    data, errors = _form(DesistenciaSchema)
    called = None
    if errors is None:
        called, errors = run(life.register_desistencia, permit, municipality(), data["term_number"],
                             data["signed_on"], data["reason"])
    return _after(permit, "desistencia", errors, "Desistência registrada; vaga aberta. " + (
        f"Suplente convocado: {called.name}." if called else "Não há suplente no cadastro."))


@routes.post("/bo/permissoes/<int(max=2147483647):ident>/afastamento")
@staff_view
def permit_absence(ident):
    permit = get_scoped_or_404(Permit, ident)
    data, errors = _form(AbsenceSchema)
    called = None
    if errors is None:
        called, errors = run(life.declare_absence_loss, permit, municipality(), data["absent_since"], data["reason"])
    return _after(permit, "absence", errors, "Perda da permissão registrada; vaga aberta. " + (
        f"Suplente convocado: {called.name}." if called else "Não há suplente no cadastro."))

