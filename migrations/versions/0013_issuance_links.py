"""issuance links: the permit a selected candidate received (Paranatinga art. 21) and the approved
vistoria that satisfied a vehicle substitution's pending one (Sapezal art. 15).

Revision ID: 0013_issuance_links
Revises: 0012_selection
"""
from alembic import op
import sqlalchemy as sa


revision = '0013_issuance_links'
down_revision = '0012_selection'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('candidate', schema=None) as batch_op:
        batch_op.add_column(sa.Column('permit_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_candidate_permit_id'), ['permit_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_candidate_permit_id_permit'), 'permit', ['permit_id'], ['id'])

    with op.batch_alter_table('vehicle_substitution', schema=None) as batch_op:
        batch_op.add_column(sa.Column('vistoria_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_vehicle_substitution_vistoria_id'), ['vistoria_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_vehicle_substitution_vistoria_id_vistoria'), 'vistoria',
                                    ['vistoria_id'], ['id'])


def downgrade():
    with op.batch_alter_table('vehicle_substitution', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_vehicle_substitution_vistoria_id_vistoria'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_vehicle_substitution_vistoria_id'))
        batch_op.drop_column('vistoria_id')

    with op.batch_alter_table('candidate', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_candidate_permit_id_permit'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_candidate_permit_id'))
        batch_op.drop_column('permit_id')
