"""Changes during a permit's life, each as the municipality's law allows it: vehicle
substitution, transfer to an heir, desistência and the loss for absence. Every one is audited
and appears in the permit's history; a crachá that names the old holder or plate is revoked
(a new one is issued from the permit page).

Citations: Sapezal Lei 125/1999, Nortelândia Lei 030/1998, Paranatinga Lei 311/2007.
"""
from ...core.audit import record, snapshot
from ...core.clock import local_today
from ...core.errors import ApiError
from ...core.ptbr import plate as plate_text
from ...extensions import db
from ...rules.legal_calendar import deadline, plain_days_end, reading_counting
from ..calendar.service import calendar_of
from ..credentials.models import Credential
from ..credentials.operations import revoke_credential
from ..registry.legal import NON_TRANSFERABLE
from ..registry.life_models import VehicleSubstitution
from ..registry.models import OCCUPYING, Operator, Permit, PermitStatusChange, Vehicle
from ..rules.service import composed_for
from ..selection.operations import call_next_suplente
from .entities import field_error, owned_row_or_error
from .operations import change_permit_status, current_actor_id, permit_snapshot
from .rule_checks import registry_problems

# Vehicle substitution per law: deadline (days from the change of motorcycle to the request) and
# the vistoria the substitute needs before it serves.
SUBSTITUTION = {
    # "Poderá ocorrer a substituição da motocicleta ... desde que requerido ao setor de tributação,
    # no prazo máximo de 15 (quinze) dias, e que o veículo passe pela vistoria técnica competente".
    # The law does not say from when the 15 days run; we count from the day the holder changed
    # motorcycles (the only event the request can follow).
    # In which days: the municipality's option (reading sapezal.art15_window, default plain days).
    "sapezal": {"days": 15, "basis": "Lei 125/1999, art. 15", "vistoria": "Lei 125/1999, art. 15",
                "counting_option": "sapezal.art15_counting"},
    # One vehicle per permit (art. 32): the substitute replaces the old one. No deadline in the law.
    # Vistoria: periodic (art. 9º) and serving "sem vistoria válida" is fined (art. 50, Grupo V, b).
    "paranatinga": {"days": None, "basis": "Lei 311/2007, art. 32 (um único veículo por permissão)",
                    "vistoria": "Lei 311/2007, art. 9º e art. 50, Grupo V, b"},
    # Every vehicle used is proven fit "através de vistoria prévia" (art. 2º). No deadline in the law.
    "nortelandia": {"days": None, "basis": "Lei 030/1998 (a lei não fixa prazo para a substituição)",
                    "vistoria": "Lei 030/1998, art. 2º (vistoria prévia)"},
}
# Transfer of the permit to another person (arts. 24 § 4º and 30, I).
TRANSFERABLE = {"paranatinga": "Lei 311/2007, art. 30, I, e art. 24, § 4º"}
TRANSFER_CAUSES = {"falecimento": "Sucessão causa mortis", "invalidez": "Invalidez permanente"}
# Art. 27 (desistência) and § 2º (afastamento): Paranatinga only.
DESISTENCIA = {"paranatinga": "Lei 311/2007, art. 27"}
ABSENCE = {"paranatinga": ("Lei 311/2007, art. 27, § 2º", 30)}


def _history(permit, action, reason):
    db.session.add(PermitStatusChange(permit=permit, from_status=permit.status, to_status=permit.status,
                                      action=action, actor_id=current_actor_id(), reason=reason,
                                      valid_until=permit.valid_until))


def _occupying(permit):
    if permit.status not in OCCUPYING:
        raise ApiError(409, "invalid_transition", "Só se altera uma permissão em vigor (ativa, vencida ou suspensa).")


def _revoke_credentials(permit, reason):
    """The crachá prints holder and plate: after a change of either it would vouch for the past."""
    revoked = 0
    for credential in Credential.query.filter_by(permit_id=permit.id, status="active").all():
        revoke_credential(credential, reason)
        revoked += 1
    return revoked


def _window_end(municipality, start, rule):
    """Last day of a substitution window, counted as the municipality's option chose."""
    counting = reading_counting(composed_for(municipality).config.get("options"), rule.get("counting_option"))
    return deadline(calendar_of(municipality), start, rule["days"], counting)


def substitute_vehicle(permit, municipality, new_vehicle_id, replaced_on, reason, requested_on=None):
    _occupying(permit)
    rule = SUBSTITUTION.get(municipality.slug, {"days": None, "basis": "lei municipal", "vistoria": None})
    requested_on = requested_on or local_today()
    new = owned_row_or_error(Vehicle, new_vehicle_id, municipality.id, "new_vehicle_id")
    if new.id == permit.vehicle_id:
        raise field_error("new_vehicle_id", "É o veículo atual desta permissão.")
    busy = Permit.query.filter(Permit.vehicle_id == new.id, Permit.status.in_(OCCUPYING), Permit.id != permit.id)
    if db.session.query(busy.exists()).scalar():
        raise field_error("new_vehicle_id", "Este veículo já serve a outra permissão em vigor "
                                             "(um único veículo por permissão).")
    if replaced_on > requested_on:
        raise field_error("replaced_on", "A troca não pode ser posterior ao pedido.")
    if rule["days"] is not None and requested_on > _window_end(municipality, replaced_on, rule):
        raise field_error("replaced_on", f"Pedido fora do prazo: a substituição deve ser requerida em até "
                                          f"{rule['days']} dias da troca ({rule['basis']}); a troca foi em "
                                          f"{replaced_on:%d/%m/%Y}, o pedido em {requested_on:%d/%m/%Y}.")
    before = permit_snapshot(permit)
    row = VehicleSubstitution(municipality_id=municipality.id, permit=permit, old_vehicle_id=permit.vehicle_id,
                              new_vehicle=new, replaced_on=replaced_on, requested_on=requested_on,
                              vistoria_required=rule["vistoria"] is not None, basis=rule["basis"], reason=reason)
    db.session.add(row)
    permit.vehicle = new
    pending = f" Vistoria do novo veículo pendente ({rule['vistoria']})." if rule["vistoria"] else ""
    _history(permit, "substitute_vehicle", f"{reason} — {plate_text(new.plate)} ({rule['basis']}).{pending}")
    db.session.flush()
    record("substitute_vehicle", "permit", permit.id, before, permit_snapshot(permit), reason=reason,
           municipality_id=municipality.id)
    record("create", "vehicle_substitution", row.id, None, snapshot(row), municipality_id=municipality.id)
    _revoke_credentials(permit, f"Veículo substituído por {plate_text(new.plate)}")
    db.session.flush()
    return row


def transfer_refusal(municipality):
    """None when the law lets the permit pass to an heir; else the pt-BR refusal with its article."""
    if municipality.slug in NON_TRANSFERABLE:
        return (f"Intransferível: {NON_TRANSFERABLE[municipality.slug]} — a autorização é pessoal; "
                "o novo interessado precisa de nova autorização.")
    if municipality.slug not in TRANSFERABLE:
        return "A lei municipal não prevê transferência."
    return None


def transfer_permit(permit, municipality, heir_id, cause, reason):
    """Paranatinga art. 30, I: only by succession causa mortis or permanent invalidity, to an heir
    or dependant who meets the law's requirements (the operator rules of the pack, and no other
    permit in force: art. 7º, VII and art. 29)."""
    refusal = transfer_refusal(municipality)
    if refusal:
        raise ApiError(409, "not_transferable", refusal)
    _occupying(permit)
    if cause not in TRANSFER_CAUSES:
        raise field_error("cause", "Escolha a causa: falecimento ou invalidez permanente (art. 30, I).")
    heir = owned_row_or_error(Operator, heir_id, municipality.id, "heir_id")
    if heir.id == permit.holder_operator_id:
        raise field_error("heir_id", "O herdeiro deve ser outra pessoa que o titular.")
    other = Permit.query.filter(Permit.holder_operator_id == heir.id, Permit.status.in_(OCCUPYING),
                                Permit.id != permit.id)
    if db.session.query(other.exists()).scalar():
        raise field_error("heir_id", "O herdeiro já é titular de outra permissão em vigor "
                                      "(Lei 311/2007, art. 7º, VII, e art. 29).")
    problems = registry_problems(municipality, "operator", snapshot(heir))
    if problems:
        messages = [m for msgs in problems.values() for m in msgs]
        raise field_error("heir_id", "O herdeiro não preenche os requisitos da lei (art. 30, I): " + " ".join(messages))
    before = permit_snapshot(permit)
    old_name = permit.holder_name
    permit.holder_operator = heir
    permit.drivers = [d for d in permit.drivers if d.id != heir.id]
    text = f"{TRANSFER_CAUSES[cause]} de {old_name}: {reason} ({TRANSFERABLE[municipality.slug]})."
    _history(permit, "transfer", text)
    db.session.flush()
    record("transfer", "permit", permit.id, before, permit_snapshot(permit), reason=text,
           municipality_id=municipality.id)
    _revoke_credentials(permit, f"Permissão transferida a {heir.name}")
    db.session.flush()
    return permit


def register_desistencia(permit, municipality, term_number, signed_on, reason):
    """Art. 27: the holder signs the Termo de Desistência e Devolução; the permit ends and the
    vacancy goes to the next suplente in classification order (art. 34)."""
    basis = DESISTENCIA.get(municipality.slug)
    if basis is None:
        raise ApiError(409, "not_in_law", "A lei municipal não prevê termo de desistência; use Extinguir.")
    if signed_on > local_today():
        raise field_error("signed_on", "A data de assinatura não pode estar no futuro.")
    text = (f"Termo de Desistência e Devolução da Permissão nº {term_number}, assinado em {signed_on:%d/%m/%Y} "
            f"({basis}). {reason}")
    change_permit_status(permit, "extinguish", text)
    return _free_vacancy(municipality, f"Vaga aberta pela desistência da permissão {permit.number} ({basis}).")


def declare_absence_loss(permit, municipality, absent_since, reason, today=None):
    """Art. 27 § 2º: away from the activity for more than 30 days without prior justification →
    loses the permit. The law says "perderá o direito à permissão" without naming the act; we
    record it as an extinção citing § 2º (cassação, art. 24 § 3º, is the sanction for other faults)."""
    rule = ABSENCE.get(municipality.slug)
    if rule is None:
        raise ApiError(409, "not_in_law", "A lei municipal não prevê a perda por afastamento.")
    basis, days = rule
    today = today or local_today()
    if absent_since >= today:
        raise field_error("absent_since", "O afastamento deve ter começado antes de hoje.")
    if today <= plain_days_end(absent_since, days):
        raise field_error("absent_since", f"Afastado há {(today - absent_since).days} dias: a perda exige mais de "
                                           f"{days} dias sem justificativa prévia ({basis}). Poderá ser declarada a "
                                           f"partir de {plain_days_end(absent_since, days + 1):%d/%m/%Y}.")
    text = f"Afastamento desde {absent_since:%d/%m/%Y}, sem justificativa prévia ao órgão gestor ({basis}). {reason}"
    change_permit_status(permit, "extinguish", text)
    return _free_vacancy(municipality, f"Vaga aberta pela perda da permissão {permit.number} ({basis}).")


def _free_vacancy(municipality, reason):
    """Art. 27 caput and art. 34: the next suplente is called (None when the register is empty)."""
    candidate = call_next_suplente(municipality, reason)
    db.session.flush()
    return candidate
