"""Vehicle substitutions still waiting for the vistoria the law demands of the substitute (Sapezal
art. 15; Paranatinga arts. 9º and 32; Nortelândia art. 2º): the requirement gate, the alerts,
the permit list's filter and the permit page ask here. The substitution itself is recorded by
permits.changes_of_life; an approved Vistoria clears it (operations.satisfy_substitution_vistorias)."""
from sqlalchemy import exists

from ..registry.life_models import VehicleSubstitution
from ..registry.models import OCCUPYING, Permit
from .models import Vistoria


def _without_vistoria_since_change():
    """SQL condition on VehicleSubstitution: the law wants a vistoria of the substitute and no
    approved vistoria of it is dated on or after the change (whatever path recorded it)."""
    approved_since = exists().where(Vistoria.vehicle_id == VehicleSubstitution.new_vehicle_id,
                                    Vistoria.result == "aprovada",
                                    Vistoria.inspected_on >= VehicleSubstitution.replaced_on)
    return (VehicleSubstitution.vistoria_required.is_(True) & VehicleSubstitution.vistoria_done_on.is_(None)
            & ~approved_since)


def substituted_without_vistoria():
    """SQL condition on Permit, for the permit list's filter and the dashboard: in force, its
    current vehicle came by a substitution that still lacks the vistoria the law demands
    (Sapezal art. 15; Paranatinga arts. 9º and 32; Nortelândia art. 2º)."""
    pending = exists().where(VehicleSubstitution.permit_id == Permit.id,
                             VehicleSubstitution.new_vehicle_id == Permit.vehicle_id,
                             _without_vistoria_since_change())
    return Permit.status.in_(OCCUPYING) & pending


def pending_substitution_vistorias(permit):
    """Substitutions still waiting for the new vehicle's vistoria: cleared only by an approved
    Vistoria record of that vehicle dated on or after the change (issuance.operations.record_vistoria
    also links it). A substitute replaced again before its vistoria no longer serves the permit:
    only the current vehicle's counts."""
    return (VehicleSubstitution.query.filter(VehicleSubstitution.permit_id == permit.id,
                                             VehicleSubstitution.new_vehicle_id == permit.vehicle_id,
                                             _without_vistoria_since_change())
            .order_by(VehicleSubstitution.id).all())


def satisfied_substitution_vistorias(permit):
    return (VehicleSubstitution.query.filter(VehicleSubstitution.permit_id == permit.id,
                                             VehicleSubstitution.vistoria_id.isnot(None))
            .order_by(VehicleSubstitution.id).all())
