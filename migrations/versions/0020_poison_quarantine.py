"""poison records: the quarantine of pushed records refused for their content (issue 20), kept
with their reasons for the back office (fieldsync.models.RejectedRecord).

Revision ID: 0020_poison_quarantine
Revises: 0019_history_commission_date
"""
from alembic import op
import sqlalchemy as sa


revision = '0020_poison_quarantine'
down_revision = '0019_history_commission_date'
branch_labels = None
depends_on = None


def _fk(table, column, target):
    return sa.ForeignKeyConstraint([column], [f'{target}.id'], name=op.f(f'fk_{table}_{column}_{target}'))


def upgrade():
    table = 'field_record_rejected'
    op.create_table(table,
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('item_hash', sa.String(length=64), nullable=False),
    sa.Column('record_id', sa.String(length=36), nullable=True),
    sa.Column('kind', sa.String(length=16), nullable=True),
    sa.Column('auto_number', sa.String(length=40), nullable=True),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('signature', sa.Text(), nullable=False),
    sa.Column('errors', sa.JSON(), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    _fk(table, 'device_id', 'device'),
    _fk(table, 'municipality_id', 'municipality'),
    _fk(table, 'user_id', 'user'),
    sa.PrimaryKeyConstraint('id', name=op.f(f'pk_{table}')),
    sa.UniqueConstraint('device_id', 'item_hash', name=op.f(f'uq_{table}_device_id')),
    )
    with op.batch_alter_table(table, schema=None) as batch_op:
        for column in ('device_id', 'municipality_id', 'received_at'):
            batch_op.create_index(batch_op.f(f'ix_{table}_{column}'), [column], unique=False)


def downgrade():
    op.drop_table('field_record_rejected')
