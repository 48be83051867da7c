"""permit_transition: an existing permit recorded as it is (issue 36, item 2). The registry import
records a permit that misses a requirement of the law (Sapezal Lei 125/1999, art. 5º: at most 3
years of use) with the requirement and the transition that applies — the law's own adaptation
period, a recorded act's prazo de adequação, or none defined — instead of refusing it. Row-level
security as 0025_tenancy_rls put it on the other tenant tables. No data to move.

Revision ID: 0033_i36b_permit_transitions
Revises: 0032_i35a_legal_time
"""
from alembic import op
import sqlalchemy as sa

from server.core import rls_sql

revision = '0033_i36b_permit_transitions'
down_revision = '0032_i35a_legal_time'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'permit_transition',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('municipality_id', sa.Integer(), nullable=False),
        sa.Column('permit_id', sa.Integer(), nullable=False),
        sa.Column('requirement_id', sa.String(length=120), nullable=False),
        sa.Column('label', sa.String(length=300), nullable=False),
        sa.Column('citation', sa.String(length=200), nullable=False),
        sa.Column('kind', sa.String(length=10), nullable=False),
        sa.Column('act', sa.String(length=200), nullable=True),
        sa.Column('until', sa.Date(), nullable=True),
        sa.Column('source', sa.String(length=200), nullable=False),
        sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'],
                                name=op.f('fk_permit_transition_municipality_id_municipality')),
        sa.ForeignKeyConstraint(['permit_id'], ['permit.id'], name=op.f('fk_permit_transition_permit_id_permit')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_permit_transition')),
        sa.UniqueConstraint('permit_id', 'requirement_id', name='uq_permit_transition_requirement'))
    with op.batch_alter_table('permit_transition', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_permit_transition_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_permit_transition_permit_id'), ['permit_id'], unique=False)
    if op.get_bind().dialect.name == 'postgresql':
        for statement in rls_sql.enable('permit_transition', rls_sql.tenant_condition()):
            op.execute(statement)


def downgrade():
    if op.get_bind().dialect.name == 'postgresql':
        for statement in rls_sql.disable('permit_transition'):
            op.execute(statement)
    with op.batch_alter_table('permit_transition', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_permit_transition_permit_id'))
        batch_op.drop_index(batch_op.f('ix_permit_transition_municipality_id'))
    op.drop_table('permit_transition')
