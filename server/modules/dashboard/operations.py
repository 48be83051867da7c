"""Fills the dashboard's derived tables; called by the sync push for the records it accepted,
in the push's transaction (set-based: two queries to resolve pontos, two INSERTs)."""
from sqlalchemy import select, update

from ...core.clock import to_local
from ...extensions import db
from ..fieldsync.changes import _insert
from ..autos.signals import auto_case_changed
from ..registry.models import Permit
from .derive import derive, permit_number
from .models import FieldStat, FieldStatItem


def record_stats(municipality_id, records):
    """records: [{"id", "kind", "user_id", "device_at", "received_at", "body": dict}].
    Idempotent: a record already counted is skipped by the primary keys."""
    derived = []
    for r in records:
        moment = r.get("device_at") or r["received_at"]
        out = derive(r["body"], r["kind"], to_local(moment))
        if out is not None:
            derived.append((r, *out))
    if not derived:
        return
    pontos = _pontos(municipality_id, derived)
    connection = db.session.connection()
    connection.execute(_insert(connection, FieldStat.__table__).values([
        {"record_id": r["id"], "municipality_id": municipality_id, "user_id": r["user_id"],
         "ponto_id": pontos.get(r["id"]), "void": False, **stat} for r, stat, _ in derived])
        .on_conflict_do_nothing(index_elements=["record_id"]))
    items = [{"record_id": r["id"], "municipality_id": municipality_id, "void": False, **item}
             for r, _, record_items in derived for item in record_items]
    if items:
        connection.execute(_insert(connection, FieldStatItem.__table__).values(items)
                           .on_conflict_do_nothing(index_elements=["record_id", "position"]))


def _pontos(municipality_id, derived):
    """record id → ponto of the permit it names; an auto without a permit number takes its
    inspection's (in this batch or counted before)."""
    numbers = {r["id"]: permit_number(r["body"]) for r, _, _ in derived}
    wanted = {n for n in numbers.values() if n}
    by_number = dict(db.session.execute(select(Permit.number, Permit.ponto_id).where(
        Permit.municipality_id == municipality_id, Permit.number.in_(wanted))).all()) if wanted else {}
    pontos = {rid: by_number.get(n) for rid, n in numbers.items() if n}
    inspections = {r["id"]: r["body"].get("inspection_id") for r, _, _ in derived
                   if r["kind"] == "auto" and not numbers[r["id"]] and isinstance(r["body"].get("inspection_id"), str)}
    unknown = {i for i in inspections.values() if i not in pontos}
    if unknown:
        pontos.update(dict(db.session.execute(select(FieldStat.record_id, FieldStat.ponto_id).where(
            FieldStat.municipality_id == municipality_id, FieldStat.record_id.in_(unknown))).all()))
    for rid, inspection_id in inspections.items():
        pontos[rid] = pontos.get(inspection_id)
    return pontos


@auto_case_changed.connect
def _case_changed(case, old=None, new=None, **_):
    """An auto declared insubsistente stops counting in amounts (and back, should a later
    decision reopen it); same transaction as the decision."""
    void = new == "insubsistente"
    for model in (FieldStat, FieldStatItem):
        db.session.execute(update(model).where(model.record_id == case.record_id).values(void=void))
