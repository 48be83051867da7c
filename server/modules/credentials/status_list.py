"""The status list that devices sync: one StatusListEntry per status change of a permit, a crachá
or a key, appended in the transaction of the change.

Each append takes the municipality's feed lock first (registry.changes.lock_feed), so entry ids
are drawn in commit order and a device that fetched entries up to cursor N and then fetches
"after N" misses nothing. Permit changes arrive through registry's permit_status_changed signal
(on_permit_status_changed, connected in server/subscriptions.py).
"""
from sqlalchemy import insert

from ...core.auth import utcnow
from ...extensions import db
from ..registry.changes import lock_feed
from ..registry.models import Permit
from .models import Credential, StatusListEntry


def append_status(municipality_id, kind, ref, status, reason=None) -> StatusListEntry:
    lock_feed(db.session.connection(), municipality_id)
    entry = StatusListEntry(municipality_id=municipality_id, kind=kind, ref=str(ref), status=status,
                            reason=reason, changed_at=utcnow())
    db.session.add(entry)
    return entry


def append_statuses(municipality_id, entries) -> None:
    """append_status for many (kind, ref, status) at once, in one INSERT (imports)."""
    lock_feed(db.session.connection(), municipality_id)
    now = utcnow()
    db.session.execute(insert(StatusListEntry), [
        {"municipality_id": municipality_id, "kind": kind, "ref": str(ref), "status": status, "reason": None,
         "changed_at": now} for kind, ref, status in entries])


def credential_list_status(permit_status) -> str:
    """What an active crachá's status-list entry says: it follows its permit (issue 10)."""
    return "active" if permit_status == "ativo" else permit_status


def on_permit_status_changed(permit, old=None, new=None, **_):
    """permit_status_changed receiver (server/subscriptions.py): every permit status change (including issue and renewal) enters the list,
    and so does the new state of the permit's active crachás, which follow their permit."""
    append_status(permit.municipality_id, "permit", permit.number, new)
    if old is None or old == new:
        return
    for credential in Credential.query.filter_by(permit_id=permit.id, status="active").order_by(Credential.id):
        append_status(permit.municipality_id, "credential", credential.serial, credential_list_status(new))


def backfill_status_list(municipality) -> int:
    """Append an entry for every permit whose current status the list does not show yet (data
    loaded without going through registry operations, e.g. imports or the demo). Idempotent."""
    latest = {}
    for ref, status in (db.session.query(StatusListEntry.ref, StatusListEntry.status)
                        .filter_by(municipality_id=municipality.id, kind="permit")
                        .order_by(StatusListEntry.id)):
        latest[ref] = status
    added = 0
    for permit in Permit.query.filter_by(municipality_id=municipality.id).order_by(Permit.id):
        if latest.get(permit.number) != permit.status:
            append_status(municipality.id, "permit", permit.number, permit.status)
            added += 1
    return added
