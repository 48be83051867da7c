"""vistoria.field_record_id (the signed field record a vistoria came from, unique: one vistoria
per record) and vistoria.review_note (why an approval from the field waits for a clerk).

Revision ID: 0015_vistoria_sync
Revises: 0014_dash_rollup
"""
from alembic import op
import sqlalchemy as sa


revision = '0015_vistoria_sync'
down_revision = '0014_dash_rollup'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('vistoria', schema=None) as batch_op:
        batch_op.add_column(sa.Column('field_record_id', sa.String(length=36), nullable=True))
        batch_op.add_column(sa.Column('review_note', sa.Text(), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_vistoria_field_record_id'), ['field_record_id'])


def downgrade():
    with op.batch_alter_table('vistoria', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_vistoria_field_record_id'), type_='unique')
        batch_op.drop_column('review_note')
        batch_op.drop_column('field_record_id')
