"""The municipality's issuer keys (Ed25519, one active at a time): the first one, rotation and
revocation, each audited and on the status list. The private halves are kept encrypted
(keys.py); signing a crachá is operations.issue_credential's."""
from contextlib import contextmanager

from sqlalchemy import func, text
from sqlalchemy.exc import IntegrityError

from ...core.audit import record
from ...core.auth import utcnow
from ...core.errors import ApiError
from ...extensions import db
from . import keys as keystore
from . import signing
from .models import IssuerKey
from .status_list import append_status, backfill_status_list

MAX_KID = 255


def active_key(municipality) -> IssuerKey | None:
    return IssuerKey.query.filter_by(municipality_id=municipality.id, status="active").first()


# One municipality's key changes run one at a time across every app server: the first statement
# of each is a no-op UPDATE of the municipality's row, which takes its row lock (PostgreSQL) or the
# database's write lock (SQLite) until the request or command that made it commits; what is read
# after it is what the other servers committed. Should anything slip past (a server of an older
# version), the unique indexes (one kid per municipality, one active key per municipality) refuse
# the second writer at its flush. Each change runs in a SAVEPOINT (_key_change): refused, it leaves
# nothing staged and the caller's transaction usable (a first-day page answers with a message).

def _lock_keys(municipality):
    db.session.execute(text("UPDATE municipality SET id = id WHERE id = :id"), {"id": municipality.id})


def _current_active(municipality) -> IssuerKey | None:
    return (IssuerKey.query.filter_by(municipality_id=municipality.id, status="active")
            .execution_options(populate_existing=True).first())


@contextmanager
def _key_change(municipality):
    db.session.flush()  # the caller's own changes go before the savepoint: their errors are theirs
    _lock_keys(municipality)  # held to the end of the transaction, whatever the savepoint becomes
    try:
        with db.session.begin_nested():
            yield
            db.session.flush()  # the unique indexes judge here, inside the savepoint
    except IntegrityError:
        raise ApiError(409, "busy", "Outra alteração de chave foi feita ao mesmo tempo; confira e tente novamente.") from None


def _kid(key):
    return key.kid if key is not None else None


def create_key(municipality, actor=None) -> IssuerKey:
    """First key of a municipality (or a new one after the active key was revoked)."""
    with _key_change(municipality):
        if _current_active(municipality) is not None:
            raise ApiError(409, "key_exists", "O município já tem uma chave ativa: use a rotação.")
        key = _new_key(municipality, actor)
        backfill_status_list(municipality)  # onboarding: devices must know every permit from now on
    return key


def _new_key(municipality, actor) -> IssuerKey:
    last = db.session.query(func.max(IssuerKey.kid)).filter_by(municipality_id=municipality.id).scalar() or 0
    if last >= MAX_KID:
        raise ApiError(409, "kid_exhausted", "Identificadores de chave esgotados (máximo 255).")
    kid = last + 1
    private = signing.generate()
    key = IssuerKey(municipality_id=municipality.id, kid=kid, status="active", created_at=utcnow(),
                    public_key=signing.b64url(signing.public_raw(private)),
                    private_key_pem=keystore.encrypt_private_key(private))
    db.session.add(key)
    db.session.flush()
    append_status(municipality.id, "key", kid, "active")
    record("key_create", "issuer_key", key.id, None, {"kid": kid, "public_key": key.public_key},
           municipality_id=municipality.id, actor=actor)
    return key


def rotate_key(municipality, actor=None) -> IssuerKey:
    """New active key; the previous one is retired (still verifies what it signed). Two servers
    rotating the same key at once: the first wins, the second gets 409 and changes nothing."""
    replacing = _kid(active_key(municipality))  # the key this request means to replace
    with _key_change(municipality):
        old = _current_active(municipality)
        if _kid(old) != replacing:
            raise ApiError(409, "busy", f"A chave ativa mudou enquanto isso (agora: {_kid(old) or 'nenhuma'}); "
                                        "confira antes de girar de novo.")
        if old is not None:
            old.status, old.retired_at = "retired", utcnow()
            db.session.flush()  # before the new row: the one-active-key index sees one at a time
            append_status(municipality.id, "key", old.kid, "retired")
            record("key_retire", "issuer_key", old.id, {"status": "active"}, {"status": "retired"},
                   municipality_id=municipality.id, actor=actor)
        key = _new_key(municipality, actor)
    return key


def revoke_key(municipality, kid, reason, actor=None) -> IssuerKey:
    """Compromised key: everything it signed verifies as INVÁLIDO; its private half is erased in
    the same transaction (no server can sign with it once this commits, none before)."""
    if not reason:
        raise ApiError(422, "validation_error", "Informe o motivo.", {"reason": ["Obrigatório."]})
    with _key_change(municipality):
        key = (IssuerKey.query.filter_by(municipality_id=municipality.id, kid=kid)
               .execution_options(populate_existing=True).first())
        if key is None:
            raise ApiError(404, "not_found", f"Chave {kid} não encontrada.")
        if key.status == "revoked":
            raise ApiError(409, "already_revoked", "Chave já revogada.")
        before = {"status": key.status}
        key.status, key.revoked_reason, key.revoked_at = "revoked", reason, utcnow()
        key.private_key_pem = None
        append_status(municipality.id, "key", kid, "revoked", reason)
        record("key_revoke", "issuer_key", key.id, before, {"status": "revoked"}, reason=reason,
               municipality_id=municipality.id, actor=actor)
    return key
