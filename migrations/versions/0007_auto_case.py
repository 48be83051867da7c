"""auto_case: the administrative case of each received auto de infração (review state);
one case is opened for every auto already held.

Revision ID: 0007_auto_case
Revises: 0006_fieldsync
"""
from alembic import op
import sqlalchemy as sa


revision = '0007_auto_case'
down_revision = '0006_fieldsync'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('auto_case',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('record_id', sa.String(length=36), nullable=False),
    sa.Column('number', sa.String(length=40), nullable=True),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('decided_by_id', sa.Integer(), nullable=True),
    sa.Column('decision_reason', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['decided_by_id'], ['user.id'], name=op.f('fk_auto_case_decided_by_id_user')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_auto_case_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['record_id'], ['field_record.id'], name=op.f('fk_auto_case_record_id_field_record')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auto_case')),
    sa.UniqueConstraint('record_id', name=op.f('uq_auto_case_record_id'))
    )
    with op.batch_alter_table('auto_case', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auto_case_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_auto_case_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_auto_case_number'), ['number'], unique=False)
        batch_op.create_index(batch_op.f('ix_auto_case_state'), ['state'], unique=False)
    # Autos received before this revision get their case, waiting for review.
    op.execute("INSERT INTO auto_case (municipality_id, record_id, number, state, created_at) "
               "SELECT municipality_id, id, auto_number, 'recebido', received_at FROM field_record "
               "WHERE kind = 'auto'")


def downgrade():
    with op.batch_alter_table('auto_case', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auto_case_state'))
        batch_op.drop_index(batch_op.f('ix_auto_case_number'))
        batch_op.drop_index(batch_op.f('ix_auto_case_municipality_id'))
        batch_op.drop_index(batch_op.f('ix_auto_case_created_at'))
    op.drop_table('auto_case')
