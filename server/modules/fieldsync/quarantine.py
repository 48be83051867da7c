"""Poison records (issue 20): what a pushed record may carry that no column can hold, and the
quarantine of the records the push refuses for their content (`rejected`) or because their id is
not the pushing device's (`foreign`: kept as this device sent it, nothing of the holder).

A refused record never fails its batch (the others are stored) and is never silently dropped:
the phone sets it aside and shows the reason; the server keeps it here, once per device and
item, for the back office (review/quarantine.py), because a signed auto is evidence even when
it cannot be filed.
"""
import hashlib
import json

from ...core.audit import record as audit
from ...core.upsert import dialect_insert
from ...extensions import db
from .models import RejectedRecord
from .schemas import MAX_BODY_CHARS, UUID_RE

KINDS = ("inspection", "auto", "cancel_request", "vistoria")
# JSON escapes that decode to text PostgreSQL cannot store (NUL, lone UTF-16 surrogates); a
# body without any of them needs no walk.
_SUSPECT_ESCAPES = ("\\u0000", "\\ud", "\\uD")
UNSTORABLE = "Texto com caractere que não pode ser guardado (NUL ou UTF-16 isolado)."


def _bad_text(text):
    if "\x00" in text:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def unstorable_field(text, parsed):
    """The dotted name of the first field of the decoded body holding text no column can store,
    or None. `text` is the body as sent (already known to encode as UTF-8)."""
    if not any(escape in text for escape in _SUSPECT_ESCAPES):
        return None
    return _walk(parsed, "body")


def _walk(value, path):
    if isinstance(value, str):
        return path if _bad_text(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if _bad_text(key):
                return path
            found = _walk(item, f"{path}.{key}")
            if found:
                return found
    elif isinstance(value, list):
        for item in value:
            found = _walk(item, path)
            if found:
                return found
    return None


def _storable(value, limit=None):
    """Text as the database can hold it: NUL and lone surrogates written as escapes."""
    text = value if isinstance(value, str) else ("" if value is None else repr(value))
    text = text.replace("\x00", "\\u0000").encode("utf-8", "backslashreplace").decode("utf-8")
    return text[:limit] if limit else text


def _peek(body_text):
    """(kind, auto number) a refused body names, when it can be read at all."""
    try:
        body = json.loads(body_text)
    except (ValueError, RecursionError):
        return None, None
    if not isinstance(body, dict):
        return None, None
    kind = body.get("kind") if body.get("kind") in KINDS else None
    number = body.get("number")
    return kind, (number if kind == "auto" and isinstance(number, str) and 0 < len(number) <= 40
                  and not _bad_text(number) else None)


def keep(device, user, refused, received_at):
    """refused: [(raw push item, {field: [reasons]})]. Keeps each item that carried a body (an item
    that is not even an object has nothing to keep: its answer says why) and audits the push's
    refusals once."""
    rows = []
    for raw, errors in refused:
        if not isinstance(raw, dict) or not isinstance(raw.get("body"), str):
            continue
        rid = raw.get("id") if isinstance(raw.get("id"), str) and UUID_RE.match(raw["id"]) else None
        body = _storable(raw["body"], MAX_BODY_CHARS)
        signature = _storable(raw.get("signature"), 1000)
        kind, number = _peek(body)
        digest = hashlib.sha256("\n".join((rid or "", body, signature)).encode("utf-8")).hexdigest()
        rows.append({"municipality_id": device.municipality_id, "device_id": device.id, "user_id": user.id,
                     "item_hash": digest, "record_id": rid, "kind": kind, "auto_number": number,
                     "body": body, "signature": signature, "errors": errors, "received_at": received_at})
    if not rows:
        return
    table = RejectedRecord.__table__
    connection = db.session.connection()
    kept = []
    for row in rows:  # a handful at most: a push of poison is rare
        new = connection.execute(dialect_insert(connection, table).values(**row).on_conflict_do_nothing(
            index_elements=["device_id", "item_hash"]).returning(table.c.id)).first()
        if new is not None:
            kept.append({"id": new[0], "record_id": row["record_id"], "kind": row["kind"],
                         "fields": sorted(row["errors"])})
    if kept:
        audit("sync_reject", "field_record_rejected", kept[0]["id"] if len(kept) == 1 else None, None,
              {"device_id": device.id, "records": kept}, municipality_id=device.municipality_id)
