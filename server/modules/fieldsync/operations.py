"""Field sync operations: the device's signing key and the batch push (its phases: push.py)."""
import time

from sqlalchemy import update
from sqlalchemy.exc import OperationalError

from ...core.audit import record as audit
from ...core.errors import ApiError
from ...extensions import db
from ..accounts.models import Device
from .checks import key_fingerprint, load_public_key
from .push import process


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
            return key_fingerprint(raw)  # the request's end commits the key with its audit record
    # Another registration won (or the key was there): nothing was written here.
    if device.public_key != public_key_text:
        raise ApiError(409, "key_already_registered",
                       "Este aparelho já tem uma chave registrada. Entre novamente para registrar outra.")
    return key_fingerprint(raw)


# --- push -------------------------------------------------------------------------------------

def _is_deadlock(exc):
    code = getattr(getattr(exc, "orig", None), "sqlstate", None)
    return code in ("40P01", "40001")


def push(device, user, records, attempts=3):
    """Store a batch; one result per record, in the order sent. Each attempt is a SAVEPOINT in
    the request's transaction, which commits the batch (core/transaction.py): a deadlock (or a
    serialization failure) undoes only the attempt, never what the request staged before it,
    and the batch is retried from the start."""
    for attempt in range(attempts):
        try:
            with db.session.begin_nested():
                return process(device, user, records)
        except OperationalError as exc:
            if not _is_deadlock(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")
