"""The sync push of one batch of signed records (docs/sync-api.md), in named phases.

Concurrency: a batch is inserted with one INSERT … ON CONFLICT (id) DO NOTHING under the
client UUIDs (primary key). A replay, even in parallel with the original, hits the unique key
(PostgreSQL makes the second inserter wait for the first to commit) and is answered from the row
that won; nothing is checked-then-inserted. Rows are sent in (seq, id) order so two transactions
take their locks in the same order, and a deadlock still retries the whole batch (operations.push).

The phases run in this order, and their statements in the order written: which rows get locked
first, and what the session's autoflush writes when, are part of the push's behaviour. Each phase
answers the items it decides (`_Push.results`, by the item's place in the batch):
  1. parse          each item alone; refused for its content → `rejected`, quarantined
  2. foreign bodies a body naming a device that is not this phone, or a cancellation naming no auto
                    of this municipality → `foreign`, before any insert
  3. judge          signature, device, chain and clock flags of every record (never a refusal)
  4. insert         the first item of each id, in one statement; the ids refused are read back
  5. kind effects   what an accepted record of each kind does beyond being stored (ON_ACCEPT)
  6. classify       accepted, or, for an id already held: duplicate, conflict (kept apart) or foreign
  7. side effects   audit, photo links, settled chain flags, last contact, foreign quarantine,
                    missing photos, the dashboard's figures — then one flush; the request
                    commits the batch (core/transaction.py).
Autos and the dashboard sit above fieldsync: the push announces to them (signals.py) and they
write in its transaction, at the same points as when it called them.
The statement budget (a fixed number per batch, never one per record): docs/ARCHITECTURE.md.
"""
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from flask import current_app
from sqlalchemy import bindparam, update

from ...core.audit import record as audit
from ...core.clock import as_utc
from ...core.signals import announce
from ...extensions import db
from ..accounts.models import Device
from ..issuance.vistoria_sync import file_vistorias
from . import quarantine
from .bulk import insert_new
from .chain import DeviceChain
from ...core.upsert import dialect_insert
from .checks import body_hash, clock_flags, signature_flags
from .models import FieldRecord, FieldRecordConflict, RecordPhoto, utcnow
from .ownership import FOREIGN_AUTO_MESSAGE, autos_held, foreign_answer, same_phone
from .push_items import Rejected, parse_item, rejected_answer
from .record_photos import missing_photos, referenced_photos
from .resolve import claim_numbers, fill_operator_of_autos, resolve_operators
from .signals import autos_accepted, records_accepted

DEFAULT_CLOCK_LIMIT_S = 600
# The device's "último contato" (back office, minute precision) is written at most this often:
# a phone pushing every few seconds does not rewrite its device row each time.
SEEN_EVERY = timedelta(minutes=1)

_records = FieldRecord.__table__
_SET_FLAGS = update(_records).where(_records.c.id == bindparam("rid")).values(flags=bindparam("new_flags"))
_SEEN = update(Device.__table__).where(Device.__table__.c.id == bindparam("device_id")).values(
    last_seen_at=bindparam("seen_at"))


def _utc(dt):
    return dt.astimezone(timezone.utc) if dt is not None else None


def _iso(dt):
    return dt.astimezone(timezone.utc).isoformat().replace("+00:00", "Z") if dt else None


# What an accepted record of each kind does beyond being stored, once per batch and set-based:
# kind → handler(device, signing user, accepted rows of that kind, each with its parsed "body")
# → {record id: flags to add}. Run in this order, inside the push's transaction.
def _accept_inspections(device, user, rows):
    fill_operator_of_autos(device.municipality_id, [r["id"] for r in rows if r["operator_id"] is not None])
    return {}


def _accept_autos(device, user, rows):
    flags = claim_numbers(device, [(r["id"], r["auto_number"]) for r in rows])
    # One auto case each (autos subscribes: server/subscriptions.py), here, before the vistorias.
    announce(autos_accepted, device, autos=[{"id": r["id"], "number": r["auto_number"]} for r in rows])
    return flags


ON_ACCEPT = {"inspection": _accept_inspections, "auto": _accept_autos,
             "vistoria": file_vistorias}  # one issuance Vistoria each (issuance/vistoria_sync.py)


@dataclass(slots=True)
class _Push:
    """One batch on its way through the phases."""
    device: Device
    user: object
    records: list          # the raw items, as sent
    limit_s: int           # the clock drift tolerated before a record is flagged (checks.clock_flags)
    received_at: datetime  # one instant for the whole batch: every record, quarantine and answer
    results: list          # one answer per item, by its place in the batch; None until decided


@dataclass(slots=True)
class _Judged:
    """The records of this phone, judged, in lock order."""
    entries: list          # [(Item, row to insert)], every item, a repeated id included
    first_of: dict         # id → row of its first item, the only one inserted (a repeat is judged like a replay)
    chain: DeviceChain     # the device's chain with this batch's records in it
    permit_pontos: dict    # permit number → ponto, read once with the operators, for the dashboard


@dataclass(slots=True)
class _Stored:
    """What the INSERT made of the judged records."""
    new: list              # [(Item, row)] inserted now, one per id, in lock order
    new_ids: set
    existing: dict         # id → FieldRecord already held (the insert refused the id)
    owners: set            # the devices whose holding counts as this phone's


def process(device, user, records):
    """Every item gets one answer, in the order sent. Nothing is committed here: the caller's
    SAVEPOINT holds the batch (a failure, a deadlock that operations.push retries, leaves
    nothing) and the request's end commits it (core/transaction.py)."""
    limit_s = current_app.config.get("SYNC_CLOCK_DRIFT_LIMIT_S", DEFAULT_CLOCK_LIMIT_S)
    push = _Push(device, user, records, limit_s, utcnow(), [None] * len(records))
    items = _parse(push)
    items, ours = _set_aside_foreign_bodies(push, items)
    judged = _judge(push, items)
    stored = _insert_first_of_each_id(push, judged, ours)
    # The accepted rows as the kinds' handlers and the dashboard read them: the body as sent.
    accepted_rows = [{**row, "body": item.sent} for item, row in stored.new]
    extra = _apply_kind_effects(push, accepted_rows)
    _classify(push, judged, stored, extra)
    photos = _link_photos(push, stored.new, extra)
    _settle_flags(judged, stored.new, extra)
    _note_last_contact(push)
    db.session.flush()
    _keep_foreign(push)
    _attach_missing_photos(push, stored.new, photos)
    if stored.new:
        # The dashboard's figures (dashboard subscribes: server/subscriptions.py), last: its daily
        # rollup rows are shared by every push of the day, and their row locks are held from here
        # to the commit.
        announce(records_accepted, device, records=accepted_rows, permit_pontos=judged.permit_pontos)
    db.session.flush()  # every write reaches the database here, inside the caller's SAVEPOINT
    return push.results


# --- 1. parse ---------------------------------------------------------------------------------

def _parse(push):
    """The items that parse, in the order sent. The others are answered `rejected` and kept in
    the quarantine for the back office (quarantine.py: a refused record is never dropped)."""
    items, refused = [], []
    for index, raw in enumerate(push.records):
        try:
            items.append(parse_item(index, raw))
        except Rejected as rej:
            push.results[index] = rejected_answer(raw, rej.fields)
            refused.append((raw, rej.fields))
    quarantine.keep(push.device, push.user, refused, push.received_at)
    return items


# --- 2. foreign bodies ------------------------------------------------------------------------

def _set_aside_foreign_bodies(push, items):
    """(this phone's items in lock order, this phone's device ids). A body that names another
    device is not this phone's record whatever its id: answered `foreign` and never inserted."""
    # One lock order for every transaction: (seq, id).
    items.sort(key=lambda item: (item.parsed["seq"], item.id))
    ours = same_phone(push.device, [item.parsed["device_id"] for item in items])
    for item in items:
        if item.parsed["device_id"] not in ours:
            push.results[item.index] = foreign_answer(item.id)
    items = [item for item in items if item.parsed["device_id"] in ours]
    cancels = [item for item in items if item.parsed["kind"] == "cancel_request"]
    if cancels:
        autos = autos_held(push.device.municipality_id, [item.parsed["auto_id"] for item in cancels])
        autos |= {item.id for item in items if item.parsed["kind"] == "auto"}
        for item in cancels:
            if item.parsed["auto_id"] not in autos:
                push.results[item.index] = foreign_answer(item.id, "body.auto_id", FOREIGN_AUTO_MESSAGE)
        items = [item for item in items if push.results[item.index] is None]
    return items, ours


# --- 3. judge ---------------------------------------------------------------------------------

def _judge(push, items):
    """Every item's row with its flags. A record is never refused for what the checks find
    (a signed auto exists whatever the server thinks of it): they become flags for review."""
    chain = DeviceChain(push.device, {item.parsed["seq"] for item in items})
    operators, permit_pontos = resolve_operators(push.device.municipality_id, [item.parsed for item in items])
    entries, first_of = [], {}
    for item in items:
        row = _row(push, item, chain, operators.get(item.id))
        if item.id not in first_of:  # the same id twice in one batch: the second is judged like a replay
            first_of[item.id] = row
            # In the chain at once: the batch's next record finds its predecessor here.
            chain.add(item.id, row["seq"], row["body_hash"], row["prev_hash"], row["flags"])
        entries.append((item, row))
    return _Judged(entries, first_of, chain, permit_pontos)


def _row(push, item, chain, operator_id):
    """The field_record row of an item, with the flags its checks raise."""
    device, parsed = push.device, item.parsed
    clock = parsed["clock"]
    flags = signature_flags(device.public_key, item.body, item.signature)
    if parsed["device_id"] != device.id:  # an earlier enrollment of this phone
        flags.append("device_mismatch")
    flags += chain.flags(item.id, parsed["seq"], parsed["prev_hash"])
    flags += clock_flags(clock["device_at"], clock.get("gps_at"), push.received_at, device.registered_at, push.limit_s)
    token = parsed.get("public_token")
    return {"id": item.id, "municipality_id": device.municipality_id, "device_id": device.id,
            "user_id": push.user.id, "kind": parsed["kind"], "seq": parsed["seq"], "prev_hash": parsed["prev_hash"],
            "body_hash": body_hash(item.body), "body": item.body, "signature": item.signature, "flags": flags,
            # Stored in UTC: SQLite keeps no offset, so a -04:00 wall time would read back 4 h early.
            "received_at": push.received_at, "device_at": _utc(clock["device_at"]),
            "gps_at": _utc(clock.get("gps_at")), "auto_number": parsed.get("number"), "operator_id": operator_id,
            "inspection_id": parsed.get("inspection_id"), "target_id": parsed.get("auto_id"),
            "public_token_hash": body_hash(token) if token else None}


# --- 4. insert --------------------------------------------------------------------------------

def _insert_first_of_each_id(push, judged, ours):
    """One INSERT … ON CONFLICT (id) DO NOTHING for the batch, rows in (seq, id) order (bulk.py:
    the same statement text whatever the batch size). The database decides what is new: the
    ids it refused are read back, with which of their holders are this phone, for phase 6."""
    inserted = set(insert_new(db.session.connection(), _records, list(judged.first_of.values()), ("id",), "id"))
    existing = {r.id: r for r in FieldRecord.query.filter(FieldRecord.id.in_(
        [rid for rid in judged.first_of if rid not in inserted]))} if len(inserted) < len(judged.first_of) else {}
    holders = same_phone(push.device, [r.device_id for r in existing.values()]) if existing else ours
    new, new_ids = [], set()
    for item, row in judged.entries:
        if row["id"] in inserted and row["id"] not in new_ids:
            new_ids.add(row["id"])
            new.append((item, row))
    return _Stored(new, new_ids, existing, holders | ours)


# --- 5. kind effects --------------------------------------------------------------------------

def _apply_kind_effects(push, accepted_rows):
    """Each kind's handler over its accepted rows (ON_ACCEPT, in its order) → {record id: flags
    to add} (e.g. an auto whose number was not this device's to use)."""
    extra = {}
    for kind, handler in ON_ACCEPT.items():
        of_kind = [row for row in accepted_rows if row["kind"] == kind]
        if of_kind:
            extra.update(handler(push.device, push.user, of_kind))
    return extra


# --- 6. classify ------------------------------------------------------------------------------

def _classify(push, judged, stored, extra):
    """The answer of every judged item. The first item of an id inserted now is `accepted`; any
    other (a replay, a repeat within the batch, an id already held) is judged against the row
    the database holds: this phone's same body is a `duplicate`, this phone's other body a
    `conflict` (kept apart for review), anyone else's `foreign`."""
    answered = set()
    for item, row in judged.entries:
        rid = row["id"]
        if rid in stored.new_ids and rid not in answered:
            answered.add(rid)
            status, flags, stored_at = "accepted", row["flags"] + extra.get(rid, []), push.received_at
        else:
            held = stored.existing.get(rid) or db.session.get(FieldRecord, rid)
            # Held by another device — or not even visible (another municipality's row under
            # PostgreSQL row-level security, while its primary key still refuses the insert).
            if held is None or held.device_id not in stored.owners:
                push.results[item.index] = foreign_answer(rid)
                continue
            if held.body_hash == row["body_hash"]:
                status, flags, stored_at = "duplicate", held.flags, held.received_at
            else:  # the same device's changed replay: kept apart for review, in its municipality
                _keep_conflict(push, row)
                status, flags, stored_at = "conflict", [], push.received_at
        push.results[item.index] = {"id": rid, "status": status, "errors": {}, "flags": list(flags or []),
                                    "missing_photos": [], "received_at": _iso(stored_at)}


def _keep_conflict(push, row):
    """Another body under a known id: kept once per distinct body, audited when new."""
    device = push.device
    table = FieldRecordConflict.__table__
    connection = db.session.connection()
    kept = connection.execute(dialect_insert(connection, table).values(
        record_id=row["id"], municipality_id=device.municipality_id, device_id=device.id,
        body_hash=row["body_hash"], body=row["body"], signature=row["signature"], received_at=row["received_at"])
        .on_conflict_do_nothing(index_elements=["record_id", "body_hash"]).returning(table.c.id)).first()
    if kept is not None:
        audit("sync_conflict", "field_record", row["id"], None, {"body_hash": row["body_hash"]},
              municipality_id=device.municipality_id)


# --- 7. side effects --------------------------------------------------------------------------

def _link_photos(push, new, extra):
    """Audits the accepted records and links them to the photos they reference → those links."""
    photos = [{"record_id": row["id"], "sha256": h} for item, row in new for h in referenced_photos(item.parsed)]
    if new:
        # One audit row per push (the records themselves are an append-only log of who sent
        # what and when): per-record rows doubled the ingest cost.
        accepted = [{"id": row["id"], "kind": row["kind"], "seq": row["seq"],
                     "flags": row["flags"] + extra.get(row["id"], []), "number": row["auto_number"]}
                    for _item, row in new]
        audit("sync_accept", "field_record", accepted[0]["id"] if len(accepted) == 1 else None, None,
              {"device_id": push.device.id, "records": accepted}, municipality_id=push.device.municipality_id)
    insert_new(db.session.connection(), RecordPhoto.__table__, photos, ("record_id", "sha256"), "record_id")
    return photos


def _settle_flags(judged, new, extra):
    """Flags that change after the insert: the kinds' extra flags on the new rows, and the
    successors already stored whose chain_gap the new records close."""
    updates = {rid: judged.first_of[rid]["flags"] + flags for rid, flags in extra.items()}
    for _item, row in new:
        for successor, new_flags in judged.chain.settled_successors(row["seq"], row["body_hash"]):
            updates[successor] = new_flags
    connection = db.session.connection()
    for rid, flags in updates.items():
        connection.execute(_SET_FLAGS, {"rid": rid, "new_flags": flags})


def _note_last_contact(push):
    device = push.device
    if device.last_seen_at is None or push.received_at - as_utc(device.last_seen_at) >= SEEN_EVERY:
        db.session.connection().execute(_SEEN, {"device_id": device.id, "seen_at": push.received_at})


def _keep_foreign(push):
    """Foreign items are said to the pusher's municipality only (its fiscal sent records that are
    not its own), and kept in its quarantine like any refused record (issue 20: a poison record
    is visible in the back office): the item exactly as this device sent it, with the same
    neutral reason — nothing of the holder, whose row is never read into it."""
    not_ours = [(push.records[index], result["errors"]) for index, result in enumerate(push.results)
                if result and result["status"] == "foreign"]
    if not_ours:
        audit("sync_foreign", "device", push.device.id, None,
              {"device_id": push.device.id, "records": [raw["id"] for raw, _errors in not_ours]},
              municipality_id=push.device.municipality_id)
        quarantine.keep(push.device, push.user, not_ours, push.received_at)


def _attach_missing_photos(push, new, photos):
    """The photos still to upload, on the answers of the records stored (accepted now or a
    duplicate): a phone that lost an upload learns it at its next replay. Not asked when no
    stored record can reference any (no links now, no duplicate)."""
    kept = [r["id"] for r in push.results if r["status"] in ("accepted", "duplicate")]
    missing = missing_photos(kept, push.device.municipality_id) if photos or len(kept) > len(new) else {}
    for result in push.results:
        if result["status"] in ("accepted", "duplicate"):
            result["missing_photos"] = missing.get(result["id"], [])
