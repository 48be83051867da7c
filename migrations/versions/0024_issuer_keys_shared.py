"""issuer keys shared: the encrypted private keys move from instance/keys/<slug>/<kid>.pem into
issuer_key.private_key_pem (issue 22, item 2), where every app server reads the same ones and a
rotation or revocation is one transaction. The PEM text is copied as it is, still encrypted with
the passphrase (MOTOFISCAL_KEY_PASSPHRASE, KEY_PASSPHRASE or keys/master.key: unchanged), so
crachás and notificações signed before verify and the active key signs on. A revoked key's PEM is
not copied (it was deleted at revocation). The files are left where they were (this transaction
may still roll back): once the upgrade is checked they can be deleted, master.key excepted.
At most one active key per municipality: a partial unique index.

Revision ID: 0024_issuer_keys_shared
Revises: 0023_retention
"""
import logging
import os
from pathlib import Path

from alembic import op
import sqlalchemy as sa
from flask import current_app


revision = '0024_issuer_keys_shared'
down_revision = '0023_retention'
branch_labels = None
depends_on = None

log = logging.getLogger('alembic.runtime.migration')
ACTIVE = sa.text("status = 'active'")


def _keys_dir():
    return Path(current_app.instance_path) / 'keys'


def _drop_column(table, column):
    # SQLite drops a plain column in place (3.35+); a batch copy of issuer_key would have to drop
    # a table that credential and auto_notification reference.
    op.execute(f'ALTER TABLE {table} DROP COLUMN {column}')


def upgrade():
    op.add_column('issuer_key', sa.Column('private_key_pem', sa.Text(), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, kid, status, private_key_file FROM issuer_key")).all()
    for key_id, kid, status, relative in rows:
        if status == 'revoked':
            continue
        path = _keys_dir() / relative
        if not path.is_file():
            path = path.with_name(path.name + '.revoking')  # parked by a revocation that never committed
        if not path.is_file():
            log.warning("issuer_key %s (kid %s, %s): key file %s missing, it cannot sign", key_id, kid, status, relative)
            continue
        bind.execute(sa.text("UPDATE issuer_key SET private_key_pem = :pem WHERE id = :id"),
                     {"pem": path.read_text(), "id": key_id})
    _drop_column('issuer_key', 'private_key_file')
    op.create_index('uq_issuer_key_one_active', 'issuer_key', ['municipality_id'], unique=True,
                    sqlite_where=ACTIVE, postgresql_where=ACTIVE)


def downgrade():
    """The keys go back to files, named as before (<slug>/<kid>.pem, another name if taken)."""
    op.drop_index('uq_issuer_key_one_active', table_name='issuer_key')
    # Nullable on the way down: making it NOT NULL again would mean copying issuer_key on SQLite.
    op.add_column('issuer_key', sa.Column('private_key_file', sa.String(length=200), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT k.id, k.kid, k.private_key_pem, m.slug FROM issuer_key k "
                                "JOIN municipality m ON m.id = k.municipality_id")).all()
    for key_id, kid, pem, slug in rows:
        relative = f"{slug}/{kid}.pem"
        if pem:
            folder = _keys_dir() / slug
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            existing = _keys_dir() / relative
            if existing.exists() and existing.read_text() != pem:  # the file 0024 left is reused
                relative = f"{slug}/{kid}-{key_id}.pem"
            fd = os.open(_keys_dir() / relative, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(pem)
        bind.execute(sa.text("UPDATE issuer_key SET private_key_file = :f WHERE id = :id"), {"f": relative, "id": key_id})
    _drop_column('issuer_key', 'private_key_pem')
