"""Fills the dashboard's derived tables from the records the sync push accepted (its
records_accepted signal, connected by server/subscriptions.py), in the push's transaction
(set-based: the pontos the push read with the permits, at most two queries for the others, two
INSERTs, four rollup upserts: per day and per month)."""
import functools

from sqlalchemy import and_, bindparam, case, func, literal, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ...core.clock import to_local
from ...core.sql_lists import in_list
from ...extensions import db
from ..fieldsync.bulk import insert_new
from ..autos.auto_data import traffic_authority_act
from ..registry.models import Municipality, Permit
from .derive import derive, filing_moment, permit_number
from .models import FieldStat, FieldStatDay, FieldStatItem, FieldStatItemDay, FieldStatItemMonth, FieldStatMonth


# Built once (the push runs them on every batch; ids and numbers are list parameters, core/sql_lists.py).
_PERMIT_PONTOS = select(Permit.number, Permit.ponto_id).where(
    Permit.municipality_id == bindparam("mid"), in_list(Permit.number, "numbers"))
_COUNTED_PONTOS = select(FieldStat.record_id, FieldStat.ponto_id).where(
    FieldStat.municipality_id == bindparam("mid"), in_list(FieldStat.record_id, "ids"))


def count_push(device, records, permit_pontos, **_):
    """Receiver of fieldsync.signals.records_accepted (server/subscriptions.py)."""
    record_stats(device.municipality_id, records, permit_pontos)


def record_stats(municipality_id, records, permit_pontos=None):
    """records: [{"id", "kind", "user_id", "device_at", "received_at", "body": dict}];
    permit_pontos: {permit number: ponto id} already read by the caller (the others are looked up).
    Idempotent: a record already counted is skipped by the primary keys."""
    derived = []
    # A CTB/SNT infraction is the municipal auto's only where the municipality recorded its
    # integration into the SNT: then it is counted with the others; never otherwise.
    traffic = frozenset() if traffic_authority_act(db.session.get(Municipality, municipality_id)) else None
    for r in records:
        moment = filing_moment(r.get("device_at"), r["received_at"])  # never 1969-12 or 2099-01
        out = derive(r["body"], r["kind"], to_local(moment), traffic)
        if out is not None:
            derived.append((r, *out))
    if not derived:
        return
    pontos = _pontos(municipality_id, derived, permit_pontos or {})
    connection = db.session.connection()
    # RETURNING: only the records counted now go into the rollup (a replay adds nothing).
    # One statement whatever the batch size (fieldsync/bulk.py): a multi-row VALUES clause was
    # compiled anew on every push.
    new = set(insert_new(connection, FieldStat.__table__, [
        {"record_id": r["id"], "municipality_id": municipality_id, "user_id": r["user_id"],
         "ponto_id": pontos.get(r["id"]), "void": False, **stat} for r, stat, _ in derived],
        ("record_id",), "record_id"))
    items = [{"record_id": r["id"], "municipality_id": municipality_id, "void": False, **item}
             for r, _, record_items in derived for item in record_items if r["id"] in new]
    insert_new(connection, FieldStatItem.__table__, items, ("record_id", "position"), "record_id")
    _roll(connection, new, +1)


def _pontos(municipality_id, derived, known):
    """record id → ponto of the permit it names (`known`: {permit number: ponto} read already);
    an auto without a permit number takes its inspection's (in this batch or counted before)."""
    numbers = {r["id"]: permit_number(r["body"]) for r, _, _ in derived}
    wanted = {n for n in numbers.values() if n and n not in known}
    by_number = dict(known)
    if wanted:
        by_number.update(db.session.connection().execute(_PERMIT_PONTOS, {
            "mid": municipality_id, "numbers": sorted(wanted)}).all())
    pontos = {rid: by_number.get(n) for rid, n in numbers.items() if n}
    inspections = {r["id"]: r["body"].get("inspection_id") for r, _, _ in derived
                   if r["kind"] == "auto" and not numbers[r["id"]] and isinstance(r["body"].get("inspection_id"), str)}
    unknown = {i for i in inspections.values() if i not in pontos}
    if unknown:
        pontos.update(dict(db.session.connection().execute(_COUNTED_PONTOS, {
            "mid": municipality_id, "ids": sorted(unknown)}).all()))
    for rid, inspection_id in inspections.items():
        pontos[rid] = pontos.get(inspection_id)
    return pontos


def case_changed(case, old=None, new=None, **_):
    """auto_case_changed receiver (server/subscriptions.py): an auto declared insubsistente stops
    counting in amounts (and back, should a later decision reopen it); same transaction as the
    decision."""
    void = new == "insubsistente"
    connection = db.session.connection()
    _roll(connection, [case.record_id], -1)  # take the record out of the rollup as it was …
    for model in (FieldStat, FieldStatItem):
        connection.execute(update(model).where(model.record_id == case.record_id).values(void=void))
    _roll(connection, [case.record_id], +1)  # … and put it back as it is now


def _roll(connection, record_ids, sign):
    """Adds (sign +1) or subtracts (-1) these records' field_stat / field_stat_item rows to the
    daily rollups: INSERT … SELECT … GROUP BY … ON CONFLICT DO UPDATE SET n = n + excluded.n.
    Row upserts are atomic in PostgreSQL, so two pushes at once add up; keys in order so two
    transactions lock shared rows in the same order (no deadlock)."""
    record_ids = list(record_ids)
    if not record_ids:
        return
    for statement in _roll_statements(connection.dialect.name, sign):
        connection.execute(statement, {"record_ids": record_ids})


@functools.lru_cache(maxsize=None)
def _roll_statements(dialect_name, sign):
    """The rollup upserts (per day and per month, of records and of items), built once per
    dialect and sign (the record ids are a list parameter): building them cost more CPU than the
    rest of a one-record push together."""
    s, i = FieldStat, FieldStatItem
    live = lambda m: func.coalesce(func.sum(case((m.void.is_(False), m.amount_cents))), 0)  # noqa: E731
    unpriced = lambda m: func.coalesce(func.sum(case((m.void.is_(False), m.unpriced))), 0)  # noqa: E731
    ponto_key = func.coalesce(s.ponto_id, 0)
    stat_sums = (sign * func.count(case((s.kind == "inspection", 1))), sign * func.count(case((s.kind == "auto", 1))),
                 literal(sign) * live(s), literal(sign) * unpriced(s), sign * func.count(case((s.void.is_(True), 1))))
    stat_values = ["inspections", "autos", "amount_cents", "unpriced", "void"]
    item_sums = (func.max(i.label), sign * func.count(), literal(sign) * live(i), literal(sign) * unpriced(i))
    item_values = ["label", "count", "amount_cents", "unpriced"]
    day_keys = (s.municipality_id, s.day, s.user_id, ponto_key)
    month_keys = (s.municipality_id, s.month, s.user_id, ponto_key)
    item_day_keys = (i.municipality_id, i.day, i.kind, i.code)
    # An item's month is its record's (field_stat holds it; the item row has only the day).
    item_month_keys = (i.municipality_id, s.month, i.kind, i.code)
    records = in_list(s.record_id, "record_ids")
    return (
        _upsert(dialect_name, FieldStatDay.__table__, ["municipality_id", "day", "user_id", "ponto_key"],
                ["month", *stat_values],
                select(*day_keys, func.max(s.month), *stat_sums).where(records)
                .group_by(*day_keys).order_by(*day_keys)),
        _upsert(dialect_name, FieldStatMonth.__table__, ["municipality_id", "month", "user_id", "ponto_key"],
                stat_values,
                select(*month_keys, *stat_sums).where(records).group_by(*month_keys).order_by(*month_keys)),
        _upsert(dialect_name, FieldStatItemDay.__table__, ["municipality_id", "day", "kind", "code"], item_values,
                select(*item_day_keys, *item_sums).where(in_list(i.record_id, "record_ids"))
                .group_by(*item_day_keys).order_by(*item_day_keys)),
        _upsert(dialect_name, FieldStatItemMonth.__table__, ["municipality_id", "month", "kind", "code"], item_values,
                select(*item_month_keys, *item_sums).select_from(i).join(s, s.record_id == i.record_id)
                .where(in_list(i.record_id, "record_ids"))
                .group_by(*item_month_keys).order_by(*item_month_keys)))


def _upsert(dialect_name, table, keys, values, rows):
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    stmt = dialect.insert(table).from_select(keys + values, rows)
    summed = {c: table.c[c] + stmt.excluded[c] for c in values if c not in ("month", "label")}
    if "label" in values:  # keep the greatest, as max(label) over the items would
        summed["label"] = case((and_(stmt.excluded.label.isnot(None), or_(
            table.c.label.is_(None), stmt.excluded.label > table.c.label)), stmt.excluded.label),
            else_=table.c.label)
    return stmt.on_conflict_do_update(index_elements=keys, set_=summed)
