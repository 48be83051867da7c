"""Which field-data entities changed, recorded in the same transaction as the change.

A session listener sees every ORM write to permits, operators, vehicles, pontos, companies and
applied penalties, bumps the municipality's version (FieldDataState, under its row lock) and
upserts one FieldDataEntity row per changed entity at that version. A device that pulls with
cursor N gets every entity whose version is above N, each once and in its current state.

The row lock serializes registry writes per municipality until commit: versions therefore
become visible in order, and a reader that saw version N has seen everything up to N. Writes
that bypass the ORM (raw SQL, bulk inserts) are not seen: `mark_changed` is there for them.

The feed lives with the registry, below every feature that writes registry rows (calendar,
issuance…). Features above that own a tracked entity of their own (fieldsync's applied
penalties) add it with `track`, so the feed never imports them.
"""
from sqlalchemy import event, select, update

from ...core.upsert import dialect_insert
from ...extensions import db
from .change_models import FieldDataEntity, FieldDataState
from .models import Company, Operator, Permit, Ponto, Vehicle, utcnow

TRACKED = {Permit: "permit", Operator: "operator", Vehicle: "vehicle", Ponto: "ponto"}


def track(model, kind):
    """Follow writes to `model` as entities of `kind` (a feature above the registry's own)."""
    TRACKED[model] = kind


def bump_version(connection, municipality_id) -> int:
    """Next version of the municipality's field data (row-locked until the transaction ends)."""
    state = FieldDataState.__table__
    connection.execute(dialect_insert(connection, state).values(
        municipality_id=municipality_id, version=0, changed_at=utcnow()).on_conflict_do_nothing())
    connection.execute(update(state).where(state.c.municipality_id == municipality_id)
                       .values(version=state.c.version + 1, changed_at=utcnow()))
    return connection.execute(select(state.c.version).where(state.c.municipality_id == municipality_id)).scalar_one()


def lock_feed(connection, municipality_id):
    """Take the municipality's feed row lock, held until the transaction ends, without a new
    version. Appends to another per-municipality log whose cursor is a row id (the crachás'
    status list) take it first, so their ids are drawn in commit order: a device that read up to
    id N can never see an id below N commit later."""
    state = FieldDataState.__table__
    connection.execute(dialect_insert(connection, state).values(
        municipality_id=municipality_id, version=0, changed_at=utcnow()).on_conflict_do_nothing())
    connection.execute(update(state).where(state.c.municipality_id == municipality_id)
                       .values(version=state.c.version))


def mark_changed(connection, municipality_id, entities):
    """entities: iterable of (kind, entity_id, removed). One version for all of them."""
    entities = list(entities)
    if not entities:
        return None
    version = bump_version(connection, municipality_id)
    stmt = dialect_insert(connection, FieldDataEntity.__table__)
    # One statement for all of them (executemany): a rule change marks every operator.
    connection.execute(stmt.on_conflict_do_update(
        index_elements=["municipality_id", "kind", "entity_id"],
        set_={"version": stmt.excluded.version, "removed": stmt.excluded.removed}),
        [{"municipality_id": municipality_id, "kind": kind, "entity_id": entity_id, "version": version,
          "removed": removed} for kind, entity_id, removed in entities])
    return version


def _changed_entities(session):
    """{municipality_id: {(kind, id): removed}} for this flush."""
    found = {}

    def add(obj, removed):
        kind = TRACKED.get(type(obj))
        if kind is not None and obj.id is not None and obj.municipality_id is not None:
            found.setdefault(obj.municipality_id, {})[(kind, obj.id)] = removed
        elif isinstance(obj, Company) and obj.id is not None:
            # The holder's name travels inside the permit rows: a renamed company changes them.
            for permit_id in session.execute(select(Permit.id).where(Permit.holder_company_id == obj.id)).scalars():
                found.setdefault(obj.municipality_id, {})[("permit", permit_id)] = False

    for obj in session.new:
        add(obj, False)
    for obj in session.dirty:
        if session.is_modified(obj, include_collections=True):
            add(obj, False)
    for obj in session.deleted:
        add(obj, True)
    return found


def _after_flush(session, _context):
    found = _changed_entities(session)
    if not found:
        return
    connection = session.connection()
    for municipality_id, entities in found.items():
        mark_changed(connection, municipality_id, [(k, i, r) for (k, i), r in entities.items()])


def init_tracking():
    """Attach the listener once per process (idempotent)."""
    if not event.contains(db.session, "after_flush", _after_flush):
        event.listen(db.session, "after_flush", _after_flush)
