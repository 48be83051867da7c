"""Field sync operations: device keys, auto number blocks and the batch push.

Concurrency: a batch is inserted with one INSERT … ON CONFLICT (id) DO NOTHING under the
client UUIDs (primary key). A replay, even in parallel with the original, hits the unique key
(PostgreSQL makes the second inserter wait for the first to commit) and is answered from the row
that won; nothing is checked-then-inserted. Rows are sent in (seq, id) order so two transactions
take their locks in the same order, and a deadlock still retries the whole batch.
"""
import json
import time
from datetime import datetime, timedelta, timezone

from flask import current_app
from marshmallow import ValidationError
from sqlalchemy import and_, bindparam, select, update
from sqlalchemy.exc import OperationalError

from ...core.audit import record as audit
from ...core.clock import as_utc
from ...core.errors import ApiError, flatten_fields
from ...core.sql_lists import in_list
from ...core.upsert import dialect_insert
from ...extensions import db
from ..accounts.models import Device
from .checks import body_hash, chain_flags, clock_flags, key_fingerprint, load_public_key, signature_flags
from ..autos.operations import open_cases
from ..dashboard.operations import record_stats
from ..issuance.vistoria_sync import file_vistorias
from . import fastparse, quarantine
from .bulk import insert_new
from .resolve import claim_numbers, fill_operator_of_autos, resolve_operators
from .models import (EvidencePhoto, FieldRecord,
                     FieldRecordConflict, RecordPhoto)
from .schemas import BODY_SCHEMAS, BodySchema, PushRecordSchema

DEFAULT_CLOCK_LIMIT_S = 600
# The device's "último contato" (back office, minute precision) is written at most this often:
# a phone pushing every few seconds does not rewrite its device row each time.
SEEN_EVERY = timedelta(minutes=1)


def utcnow():
    return datetime.now(timezone.utc)


def _utc(dt):
    return dt.astimezone(timezone.utc) if dt is not None else None


def _iso(dt):
    return dt.astimezone(timezone.utc).isoformat().replace("+00:00", "Z") if dt else None


# --- device key -------------------------------------------------------------------------------

def register_key(device, public_key_text):
    """Record the device's signing key once; the same key again is fine, another one is not."""
    try:
        _key, raw = load_public_key(public_key_text)
    except ValueError:
        raise ApiError(422, "validation_error", "Dados inválidos.",
                       {"public_key": ["Chave Ed25519 inválida (32 bytes em base64url)."]}) from None
    if device.public_key is None:
        # Conditional write: of two concurrent first registrations only one can win.
        won = db.session.execute(update(Device).where(Device.id == device.id, Device.public_key.is_(None))
                                 .values(public_key=public_key_text)).rowcount
        db.session.expire(device, ["public_key"])
        if won:
            audit("register_key", "device", device.id, None, {"key_fingerprint": key_fingerprint(raw)},
                  municipality_id=device.municipality_id)
            db.session.commit()
            return key_fingerprint(raw)
    if device.public_key != public_key_text:
        db.session.rollback()
        raise ApiError(409, "key_already_registered",
                       "Este aparelho já tem uma chave registrada. Entre novamente para registrar outra.")
    db.session.rollback()
    return key_fingerprint(raw)


# --- push -------------------------------------------------------------------------------------

# Schema instances are reused: building one per record cost a third of the push time
# (marshmallow deep-copies its fields); load() keeps no state on the instance.
_ITEM_SCHEMA = PushRecordSchema()
_BODY_SCHEMAS = {kind: schema() for kind, schema in BODY_SCHEMAS.items()}
_BASE_BODY_SCHEMA = BodySchema()


class _Rejected(Exception):
    def __init__(self, fields):
        super().__init__("rejected")
        self.fields = fields


def _parse(raw):
    """raw push item → (record id, body text, signature, parsed body, body as sent). Raises _Rejected."""
    item = fastparse.item(raw)
    if item is None:
        try:
            item = _ITEM_SCHEMA.load(raw)
        except ValidationError as err:
            raise _Rejected(flatten_fields(err.messages)) from None
    if quarantine._bad_text(item["body"]):
        raise _Rejected({"body": [quarantine.UNSTORABLE]})
    try:
        body = json.loads(item["body"])
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        raise _Rejected({"body": ["JSON inválido."]}) from None
    if not isinstance(body, dict):
        raise _Rejected({"body": ["O corpo deve ser um objeto JSON."]})
    parsed = fastparse.body(body)  # the common valid body; None → the schema decides and words the errors
    if parsed is None:
        kind = body.get("kind")
        schema = _BODY_SCHEMAS.get(kind, _BASE_BODY_SCHEMA) if isinstance(kind, str) else _BASE_BODY_SCHEMA
        try:
            parsed = schema.load(body)
        except ValidationError as err:
            raise _Rejected({f"body.{k}": v for k, v in flatten_fields(err.messages).items()}) from None
    if parsed["id"] != item["id"]:
        raise _Rejected({"body.id": ["Diferente do id do registro."]})
    unstorable = quarantine.unstorable_field(item["body"], body)
    if unstorable:
        raise _Rejected({unstorable: [quarantine.UNSTORABLE]})
    return item["id"], item["body"], item["signature"], parsed, body


def referenced_photos(parsed):
    hashes = list(parsed.get("photos") or [])
    for values in (parsed.get("item_photos") or {}).values():
        hashes.extend(values)
    signatures = parsed.get("signatures") or {}
    hashes.extend(h for h in (signatures.get("fiscal"), signatures.get("operator")) if h)
    return sorted(set(hashes))


_MISSING_PHOTOS = (select(RecordPhoto.record_id, RecordPhoto.sha256)
                   .outerjoin(EvidencePhoto, and_(EvidencePhoto.sha256 == RecordPhoto.sha256,
                                                  EvidencePhoto.municipality_id == bindparam("mid")))
                   .where(in_list(RecordPhoto.record_id, "ids"), EvidencePhoto.id.is_(None))
                   .order_by(RecordPhoto.sha256))


def missing_photos(record_ids, municipality_id):
    """{record_id: [sha256 not uploaded yet]} for the given records."""
    if not record_ids:
        return {}
    rows = db.session.connection().execute(_MISSING_PHOTOS, {"mid": municipality_id, "ids": list(record_ids)})
    out = {}
    for record_id, sha in rows:
        out.setdefault(record_id, []).append(sha)
    return out


# What an accepted record of each kind does beyond being stored, once per batch and set-based:
# kind → handler(device, signing user, accepted rows of that kind, each with its parsed "body")
# → {record id: flags to add}.
def _accept_inspections(device, user, rows):
    fill_operator_of_autos(device.municipality_id, [r["id"] for r in rows if r["operator_id"] is not None])
    return {}


def _accept_autos(device, user, rows):
    flags = claim_numbers(device, [(r["id"], r["auto_number"]) for r in rows])
    open_cases(device.municipality_id, [{"id": r["id"], "number": r["auto_number"]} for r in rows])
    return flags


ON_ACCEPT = {"inspection": _accept_inspections, "auto": _accept_autos,
             "vistoria": file_vistorias}  # one issuance Vistoria each (issuance/vistoria_sync.py)


_records = FieldRecord.__table__
_CHAIN = select(_records.c.id, _records.c.seq, _records.c.body_hash, _records.c.prev_hash, _records.c.flags).where(
    _records.c.device_id == bindparam("device_id"), in_list(_records.c.seq, "seqs"))
_SET_FLAGS = update(_records).where(_records.c.id == bindparam("rid")).values(flags=bindparam("new_flags"))
_SEEN = update(Device.__table__).where(Device.__table__.c.id == bindparam("device_id")).values(
    last_seen_at=bindparam("seen_at"))


class _Chain:
    """The device's records around the batch's seqs, loaded once: {seq: {id: (body_hash, prev_hash, flags)}}."""

    def __init__(self, device, seqs):
        wanted = {s + d for s in seqs for d in (-1, 0, 1)}
        self.by_seq, self.known = {}, set()
        rows = db.session.connection().execute(_CHAIN, {"device_id": device.id, "seqs": sorted(wanted)})
        for rid, seq, digest, prev, flags in rows:
            self.add(rid, seq, digest, prev, flags)

    def add(self, rid, seq, digest, prev, flags):
        if rid in self.known:  # a replay or a conflicting body: the stored record stays the link
            return
        self.known.add(rid)
        self.by_seq.setdefault(seq, {})[rid] = (digest, prev, list(flags or []))

    def flags(self, rid, seq, prev_hash):
        predecessors = {digest for digest, _p, _f in self.by_seq.get(seq - 1, {}).values()}
        others = [r for r in self.by_seq.get(seq, {}) if r != rid]
        return chain_flags(seq, prev_hash, predecessors, bool(others))

    def settled_successors(self, seq, digest):
        """Successors flagged chain_gap, with their flags now that their predecessor is here."""
        for rid, (s_digest, prev, flags) in self.by_seq.get(seq + 1, {}).items():
            if "chain_gap" in flags:
                new = [f for f in flags if f != "chain_gap"] + ([] if prev == digest else ["broken_chain"])
                self.by_seq[seq + 1][rid] = (s_digest, prev, new)
                yield rid, new


def _row(device, user, record_id, body, signature, parsed, received_at, limit_s, chain, operator_id):
    clock = parsed["clock"]
    flags = signature_flags(device.public_key, body, signature)
    if parsed["device_id"] != device.id:
        flags.append("device_mismatch")
    flags += chain.flags(record_id, parsed["seq"], parsed["prev_hash"])
    flags += clock_flags(clock["device_at"], clock.get("gps_at"), received_at, device.registered_at, limit_s)
    token = parsed.get("public_token")
    return {"id": record_id, "municipality_id": device.municipality_id, "device_id": device.id, "user_id": user.id,
            "kind": parsed["kind"], "seq": parsed["seq"], "prev_hash": parsed["prev_hash"],
            "body_hash": body_hash(body), "body": body, "signature": signature, "flags": flags,
            # Stored in UTC: SQLite keeps no offset, so a -04:00 wall time would read back 4 h early.
            "received_at": received_at, "device_at": _utc(clock["device_at"]), "gps_at": _utc(clock.get("gps_at")),
            "auto_number": parsed.get("number"), "operator_id": operator_id,
            "inspection_id": parsed.get("inspection_id"), "target_id": parsed.get("auto_id"),
            "public_token_hash": body_hash(token) if token else None}


def _insert_new(rows):
    """One INSERT … ON CONFLICT (id) DO NOTHING for the batch, rows in (seq, id) order → the
    ids inserted (bulk.py: the same statement text whatever the batch size)."""
    return set(insert_new(db.session.connection(), FieldRecord.__table__, rows, ("id",), "id"))


def _keep_conflict(device, row):
    """Another body under a known id: kept once per distinct body, audited when new."""
    table = FieldRecordConflict.__table__
    connection = db.session.connection()
    kept = connection.execute(dialect_insert(connection, table).values(
        record_id=row["id"], municipality_id=device.municipality_id, device_id=device.id,
        body_hash=row["body_hash"], body=row["body"], signature=row["signature"], received_at=row["received_at"])
        .on_conflict_do_nothing(index_elements=["record_id", "body_hash"]).returning(table.c.id)).first()
    if kept is not None:
        audit("sync_conflict", "field_record", row["id"], None, {"body_hash": row["body_hash"]},
              municipality_id=device.municipality_id)


# A record id belongs to the device that stored it (docs/sync-api.md, "Whose record"): any other
# device's push of that id is answered `foreign`, nothing stored, nothing said about the holder.
FOREIGN_MESSAGE = "Este identificador não pertence a este aparelho: o registro não foi gravado."
_SAME_PHONE = select(Device.__table__.c.id).where(
    in_list(Device.__table__.c.id, "ids"), Device.__table__.c.user_id == bindparam("user_id"),
    Device.__table__.c.municipality_id == bindparam("mid"), Device.__table__.c.public_key == bindparam("key"))


def _same_phone(device, device_ids):
    """This device and, of `device_ids`, the earlier enrollments of the same phone: the same
    user, municipality and signing key (a phone that signs in again after its token expired
    gets a new device row and keeps its key and its unsent records)."""
    others = sorted({d for d in device_ids if isinstance(d, int) and d != device.id and 0 < d < 2**31})
    if not others or device.public_key is None:
        return {device.id}
    rows = db.session.connection().execute(_SAME_PHONE, {"ids": others, "user_id": device.user_id,
                                                         "mid": device.municipality_id, "key": device.public_key})
    return {device.id, *(rid for (rid,) in rows)}


def _foreign(rid):
    return {"id": rid, "status": "foreign", "errors": {"id": [FOREIGN_MESSAGE]}, "flags": [],
            "missing_photos": [], "received_at": None}


def _process(device, user, records):
    """Set-based: one INSERT … ON CONFLICT DO NOTHING for the batch; what the database refused
    (the id exists) is a duplicate or a conflict when this device holds it, else foreign; a body
    naming another device is foreign before any insert."""
    limit_s = current_app.config.get("SYNC_CLOCK_DRIFT_LIMIT_S", DEFAULT_CLOCK_LIMIT_S)
    received_at = utcnow()
    results = [None] * len(records)
    items, refused = [], []
    for index, raw in enumerate(records):
        try:
            items.append((index, *_parse(raw)))
        except _Rejected as rej:
            rid = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
            results[index] = {"id": quarantine._storable(rid, 100) if rid else None, "status": "rejected",
                              "errors": rej.fields, "flags": [], "missing_photos": [], "received_at": None}
            refused.append((raw, rej.fields))
    quarantine.keep(device, user, refused, received_at)  # refused for content: kept for the back office
    # One lock order for every transaction: (seq, id).
    items.sort(key=lambda item: (item[4]["seq"], item[1]))
    ours = _same_phone(device, [item[4]["device_id"] for item in items])
    foreign = [item for item in items if item[4]["device_id"] not in ours]
    for item in foreign:
        results[item[0]] = _foreign(item[1])
    items = [item for item in items if item[4]["device_id"] in ours]
    chain = _Chain(device, {item[4]["seq"] for item in items})
    operators, permit_pontos = resolve_operators(device.municipality_id, [item[4] for item in items])
    rows, first_of = [], {}
    for index, record_id, body, signature, parsed, sent in items:
        row = _row(device, user, record_id, body, signature, parsed, received_at, limit_s, chain,
                   operators.get(record_id))
        if record_id not in first_of:  # the same id twice in one batch: the second is judged like a replay
            first_of[record_id] = row
            chain.add(record_id, row["seq"], row["body_hash"], row["prev_hash"], row["flags"])
        rows.append((index, parsed, sent, row))
    inserted = _insert_new(list(first_of.values()))
    existing = {r.id: r for r in FieldRecord.query.filter(FieldRecord.id.in_(
        [rid for rid in first_of if rid not in inserted]))} if len(inserted) < len(first_of) else {}
    holders = _same_phone(device, [r.device_id for r in existing.values()]) if existing else ours
    new, seen = [], set()
    for _index, parsed, sent, row in rows:
        if row["id"] in inserted and row["id"] not in seen:
            seen.add(row["id"])
            new.append((parsed, sent, row))
    accepted_rows = [{**row, "body": sent} for _p, sent, row in new]
    extra = {}
    for kind, handler in ON_ACCEPT.items():
        of_kind = [row for row in accepted_rows if row["kind"] == kind]
        if of_kind:
            extra.update(handler(device, user, of_kind))
    flag_updates = {rid: first_of[rid]["flags"] + flags for rid, flags in extra.items()}
    for _p, _s, row in new:
        for successor, new_flags in chain.settled_successors(row["seq"], row["body_hash"]):
            flag_updates[successor] = new_flags
    answered = set()
    for index, parsed, sent, row in rows:
        rid = row["id"]
        if rid in seen and rid not in answered:
            answered.add(rid)
            status, flags, stored_at = "accepted", row["flags"] + extra.get(rid, []), received_at
        else:
            stored = existing.get(rid) or db.session.get(FieldRecord, rid)
            # Held by another device — or not even visible (another municipality's row under
            # PostgreSQL row-level security, while its primary key still refuses the insert).
            if stored is None or stored.device_id not in holders | ours:
                results[index] = _foreign(rid)
                continue
            if stored.body_hash == row["body_hash"]:
                status, flags, stored_at = "duplicate", stored.flags, stored.received_at
            else:  # the same device's changed replay: kept apart for review, in its municipality
                _keep_conflict(device, row)
                status, flags, stored_at = "conflict", [], received_at
        results[index] = {"id": rid, "status": status, "errors": {}, "flags": list(flags or []),
                          "missing_photos": [], "received_at": _iso(stored_at), "_keep": status != "conflict"}
    photos = [{"record_id": row["id"], "sha256": h} for parsed, _s, row in new for h in referenced_photos(parsed)]
    if new:
        # One audit row per push (the records themselves are an append-only log of who sent
        # what and when): per-record rows doubled the ingest cost.
        accepted = [{"id": row["id"], "kind": row["kind"], "seq": row["seq"],
                     "flags": row["flags"] + extra.get(row["id"], []), "number": row["auto_number"]}
                    for _p, _s, row in new]
        audit("sync_accept", "field_record", accepted[0]["id"] if len(accepted) == 1 else None, None,
              {"device_id": device.id, "records": accepted}, municipality_id=device.municipality_id)
    insert_new(db.session.connection(), RecordPhoto.__table__, photos, ("record_id", "sha256"), "record_id")
    connection = db.session.connection()
    for rid, flags in flag_updates.items():
        connection.execute(_SET_FLAGS, {"rid": rid, "new_flags": flags})
    if device.last_seen_at is None or received_at - as_utc(device.last_seen_at) >= SEEN_EVERY:
        connection.execute(_SEEN, {"device_id": device.id, "seen_at": received_at})
    db.session.flush()
    not_ours = [(records[index], result["errors"]) for index, result in enumerate(results)
                if result and result["status"] == "foreign"]
    if not_ours:
        # Said to the pusher's municipality only (its fiscal sent records that are not its own),
        # and kept in its quarantine like any refused record (issue 20: a poison record is visible
        # in the back office): the item exactly as this device sent it, with the same neutral
        # reason — nothing of the holder, whose row is never read into it.
        audit("sync_foreign", "device", device.id, None,
              {"device_id": device.id, "records": [raw["id"] for raw, _errors in not_ours]},
              municipality_id=device.municipality_id)
        quarantine.keep(device, user, not_ours, received_at)
    kept = [r["id"] for r in results if r and r.pop("_keep", False)]
    missing = missing_photos(kept, device.municipality_id) if photos or len(kept) > len(new) else {}
    for result in results:
        result.pop("_keep", None)
        if result["status"] in ("accepted", "duplicate"):
            result["missing_photos"] = missing.get(result["id"], [])
    if new:
        # The dashboard's figures (dashboard/models.py), last: its daily rollup rows are shared by
        # every push of the day, and their row locks are held from here to the commit.
        record_stats(device.municipality_id, accepted_rows, permit_pontos)
    db.session.commit()
    return results


def _is_deadlock(exc):
    code = getattr(getattr(exc, "orig", None), "sqlstate", None)
    return code in ("40P01", "40001")


def push(device, user, records, attempts=3):
    """Store a batch; one result per record, in the order sent."""
    for attempt in range(attempts):
        try:
            return _process(device, user, records)
        except OperationalError as exc:
            db.session.rollback()
            if not _is_deadlock(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")
