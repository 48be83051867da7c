"""permit.taxpayer_number: the holder's municipal taxpayer registration on the alvará

Sapezal Lei 125/1999, art. 9º, III requires the alvará to carry the holder's number in the
municipal taxpayer register (cadastro de contribuintes); the rule packs read it as the fact
permit.taxpayer_number_recorded. Nullable: other municipalities do not require it.

Revision ID: 0004_permit_taxpayer_number
Revises: 0003_operator_name_search
"""
import sqlalchemy as sa
from alembic import op

revision = "0004_permit_taxpayer_number"
down_revision = "0003_operator_name_search"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("permit", schema=None) as batch_op:
        batch_op.add_column(sa.Column("taxpayer_number", sa.String(length=30), nullable=True))


def downgrade():
    with op.batch_alter_table("permit", schema=None) as batch_op:
        batch_op.drop_column("taxpayer_number")
