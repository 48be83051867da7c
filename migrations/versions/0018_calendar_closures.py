"""calendar closures: the municipality's own days without office hours (religious holidays under
Lei 9.093/1995 art. 2º, decreed pontos facultativos, office closures) with the act of each,
read by the legal calendar to move deadlines (issue 19).

Revision ID: 0018_calendar_closures
Revises: 0017_seizure_fees
"""
from alembic import op
import sqlalchemy as sa


revision = '0018_calendar_closures'
down_revision = '0017_seizure_fees'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('calendar_closure',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('name_pt', sa.String(length=120), nullable=False),
    sa.Column('act', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'],
                            name=op.f('fk_calendar_closure_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_calendar_closure')),
    sa.UniqueConstraint('municipality_id', 'day', name=op.f('uq_calendar_closure_municipality_id')),
    )
    with op.batch_alter_table('calendar_closure', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_calendar_closure_municipality_id'), ['municipality_id'], unique=False)


def downgrade():
    op.drop_table('calendar_closure')
