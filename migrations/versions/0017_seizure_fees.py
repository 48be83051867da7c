"""seizure fees: the removal fee and the daily storage fee charged for each seizure (with the act
that set them, copied from the municipal settings when the seizure is recorded) and the payments
of those fees (issue 11).

Revision ID: 0017_seizure_fees
Revises: 0014_dash_rollup
"""
from alembic import op
import sqlalchemy as sa


revision = '0017_seizure_fees'
down_revision = '0016_renewal_docs'
branch_labels = None
depends_on = None


def _fk(table, column, target):
    return sa.ForeignKeyConstraint([column], [f'{target}.id'], name=op.f(f'fk_{table}_{column}_{target}'))


def _indexes(table, columns):
    with op.batch_alter_table(table, schema=None) as batch_op:
        for column in columns:
            batch_op.create_index(batch_op.f(f'ix_{table}_{column}'), [column], unique=False)


def upgrade():
    op.create_table('seizure_charge',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('seizure_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=12), nullable=False),
    sa.Column('unit_cents', sa.BigInteger(), nullable=False),
    sa.Column('act', sa.String(length=300), nullable=False),
    sa.Column('day_count', sa.String(length=16), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    _fk('seizure_charge', 'municipality_id', 'municipality'),
    _fk('seizure_charge', 'seizure_id', 'seizure'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seizure_charge')),
    sa.UniqueConstraint('seizure_id', 'kind', name=op.f('uq_seizure_charge_seizure_id')),
    )
    _indexes('seizure_charge', ['municipality_id', 'seizure_id'])
    op.create_table('seizure_fee_payment',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('seizure_id', sa.Integer(), nullable=False),
    sa.Column('charge_id', sa.Integer(), nullable=False),
    sa.Column('guia_number', sa.String(length=40), nullable=False),
    sa.Column('paid_on', sa.Date(), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    _fk('seizure_fee_payment', 'charge_id', 'seizure_charge'),
    _fk('seizure_fee_payment', 'municipality_id', 'municipality'),
    _fk('seizure_fee_payment', 'seizure_id', 'seizure'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seizure_fee_payment'))
    )
    _indexes('seizure_fee_payment', ['charge_id', 'municipality_id', 'seizure_id'])


def downgrade():
    for table in ('seizure_fee_payment', 'seizure_charge'):
        op.drop_table(table)
