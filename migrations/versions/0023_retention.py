"""retention: operator.anonymized_on and operator.anonymized_scope — the day the LGPD retention
job anonymised an operator's personal data and how far ("parcial": what the autos still kept
within their retention do not need; "total": everything once nothing needs it; LGPD art. 16).
No backfill: nobody was anonymised before.

Revision ID: 0023_retention
Revises: 0022_amounts_unpriced
"""
from alembic import op
import sqlalchemy as sa


revision = '0023_retention'
down_revision = '0022_amounts_unpriced'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('operator', sa.Column('anonymized_on', sa.Date(), nullable=True))
    op.add_column('operator', sa.Column('anonymized_scope', sa.String(length=10), nullable=True))


def downgrade():
    # Plain DROP COLUMN (SQLite ≥ 3.35, PostgreSQL): batch mode would rebuild `operator`, which
    # other tables reference, and SQLite refuses to drop that table while foreign keys are on.
    op.drop_column('operator', 'anonymized_scope')
    op.drop_column('operator', 'anonymized_on')
