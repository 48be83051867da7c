"""auto process: notification (signed), service, defence/appeals, penalty state, payments,
seizures.

Revision ID: 0009_process
Revises: 0008_review
"""
from alembic import op
import sqlalchemy as sa


revision = '0009_process'
down_revision = '0008_review'
branch_labels = None
depends_on = None


def _fk(table, column, target):
    return sa.ForeignKeyConstraint([column], [f'{target}.id'], name=op.f(f'fk_{table}_{column}_{target}'))


def _indexes(table, columns):
    with op.batch_alter_table(table, schema=None) as batch_op:
        for column in columns:
            batch_op.create_index(batch_op.f(f'ix_{table}_{column}'), [column], unique=False)


def upgrade():
    op.create_table('auto_notification',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('serial', sa.BigInteger(), nullable=False),
    sa.Column('number', sa.String(length=40), nullable=False),
    sa.Column('issued_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('issued_by_id', sa.Integer(), nullable=True),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('content_hash', sa.String(length=64), nullable=False),
    sa.Column('issuer_key_id', sa.Integer(), nullable=False),
    sa.Column('payload', sa.Text(), nullable=False),
    sa.Column('served_via', sa.String(length=20), nullable=True),
    sa.Column('served_on', sa.Date(), nullable=True),
    sa.Column('served_note', sa.Text(), nullable=True),
    sa.Column('served_recorded_at', sa.DateTime(timezone=True), nullable=True),
    _fk('auto_notification', 'case_id', 'auto_case'),
    _fk('auto_notification', 'issued_by_id', 'user'),
    _fk('auto_notification', 'issuer_key_id', 'issuer_key'),
    _fk('auto_notification', 'municipality_id', 'municipality'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auto_notification')),
    sa.UniqueConstraint('case_id', name=op.f('uq_auto_notification_case_id')),
    sa.UniqueConstraint('municipality_id', 'serial', name=op.f('uq_auto_notification_municipality_id'))
    )
    _indexes('auto_notification', ['municipality_id'])
    op.create_table('auto_appeal',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('level', sa.Integer(), nullable=False),
    sa.Column('deadline_id', sa.String(length=80), nullable=False),
    sa.Column('instance_pt', sa.String(length=200), nullable=False),
    sa.Column('filed_on', sa.Date(), nullable=False),
    sa.Column('due_on', sa.Date(), nullable=True),
    sa.Column('late', sa.Boolean(), nullable=False),
    sa.Column('suspensive', sa.Boolean(), nullable=False),
    sa.Column('summary', sa.Text(), nullable=False),
    sa.Column('decision', sa.String(length=12), nullable=True),
    sa.Column('decision_text', sa.Text(), nullable=True),
    sa.Column('decided_on', sa.Date(), nullable=True),
    sa.Column('decision_infraction_id', sa.String(length=80), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    _fk('auto_appeal', 'case_id', 'auto_case'),
    _fk('auto_appeal', 'municipality_id', 'municipality'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auto_appeal'))
    )
    _indexes('auto_appeal', ['case_id', 'municipality_id'])
    op.create_table('auto_penalty',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('infraction_id', sa.String(length=80), nullable=False),
    sa.Column('penalty', sa.String(length=30), nullable=True),
    sa.Column('amount_brl_cents', sa.BigInteger(), nullable=True),
    sa.Column('operator_id', sa.Integer(), nullable=True),
    sa.Column('permit_id', sa.Integer(), nullable=True),
    sa.Column('state', sa.String(length=20), nullable=False),
    sa.Column('state_reason', sa.Text(), nullable=True),
    sa.Column('applied_on', sa.Date(), nullable=True),
    sa.Column('applied_penalty_id', sa.Integer(), nullable=True),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    _fk('auto_penalty', 'applied_penalty_id', 'applied_penalty'),
    _fk('auto_penalty', 'case_id', 'auto_case'),
    _fk('auto_penalty', 'municipality_id', 'municipality'),
    _fk('auto_penalty', 'operator_id', 'operator'),
    _fk('auto_penalty', 'permit_id', 'permit'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auto_penalty')),
    sa.UniqueConstraint('case_id', 'infraction_id', name=op.f('uq_auto_penalty_case_id'))
    )
    _indexes('auto_penalty', ['case_id', 'municipality_id', 'operator_id', 'permit_id', 'state'])
    op.create_table('auto_payment',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('guia_number', sa.String(length=40), nullable=False),
    sa.Column('paid_on', sa.Date(), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    _fk('auto_payment', 'case_id', 'auto_case'),
    _fk('auto_payment', 'municipality_id', 'municipality'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auto_payment'))
    )
    _indexes('auto_payment', ['case_id', 'municipality_id'])
    op.create_table('seizure',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=12), nullable=False),
    sa.Column('seized_on', sa.Date(), nullable=False),
    sa.Column('released_on', sa.Date(), nullable=True),
    sa.Column('release_alvara', sa.String(length=60), nullable=True),
    sa.Column('release_payment_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    _fk('seizure', 'case_id', 'auto_case'),
    _fk('seizure', 'municipality_id', 'municipality'),
    _fk('seizure', 'release_payment_id', 'auto_payment'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seizure'))
    )
    _indexes('seizure', ['case_id', 'municipality_id'])


def downgrade():
    for table in ('seizure', 'auto_payment', 'auto_penalty', 'auto_appeal', 'auto_notification'):
        op.drop_table(table)
