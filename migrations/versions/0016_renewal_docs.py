"""document_check.no_printed_validity: a certidão checked for a renewal records the validity printed
on it (valid_until) or that it prints none. Neither recorded = validity unknown (never "em dia").

Revision ID: 0016_renewal_docs
Revises: 0014_dash_rollup
"""
from alembic import op
import sqlalchemy as sa


revision = '0016_renewal_docs'
down_revision = '0015_vistoria_sync'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('document_check', schema=None) as batch_op:
        batch_op.add_column(sa.Column('no_printed_validity', sa.Boolean(), nullable=True))


def downgrade():
    with op.batch_alter_table('document_check', schema=None) as batch_op:
        batch_op.drop_column('no_printed_validity')
