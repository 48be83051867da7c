"""field_stat, field_stat_item: the dashboard's figures derived from each inspection and auto
(day, fiscal, ponto, confirmed infractions with amounts, failed checklist requirements); the
records already held are backfilled with the same derivation the sync push uses.

Revision ID: 0010_dash
Revises: 0009_process
"""
import json

from alembic import op
import sqlalchemy as sa


revision = '0010_dash'
down_revision = '0009_process'
branch_labels = None
depends_on = None

BATCH = 2000


def upgrade():
    op.create_table('field_stat',
    sa.Column('record_id', sa.String(length=36), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('month', sa.String(length=7), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('ponto_id', sa.Integer(), nullable=True),
    sa.Column('amount_cents', sa.BigInteger(), nullable=True),
    sa.Column('void', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_field_stat_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['ponto_id'], ['ponto.id'], name=op.f('fk_field_stat_ponto_id_ponto')),
    sa.ForeignKeyConstraint(['record_id'], ['field_record.id'], name=op.f('fk_field_stat_record_id_field_record')),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_field_stat_user_id_user')),
    sa.PrimaryKeyConstraint('record_id', name=op.f('pk_field_stat'))
    )
    with op.batch_alter_table('field_stat', schema=None) as batch_op:
        batch_op.create_index('ix_field_stat_municipality_day', ['municipality_id', 'day'], unique=False)
    op.create_table('field_stat_item',
    sa.Column('record_id', sa.String(length=36), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('code', sa.String(length=120), nullable=False),
    sa.Column('label', sa.String(length=300), nullable=True),
    sa.Column('amount_cents', sa.BigInteger(), nullable=True),
    sa.Column('void', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_field_stat_item_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['record_id'], ['field_record.id'], name=op.f('fk_field_stat_item_record_id_field_record')),
    sa.PrimaryKeyConstraint('record_id', 'position', name=op.f('pk_field_stat_item'))
    )
    with op.batch_alter_table('field_stat_item', schema=None) as batch_op:
        batch_op.create_index('ix_field_stat_item_municipality_kind_day', ['municipality_id', 'kind', 'day'], unique=False)
    _backfill()


def _backfill():
    """Every inspection and auto already received, derived as the push derives new ones."""
    from server.core.clock import to_local
    from server.modules.dashboard.derive import derive, permit_number

    bind = op.get_bind()
    stat = sa.table('field_stat', *(sa.column(c) for c in (
        'record_id', 'municipality_id', 'kind', 'day', 'month', 'user_id', 'ponto_id', 'amount_cents', 'void')))
    item = sa.table('field_stat_item', *(sa.column(c) for c in (
        'record_id', 'position', 'municipality_id', 'kind', 'day', 'code', 'label', 'amount_cents', 'void')))
    permits = {(m, n): p for m, n, p in bind.execute(sa.text(
        "SELECT municipality_id, number, ponto_id FROM permit"))}
    inspection_ponto = {}
    # Inspections first ('inspection' > 'auto'), so an auto can take its inspection's ponto.
    rows = bind.execute(sa.text(
        "SELECT id, municipality_id, kind, user_id, device_at, received_at, body FROM field_record "
        "WHERE kind IN ('inspection', 'auto') ORDER BY kind DESC, id")).yield_per(BATCH)
    stats, items = [], []
    for rid, mid, kind, user_id, device_at, received_at, body_text in rows:
        try:
            body = json.loads(body_text)
        except ValueError:
            continue
        if not isinstance(body, dict):
            continue
        moment = device_at or received_at
        if isinstance(moment, str):  # SQLite through a text() query
            moment = _parse_time(moment)
        out = derive(body, kind, to_local(moment))
        if out is None:
            continue
        values, record_items = out
        # Columns added later (0022_amounts_unpriced backfills them): not in this revision's tables.
        values.pop("unpriced", None)
        record_items = [{k: v for k, v in i.items() if k != "unpriced"} for i in record_items]
        number = permit_number(body)
        ponto = permits.get((mid, number)) if number else inspection_ponto.get(body.get("inspection_id"))
        if kind == "inspection":
            inspection_ponto[rid] = ponto
        stats.append({"record_id": rid, "municipality_id": mid, "user_id": user_id, "ponto_id": ponto,
                      "void": False, **values})
        items.extend({"record_id": rid, "municipality_id": mid, "void": False, **i} for i in record_items)
        if len(stats) >= BATCH:
            _flush(stat, stats, item, items)
    _flush(stat, stats, item, items)
    for table in ('field_stat', 'field_stat_item'):
        op.execute(f"UPDATE {table} SET void = true WHERE record_id IN "
                   "(SELECT record_id FROM auto_case WHERE state = 'insubsistente')")


def _parse_time(text):
    from datetime import datetime
    return datetime.fromisoformat(text)


def _flush(stat, stats, item, items):
    if stats:
        op.bulk_insert(stat, stats)
        stats.clear()
    if items:
        op.bulk_insert(item, items)
        items.clear()


def downgrade():
    with op.batch_alter_table('field_stat_item', schema=None) as batch_op:
        batch_op.drop_index('ix_field_stat_item_municipality_kind_day')
    op.drop_table('field_stat_item')
    with op.batch_alter_table('field_stat', schema=None) as batch_op:
        batch_op.drop_index('ix_field_stat_municipality_day')
    op.drop_table('field_stat')
