"""Crachás for many permits at once (the first day: a whole imported fleet; a renewal season).

Each crachá is issued by issue_credential, exactly as one click on the permit page issues it
(signed, on the status list, audited "credential_issue"), in a SAVEPOINT of its own
(issue_credential's), so a permit that cannot have one is skipped with the reason and the others
are kept; the request commits them all with the batch's entry. The batch itself is one
audit entry ("credential_batch") holding the serials issued and the permits skipped with their
reasons: the report and the A4 sheets (render.cards_sheet_pdf_bytes) are read back from it, so
nothing else is stored and a batch's PDF can be printed again later.
"""
from sqlalchemy import exists

from ...core.audit import AuditLog, record
from ...core.clock import local_today
from ...core.errors import ApiError
from ...extensions import db
from ..registry.models import Permit
from .models import Credential
from .operations import card_data, effective_status, issue_credential

# One batch's sheets render in one request: ~0.07 s a card without a photo on an idle 2-core
# machine, ~0.24 s with photos on one loaded ten times over (load average 23), so 50 cards stay
# well inside gunicorn's 60 s timeout. A larger fleet is issued in successive batches.
BATCH_MAX = 50
BATCH_ACTION = "credential_batch"


def without_current_credential(municipality_id, today=None):
    """Query of the permits that may have a crachá (ativo, within validity) and have no active
    one: what "all" issues, in permit-number order."""
    today = today or local_today()
    has_active = exists().where(Credential.permit_id == Permit.id, Credential.status == "active")
    return (Permit.query.filter(Permit.municipality_id == municipality_id, Permit.status == "ativo",
                                Permit.valid_until >= today, ~has_active)
            .order_by(Permit.number, Permit.id))


def issue_batch(municipality, permit_ids=None, actor=None) -> AuditLog:
    """Issue a crachá for each permit of `permit_ids` (ids of this municipality's permits), or,
    with None, for the first BATCH_MAX permits without a current one. Returns the batch's audit
    entry ({"issued": [serials], "skipped": [{"permit", "reason"}]})."""
    if permit_ids is None:
        permits = without_current_credential(municipality.id).limit(BATCH_MAX).all()
    else:
        permit_ids = list(dict.fromkeys(permit_ids))
        if not permit_ids:
            raise ApiError(422, "validation_error", "Dados inválidos.",
                           {"permit_ids": ["Selecione ao menos uma permissão."]})
        if len(permit_ids) > BATCH_MAX:
            raise ApiError(422, "validation_error", "Dados inválidos.",
                           {"permit_ids": [f"Selecione no máximo {BATCH_MAX} por lote."]})
        # Scoped: an id of another municipality is simply not found here.
        found = {p.id: p for p in Permit.query.filter(Permit.municipality_id == municipality.id,
                                                      Permit.id.in_(permit_ids))}
        permits = [found[i] for i in permit_ids if i in found]
    issued, skipped = [], []
    for permit in permits:
        number = permit.number
        if permit_ids is not None and Credential.query.filter_by(permit_id=permit.id, status="active").first():
            skipped.append({"permit": number, "reason": "Já tem crachá ativo (reemita na página da permissão)."})
            continue
        try:
            credential = issue_credential(permit, actor=actor, reason="emissão")
        except ApiError as err:  # its savepoint rolled back: nothing of this permit is staged
            skipped.append({"permit": number, "reason": err.message})
            continue
        issued.append(credential.serial)
    entry = record("credential_batch", "credential_batch", None, None,
                   {"issued": issued, "skipped": skipped}, municipality_id=municipality.id, actor=actor)
    db.session.flush()  # the entry's id: the report's address
    return entry


def batch_of(municipality_id, batch_id) -> AuditLog | None:
    return AuditLog.query.filter_by(id=batch_id, municipality_id=municipality_id, action=BATCH_ACTION).first()


def batch_credentials(municipality_id, entry):
    """The batch's crachás, in the order issued."""
    serials = (entry.after or {}).get("issued") or []
    rows = {c.serial: c for c in Credential.query.filter(Credential.municipality_id == municipality_id,
                                                         Credential.serial.in_(serials))}
    return [rows[s] for s in serials if s in rows]


def printable(credentials):
    """(cards to print, crachás left out because they are no longer valid): a sheet never prints
    a crachá that was revoked, superseded or whose permit changed since (as the single print)."""
    cards, left_out = [], []
    for credential in credentials:
        if effective_status(credential) == "active":
            cards.append(card_data(credential))
        else:
            left_out.append(credential)
    return cards, left_out
